// Calls that fill caller-sized arrays. Capacity comes from JS (0 asks for the count only); when NVML answers
// INSUFFICIENT_SIZE the caller grows and retries, the C++ side never loops.
#include <vector>

#include "calls.h"
#include "napi_helpers.h"

namespace {

constexpr uint32_t kMaxListCapacity = 1u << 16;

uint32_t CapacityArg(const Napi::CallbackInfo& info, size_t index) {
  uint32_t capacity = Uint32Arg(info, index, "capacity");
  if (capacity > kMaxListCapacity) {
    throw Napi::RangeError::New(info.Env(), "nvml addon: capacity " + std::to_string(capacity) + " exceeds " +
                                                std::to_string(kMaxListCapacity));
  }
  return capacity;
}

unsigned long long TimestampArg(const Napi::CallbackInfo& info, size_t index) {
  if (info[index].IsBigInt()) {
    bool lossless = false;
    return info[index].As<Napi::BigInt>().Uint64Value(&lossless);
  }
  return Uint32Arg(info, index, "lastSeenTimeStamp");
}

// nvmlValue_t decoded by the value type NVML reported; 64-bit integers stay BigInt so nothing is rounded.
Napi::Value SampleValue(Napi::Env env, int valueType, const nvmlValue_t& value) {
  switch (valueType) {
    case 0: return Napi::Number::New(env, value.dVal);
    case 1: return Napi::Number::New(env, value.uiVal);
    case 2: return U64(env, value.ulVal);
    case 4: return Napi::BigInt::New(env, static_cast<int64_t>(value.sllVal));
    case 5: return Napi::Number::New(env, value.siVal);
    case 6: return Napi::Number::New(env, value.usVal);
    default: return U64(env, value.ullVal);
  }
}

}  // namespace

// deviceGetSamples(device, samplingType, lastSeenTimeStamp, capacity) -> {ret, valueType, count, samples}
Napi::Value DeviceGetSamples(const Napi::CallbackInfo& info) {
  nvmlDevice_t device = DeviceArg(info, 0);
  uint32_t samplingType = Uint32Arg(info, 1, "samplingType");
  unsigned long long lastSeen = TimestampArg(info, 2);
  uint32_t capacity = CapacityArg(info, 3);
  nvmlReturn_t ret;
  nvmlDeviceSamplesFn fn = FindSymbol(&NvmlLibrary::nvmlDeviceGetSamples, ret);
  std::vector<nvmlSample_t> samples(capacity);
  int valueType = -1;
  unsigned int count = capacity;
  if (fn != nullptr) {
    ret = fn(device, static_cast<int>(samplingType), lastSeen, &valueType, &count,
             capacity == 0 ? nullptr : samples.data());
  }
  Napi::Env env = info.Env();
  Napi::Object result = RetObject(env, ret);
  result.Set("valueType", Napi::Number::New(env, valueType));
  result.Set("count", Napi::Number::New(env, fn != nullptr ? count : 0));
  unsigned int filled = ret == NVML_SUCCESS && capacity > 0 ? std::min(count, capacity) : 0;
  Napi::Array list = Napi::Array::New(env, filled);
  for (unsigned int i = 0; i < filled; i++) {
    Napi::Object sample = Napi::Object::New(env);
    sample.Set("timeStamp", U64(env, samples[i].timeStamp));
    sample.Set("value", SampleValue(env, valueType, samples[i].sampleValue));
    list.Set(i, sample);
  }
  result.Set("samples", list);
  return result;
}

// deviceGetComputeRunningProcesses(device, capacity) -> {ret, count, processes}; uses the _v3 symbol (24-byte entries).
Napi::Value DeviceGetComputeRunningProcesses(const Napi::CallbackInfo& info) {
  nvmlDevice_t device = DeviceArg(info, 0);
  uint32_t capacity = CapacityArg(info, 1);
  nvmlReturn_t ret;
  nvmlDeviceProcessesFn fn = FindSymbol(&NvmlLibrary::nvmlDeviceGetComputeRunningProcesses_v3, ret);
  std::vector<nvmlProcessInfo_t> processes(capacity);
  unsigned int count = capacity;
  if (fn != nullptr) ret = fn(device, &count, capacity == 0 ? nullptr : processes.data());
  Napi::Env env = info.Env();
  Napi::Object result = RetObject(env, ret);
  result.Set("count", Napi::Number::New(env, fn != nullptr ? count : 0));
  unsigned int filled = ret == NVML_SUCCESS ? std::min(count, capacity) : 0;
  Napi::Array list = Napi::Array::New(env, filled);
  for (unsigned int i = 0; i < filled; i++) {
    Napi::Object process = Napi::Object::New(env);
    process.Set("pid", Napi::Number::New(env, processes[i].pid));
    process.Set("usedGpuMemory", U64(env, processes[i].usedGpuMemory));
    process.Set("gpuInstanceId", Napi::Number::New(env, processes[i].gpuInstanceId));
    process.Set("computeInstanceId", Napi::Number::New(env, processes[i].computeInstanceId));
    list.Set(i, process);
  }
  result.Set("processes", list);
  return result;
}
