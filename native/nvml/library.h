// The process-wide libnvidia-ml handle and its symbol table: opened once per path, every symbol probed once by its
// explicit (versioned) name. Worker threads share it; NVML itself is thread-safe and ref-counts nvmlInit.
#ifndef VIRNUCPRO_NVML_LIBRARY_H
#define VIRNUCPRO_NVML_LIBRARY_H

#include <string>
#include <vector>

#include "nvml_abi.h"

// X(symbol name, function pointer type): the one list of symbols; names are exactly what dlsym is asked for.
#define NVML_SYMBOLS(X)                                                    \
  X(nvmlInit_v2, nvmlVoidFn)                                               \
  X(nvmlShutdown, nvmlVoidFn)                                              \
  X(nvmlErrorString, nvmlErrorStringFn)                                    \
  X(nvmlSystemGetDriverVersion, nvmlStringFn)                              \
  X(nvmlSystemGetNVMLVersion, nvmlStringFn)                                \
  X(nvmlDeviceGetCount_v2, nvmlUintOutFn)                                  \
  X(nvmlDeviceGetHandleByIndex_v2, nvmlHandleByIndexFn)                    \
  X(nvmlDeviceGetName, nvmlDeviceStringFn)                                 \
  X(nvmlDeviceGetUUID, nvmlDeviceStringFn)                                 \
  X(nvmlDeviceGetPciInfo_v3, nvmlDevicePciFn)                              \
  X(nvmlDeviceGetMemoryInfo, nvmlDeviceMemoryFn)                           \
  X(nvmlDeviceGetMemoryInfo_v2, nvmlDeviceMemoryV2Fn)                      \
  X(nvmlDeviceGetUtilizationRates, nvmlDeviceUtilizationFn)                \
  X(nvmlDeviceGetSamples, nvmlDeviceSamplesFn)                             \
  X(nvmlDeviceGetTemperature, nvmlDeviceEnumUintFn)                        \
  X(nvmlDeviceGetPowerUsage, nvmlDeviceUintFn)                             \
  X(nvmlDeviceGetEnforcedPowerLimit, nvmlDeviceUintFn)                     \
  X(nvmlDeviceGetTotalEnergyConsumption, nvmlDeviceUllFn)                  \
  X(nvmlDeviceGetClockInfo, nvmlDeviceEnumUintFn)                          \
  X(nvmlDeviceGetCurrentClocksEventReasons, nvmlDeviceUllFn)               \
  X(nvmlDeviceGetCurrentClocksThrottleReasons, nvmlDeviceUllFn)            \
  X(nvmlDeviceGetComputeRunningProcesses_v3, nvmlDeviceProcessesFn)        \
  X(nvmlGpmQueryDeviceSupport, nvmlGpmSupportFn)                           \
  X(nvmlGpmSampleAlloc, nvmlGpmSampleAllocFn)                              \
  X(nvmlGpmSampleGet, nvmlGpmSampleGetFn)                                  \
  X(nvmlGpmMetricsGet, nvmlGpmMetricsGetFn)                                \
  X(nvmlGpmSampleFree, nvmlGpmSampleFreeFn)

struct NvmlLibrary {
  std::string path;
  void* handle;
#define NVML_DECLARE_MEMBER(name, type) type name;
  NVML_SYMBOLS(NVML_DECLARE_MEMBER)
#undef NVML_DECLARE_MEMBER
};

struct OpenOutcome {
  const NvmlLibrary* library;  // nullptr when dlopen failed
  std::string error;           // dlerror() text when it failed
};

// Makes `path` the library every call goes through. A path already opened in this process reuses its table.
OpenOutcome OpenNvmlLibrary(const std::string& path);

// The library calls go through now, or nullptr before any successful OpenNvmlLibrary.
const NvmlLibrary* CurrentNvmlLibrary();

// (symbol name, found) for every symbol of `library`, in NVML_SYMBOLS order.
std::vector<std::pair<const char*, bool>> ListNvmlSymbols(const NvmlLibrary& library);

#endif
