// Module registration. Node-API modules are context-aware: each Node environment (main thread, every worker) gets
// its own exports object; the only shared state is the process-wide library table in library.cc.
#include <napi.h>

#include "calls.h"

static Napi::Object RegisterExports(Napi::Env env, Napi::Object exports) {
  const std::pair<const char*, Napi::Function::Callback> functions[] = {
      {"openLibrary", OpenLibrary},
      {"librarySymbols", LibrarySymbols},
      {"structLayouts", StructLayouts},
      {"init", Init},
      {"shutdown", Shutdown},
      {"errorString", ErrorString},
      {"systemGetDriverVersion", SystemGetDriverVersion},
      {"systemGetNvmlVersion", SystemGetNvmlVersion},
      {"deviceGetCount", DeviceGetCount},
      {"deviceGetHandleByIndex", DeviceGetHandleByIndex},
      {"deviceGetName", DeviceGetName},
      {"deviceGetUuid", DeviceGetUuid},
      {"deviceGetPciInfo", DeviceGetPciInfo},
      {"deviceGetMemoryInfo", DeviceGetMemoryInfo},
      {"deviceGetMemoryInfoV2", DeviceGetMemoryInfoV2},
      {"deviceGetUtilizationRates", DeviceGetUtilizationRates},
      {"deviceGetSamples", DeviceGetSamples},
      {"deviceGetTemperature", DeviceGetTemperature},
      {"deviceGetPowerUsage", DeviceGetPowerUsage},
      {"deviceGetEnforcedPowerLimit", DeviceGetEnforcedPowerLimit},
      {"deviceGetTotalEnergyConsumption", DeviceGetTotalEnergyConsumption},
      {"deviceGetClockInfo", DeviceGetClockInfo},
      {"deviceGetCurrentClocksEventReasons", DeviceGetCurrentClocksEventReasons},
      {"deviceGetCurrentClocksThrottleReasons", DeviceGetCurrentClocksThrottleReasons},
      {"deviceGetComputeRunningProcesses", DeviceGetComputeRunningProcesses},
      {"gpmQueryDeviceSupport", GpmQueryDeviceSupport},
      {"gpmSampleAlloc", GpmSampleAlloc},
      {"gpmSampleGet", GpmSampleGet},
      {"gpmMetricsGet", GpmMetricsGet},
      {"gpmSampleFree", GpmSampleFree},
  };
  for (const auto& [name, callback] : functions) exports.Set(name, Napi::Function::New(env, callback, name));
  return exports;
}

NODE_API_MODULE(nvml, RegisterExports)
