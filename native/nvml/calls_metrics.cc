#include "calls.h"
#include "napi_helpers.h"

Napi::Value DeviceGetMemoryInfo(const Napi::CallbackInfo& info) {
  nvmlDevice_t device = DeviceArg(info, 0);
  nvmlReturn_t ret;
  nvmlDeviceMemoryFn fn = FindSymbol(&NvmlLibrary::nvmlDeviceGetMemoryInfo, ret);
  nvmlMemory_t memory = {};
  if (fn != nullptr) ret = fn(device, &memory);
  Napi::Env env = info.Env();
  Napi::Object result = RetObject(env, ret);
  result.Set("total", U64(env, memory.total));
  result.Set("free", U64(env, memory.free));
  result.Set("used", U64(env, memory.used));
  return result;
}

Napi::Value DeviceGetMemoryInfoV2(const Napi::CallbackInfo& info) {
  nvmlDevice_t device = DeviceArg(info, 0);
  nvmlReturn_t ret;
  nvmlDeviceMemoryV2Fn fn = FindSymbol(&NvmlLibrary::nvmlDeviceGetMemoryInfo_v2, ret);
  nvmlMemory_v2_t memory = {};
  memory.version = kMemoryV2Version;
  if (fn != nullptr) ret = fn(device, &memory);
  Napi::Env env = info.Env();
  Napi::Object result = RetObject(env, ret);
  result.Set("version", Napi::Number::New(env, memory.version));
  result.Set("total", U64(env, memory.total));
  result.Set("reserved", U64(env, memory.reserved));
  result.Set("free", U64(env, memory.free));
  result.Set("used", U64(env, memory.used));
  return result;
}

Napi::Value DeviceGetUtilizationRates(const Napi::CallbackInfo& info) {
  nvmlDevice_t device = DeviceArg(info, 0);
  nvmlReturn_t ret;
  nvmlDeviceUtilizationFn fn = FindSymbol(&NvmlLibrary::nvmlDeviceGetUtilizationRates, ret);
  nvmlUtilization_t utilization = {};
  if (fn != nullptr) ret = fn(device, &utilization);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("gpu", Napi::Number::New(info.Env(), utilization.gpu));
  result.Set("memory", Napi::Number::New(info.Env(), utilization.memory));
  return result;
}

static Napi::Value CallDeviceUint(const Napi::CallbackInfo& info, nvmlDeviceUintFn NvmlLibrary::*member) {
  nvmlDevice_t device = DeviceArg(info, 0);
  nvmlReturn_t ret;
  nvmlDeviceUintFn fn = FindSymbol(member, ret);
  unsigned int value = 0;
  if (fn != nullptr) ret = fn(device, &value);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("value", Napi::Number::New(info.Env(), value));
  return result;
}

// Calls whose second argument is an NVML enum (sensor, clock type), passed through unchecked: NVML validates it.
static Napi::Value CallDeviceEnumUint(const Napi::CallbackInfo& info, nvmlDeviceEnumUintFn NvmlLibrary::*member) {
  nvmlDevice_t device = DeviceArg(info, 0);
  uint32_t kind = Uint32Arg(info, 1, "enum value");
  nvmlReturn_t ret;
  nvmlDeviceEnumUintFn fn = FindSymbol(member, ret);
  unsigned int value = 0;
  if (fn != nullptr) ret = fn(device, static_cast<int>(kind), &value);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("value", Napi::Number::New(info.Env(), value));
  return result;
}

static Napi::Value CallDeviceUll(const Napi::CallbackInfo& info, nvmlDeviceUllFn NvmlLibrary::*member) {
  nvmlDevice_t device = DeviceArg(info, 0);
  nvmlReturn_t ret;
  nvmlDeviceUllFn fn = FindSymbol(member, ret);
  unsigned long long value = 0;
  if (fn != nullptr) ret = fn(device, &value);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("value", U64(info.Env(), value));
  return result;
}

Napi::Value DeviceGetTemperature(const Napi::CallbackInfo& info) {
  return CallDeviceEnumUint(info, &NvmlLibrary::nvmlDeviceGetTemperature);
}

Napi::Value DeviceGetPowerUsage(const Napi::CallbackInfo& info) {
  return CallDeviceUint(info, &NvmlLibrary::nvmlDeviceGetPowerUsage);
}

Napi::Value DeviceGetEnforcedPowerLimit(const Napi::CallbackInfo& info) {
  return CallDeviceUint(info, &NvmlLibrary::nvmlDeviceGetEnforcedPowerLimit);
}

Napi::Value DeviceGetTotalEnergyConsumption(const Napi::CallbackInfo& info) {
  return CallDeviceUll(info, &NvmlLibrary::nvmlDeviceGetTotalEnergyConsumption);
}

Napi::Value DeviceGetClockInfo(const Napi::CallbackInfo& info) {
  return CallDeviceEnumUint(info, &NvmlLibrary::nvmlDeviceGetClockInfo);
}

Napi::Value DeviceGetCurrentClocksEventReasons(const Napi::CallbackInfo& info) {
  return CallDeviceUll(info, &NvmlLibrary::nvmlDeviceGetCurrentClocksEventReasons);
}

Napi::Value DeviceGetCurrentClocksThrottleReasons(const Napi::CallbackInfo& info) {
  return CallDeviceUll(info, &NvmlLibrary::nvmlDeviceGetCurrentClocksThrottleReasons);
}
