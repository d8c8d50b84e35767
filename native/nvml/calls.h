// One exported function per NVML call. Each returns NVML's return code as `ret` (a bare number when the call has no
// outputs) plus the raw outputs; 64-bit counters are BigInt. Argument types are checked (TypeError), nothing else.
#ifndef VIRNUCPRO_NVML_CALLS_H
#define VIRNUCPRO_NVML_CALLS_H

#include <napi.h>

// calls_system.cc
Napi::Value OpenLibrary(const Napi::CallbackInfo& info);
Napi::Value LibrarySymbols(const Napi::CallbackInfo& info);
Napi::Value Init(const Napi::CallbackInfo& info);
Napi::Value Shutdown(const Napi::CallbackInfo& info);
Napi::Value ErrorString(const Napi::CallbackInfo& info);
Napi::Value SystemGetDriverVersion(const Napi::CallbackInfo& info);
Napi::Value SystemGetNvmlVersion(const Napi::CallbackInfo& info);
Napi::Value DeviceGetCount(const Napi::CallbackInfo& info);
Napi::Value DeviceGetHandleByIndex(const Napi::CallbackInfo& info);

// calls_identity.cc
Napi::Value DeviceGetName(const Napi::CallbackInfo& info);
Napi::Value DeviceGetUuid(const Napi::CallbackInfo& info);
Napi::Value DeviceGetPciInfo(const Napi::CallbackInfo& info);

// calls_metrics.cc
Napi::Value DeviceGetMemoryInfo(const Napi::CallbackInfo& info);
Napi::Value DeviceGetMemoryInfoV2(const Napi::CallbackInfo& info);
Napi::Value DeviceGetUtilizationRates(const Napi::CallbackInfo& info);
Napi::Value DeviceGetTemperature(const Napi::CallbackInfo& info);
Napi::Value DeviceGetPowerUsage(const Napi::CallbackInfo& info);
Napi::Value DeviceGetEnforcedPowerLimit(const Napi::CallbackInfo& info);
Napi::Value DeviceGetTotalEnergyConsumption(const Napi::CallbackInfo& info);
Napi::Value DeviceGetClockInfo(const Napi::CallbackInfo& info);
Napi::Value DeviceGetCurrentClocksEventReasons(const Napi::CallbackInfo& info);
Napi::Value DeviceGetCurrentClocksThrottleReasons(const Napi::CallbackInfo& info);

// calls_lists.cc
Napi::Value DeviceGetSamples(const Napi::CallbackInfo& info);
Napi::Value DeviceGetComputeRunningProcesses(const Napi::CallbackInfo& info);

// calls_gpm.cc
Napi::Value GpmQueryDeviceSupport(const Napi::CallbackInfo& info);
Napi::Value GpmSampleAlloc(const Napi::CallbackInfo& info);
Napi::Value GpmSampleGet(const Napi::CallbackInfo& info);
Napi::Value GpmMetricsGet(const Napi::CallbackInfo& info);
Napi::Value GpmSampleFree(const Napi::CallbackInfo& info);

// layouts.cc
Napi::Value StructLayouts(const Napi::CallbackInfo& info);

#endif
