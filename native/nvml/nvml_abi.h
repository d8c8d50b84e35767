// The slice of NVML's C ABI this binding uses, declared here so the addon builds without nvml.h or a driver.
// Layouts are x86-64 / aarch64 LP64 (see docs/NVML.md); layouts.cc reports sizes and offsets so a test can pin them.
#ifndef VIRNUCPRO_NVML_ABI_H
#define VIRNUCPRO_NVML_ABI_H

#include <cstdint>

extern "C" {

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st* nvmlDevice_t;
typedef struct nvmlGpmSample_st* nvmlGpmSample_t;

enum : int {
  NVML_SUCCESS = 0,
  NVML_ERROR_INVALID_ARGUMENT = 2,
  NVML_ERROR_LIBRARY_NOT_FOUND = 12,
  NVML_ERROR_FUNCTION_NOT_FOUND = 13,
};

// Buffer sizes from nvml.h; the larger "v2" sizes are safe for every driver.
constexpr unsigned kSystemVersionBufferSize = 80;
constexpr unsigned kDeviceNameBufferSize = 96;
constexpr unsigned kDeviceUuidBufferSize = 96;
constexpr unsigned kGpmMetricsMax = 333;  // NVML_GPM_METRIC_MAX: the driver may touch every slot, so allocate all

typedef struct {
  unsigned int gpu;
  unsigned int memory;
} nvmlUtilization_t;

typedef struct {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_t;

typedef struct {
  unsigned int version;
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
} nvmlMemory_v2_t;

// NVML_STRUCT_VERSION(Memory, 2) = sizeof(nvmlMemory_v2_t) | (2 << 24)
constexpr unsigned int kMemoryV2Version = static_cast<unsigned int>(sizeof(nvmlMemory_v2_t)) | (2u << 24);

typedef struct {
  char busIdLegacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;
  unsigned int pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

typedef union {
  double dVal;
  unsigned int uiVal;
  unsigned long ulVal;
  unsigned long long ullVal;
  signed long long sllVal;
  signed int siVal;
  unsigned short usVal;
} nvmlValue_t;

typedef struct {
  unsigned long long timeStamp;
  nvmlValue_t sampleValue;
} nvmlSample_t;

// The v2 layout, which nvmlDeviceGetComputeRunningProcesses_v3 fills (the unversioned symbol uses a 16-byte v1 struct).
typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlProcessInfo_t;

typedef struct {
  unsigned int version;
  unsigned int isSupportedDevice;
} nvmlGpmSupport_t;

constexpr unsigned int kGpmSupportVersion = 1;
constexpr unsigned int kGpmMetricsGetVersion = 1;

typedef struct {
  unsigned int metricId;
  nvmlReturn_t nvmlReturn;
  double value;
  struct {
    char* shortName;
    char* longName;
    char* unit;
  } metricInfo;
} nvmlGpmMetric_t;

typedef struct {
  unsigned int version;
  unsigned int numMetrics;
  nvmlGpmSample_t sample1;
  nvmlGpmSample_t sample2;
  nvmlGpmMetric_t metrics[kGpmMetricsMax];
} nvmlGpmMetricsGet_t;

// Function pointer types, one per symbol the binding resolves.
typedef nvmlReturn_t (*nvmlVoidFn)(void);
typedef const char* (*nvmlErrorStringFn)(nvmlReturn_t);
typedef nvmlReturn_t (*nvmlStringFn)(char*, unsigned int);
typedef nvmlReturn_t (*nvmlUintOutFn)(unsigned int*);
typedef nvmlReturn_t (*nvmlHandleByIndexFn)(unsigned int, nvmlDevice_t*);
typedef nvmlReturn_t (*nvmlDeviceStringFn)(nvmlDevice_t, char*, unsigned int);
typedef nvmlReturn_t (*nvmlDevicePciFn)(nvmlDevice_t, nvmlPciInfo_t*);
typedef nvmlReturn_t (*nvmlDeviceMemoryFn)(nvmlDevice_t, nvmlMemory_t*);
typedef nvmlReturn_t (*nvmlDeviceMemoryV2Fn)(nvmlDevice_t, nvmlMemory_v2_t*);
typedef nvmlReturn_t (*nvmlDeviceUtilizationFn)(nvmlDevice_t, nvmlUtilization_t*);
typedef nvmlReturn_t (*nvmlDeviceSamplesFn)(nvmlDevice_t, int, unsigned long long, int*, unsigned int*, nvmlSample_t*);
typedef nvmlReturn_t (*nvmlDeviceUintFn)(nvmlDevice_t, unsigned int*);
typedef nvmlReturn_t (*nvmlDeviceEnumUintFn)(nvmlDevice_t, int, unsigned int*);
typedef nvmlReturn_t (*nvmlDeviceUllFn)(nvmlDevice_t, unsigned long long*);
typedef nvmlReturn_t (*nvmlDeviceProcessesFn)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_t*);
typedef nvmlReturn_t (*nvmlGpmSupportFn)(nvmlDevice_t, nvmlGpmSupport_t*);
typedef nvmlReturn_t (*nvmlGpmSampleAllocFn)(nvmlGpmSample_t*);
typedef nvmlReturn_t (*nvmlGpmSampleGetFn)(nvmlDevice_t, nvmlGpmSample_t);
typedef nvmlReturn_t (*nvmlGpmMetricsGetFn)(nvmlGpmMetricsGet_t*);
typedef nvmlReturn_t (*nvmlGpmSampleFreeFn)(nvmlGpmSample_t);

}  // extern "C"

static_assert(sizeof(nvmlUtilization_t) == 8, "nvmlUtilization_t");
static_assert(sizeof(nvmlMemory_t) == 24, "nvmlMemory_t");
static_assert(sizeof(nvmlMemory_v2_t) == 40, "nvmlMemory_v2_t");
static_assert(kMemoryV2Version == 0x02000028u, "nvmlMemory_v2 version");
static_assert(sizeof(nvmlPciInfo_t) == 68, "nvmlPciInfo_t");
static_assert(sizeof(nvmlSample_t) == 16, "nvmlSample_t");
static_assert(sizeof(nvmlProcessInfo_t) == 24, "nvmlProcessInfo_t");
static_assert(sizeof(nvmlGpmSupport_t) == 8, "nvmlGpmSupport_t");
static_assert(sizeof(nvmlGpmMetric_t) == 40, "nvmlGpmMetric_t");

#endif
