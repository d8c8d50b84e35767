// GPM (GPU performance monitoring, Hopper and later): chip-level SM / tensor / DRAM activity between two samples.
#include <memory>

#include "calls.h"
#include "napi_helpers.h"

Napi::Value GpmQueryDeviceSupport(const Napi::CallbackInfo& info) {
  nvmlDevice_t device = DeviceArg(info, 0);
  nvmlReturn_t ret;
  nvmlGpmSupportFn fn = FindSymbol(&NvmlLibrary::nvmlGpmQueryDeviceSupport, ret);
  nvmlGpmSupport_t support = {kGpmSupportVersion, 0};
  if (fn != nullptr) ret = fn(device, &support);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("version", Napi::Number::New(info.Env(), support.version));
  result.Set("isSupportedDevice", Napi::Number::New(info.Env(), support.isSupportedDevice));
  return result;
}

Napi::Value GpmSampleAlloc(const Napi::CallbackInfo& info) {
  nvmlReturn_t ret;
  nvmlGpmSampleAllocFn fn = FindSymbol(&NvmlLibrary::nvmlGpmSampleAlloc, ret);
  nvmlGpmSample_t sample = nullptr;
  if (fn != nullptr) ret = fn(&sample);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("sample", ret == NVML_SUCCESS ? WrapGpmSample(info.Env(), sample) : info.Env().Null());
  return result;
}

Napi::Value GpmSampleGet(const Napi::CallbackInfo& info) {
  nvmlDevice_t device = DeviceArg(info, 0);
  GpmSampleBox* box = GpmSampleArg(info, 1);
  nvmlReturn_t ret;
  nvmlGpmSampleGetFn fn = FindSymbol(&NvmlLibrary::nvmlGpmSampleGet, ret);
  if (fn != nullptr) ret = box->sample == nullptr ? NVML_ERROR_INVALID_ARGUMENT : fn(device, box->sample);
  return Napi::Number::New(info.Env(), ret);
}

Napi::Value GpmSampleFree(const Napi::CallbackInfo& info) {
  GpmSampleBox* box = GpmSampleArg(info, 0);
  nvmlReturn_t ret;
  nvmlGpmSampleFreeFn fn = FindSymbol(&NvmlLibrary::nvmlGpmSampleFree, ret);
  if (fn != nullptr && box->sample == nullptr) ret = NVML_ERROR_INVALID_ARGUMENT;
  else if (fn != nullptr) {
    ret = fn(box->sample);
    if (ret == NVML_SUCCESS) box->sample = nullptr;
  }
  return Napi::Number::New(info.Env(), ret);
}

static Napi::Value MetricName(Napi::Env env, const char* text) {
  return text == nullptr ? env.Null() : Napi::String::New(env, text);
}

static Napi::Object MetricObject(Napi::Env env, const nvmlGpmMetric_t& metric) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("metricId", Napi::Number::New(env, metric.metricId));
  result.Set("ret", Napi::Number::New(env, metric.nvmlReturn));
  result.Set("value", Napi::Number::New(env, metric.value));
  result.Set("shortName", MetricName(env, metric.metricInfo.shortName));
  result.Set("longName", MetricName(env, metric.metricInfo.longName));
  result.Set("unit", MetricName(env, metric.metricInfo.unit));
  return result;
}

// gpmMetricsGet(sample1, sample2, metricIds[]) -> {ret, metrics: [{metricId, ret, value, shortName, longName, unit}]}
Napi::Value GpmMetricsGet(const Napi::CallbackInfo& info) {
  GpmSampleBox* first = GpmSampleArg(info, 0);
  GpmSampleBox* second = GpmSampleArg(info, 1);
  if (!info[2].IsArray()) throw Napi::TypeError::New(info.Env(), "nvml addon: argument 2 must be an array of metric ids");
  Napi::Array ids = info[2].As<Napi::Array>();
  if (ids.Length() > kGpmMetricsMax) {
    throw Napi::RangeError::New(info.Env(), "nvml addon: at most " + std::to_string(kGpmMetricsMax) + " GPM metrics");
  }
  auto request = std::make_unique<nvmlGpmMetricsGet_t>();  // ~13 KB: too large for comfort on a worker's stack
  *request = {};
  request->version = kGpmMetricsGetVersion;
  request->numMetrics = ids.Length();
  request->sample1 = first->sample;
  request->sample2 = second->sample;
  for (uint32_t i = 0; i < ids.Length(); i++) {
    Napi::Value id = ids.Get(i);
    if (!id.IsNumber()) throw Napi::TypeError::New(info.Env(), "nvml addon: metric ids must be numbers");
    request->metrics[i].metricId = id.As<Napi::Number>().Uint32Value();
  }
  nvmlReturn_t ret;
  nvmlGpmMetricsGetFn fn = FindSymbol(&NvmlLibrary::nvmlGpmMetricsGet, ret);
  bool freed = first->sample == nullptr || second->sample == nullptr;
  if (fn != nullptr) ret = freed ? NVML_ERROR_INVALID_ARGUMENT : fn(request.get());
  Napi::Env env = info.Env();
  Napi::Object result = RetObject(env, ret);
  Napi::Array metrics = Napi::Array::New(env, ret == NVML_SUCCESS ? request->numMetrics : 0);
  if (ret == NVML_SUCCESS) {
    for (uint32_t i = 0; i < request->numMetrics && i < kGpmMetricsMax; i++) metrics.Set(i, MetricObject(env, request->metrics[i]));
  }
  result.Set("metrics", metrics);
  return result;
}
