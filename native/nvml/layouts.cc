// Sizes and field offsets of the structs as this build compiled them, so a test can compare them with NVML's ABI
// (docs/NVML.md) on whatever compiler and platform built the addon.
#include <cstddef>

#include "calls.h"
#include "nvml_abi.h"

namespace {

struct Field {
  const char* name;
  size_t offset;
};

Napi::Object Layout(Napi::Env env, size_t size, std::initializer_list<Field> fields) {
  Napi::Object layout = Napi::Object::New(env);
  layout.Set("size", Napi::Number::New(env, static_cast<double>(size)));
  Napi::Object offsets = Napi::Object::New(env);
  for (const Field& field : fields) offsets.Set(field.name, Napi::Number::New(env, static_cast<double>(field.offset)));
  layout.Set("offsets", offsets);
  return layout;
}

}  // namespace

#define FIELD(type, member) Field{#member, offsetof(type, member)}

Napi::Value StructLayouts(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object layouts = Napi::Object::New(env);
  layouts.Set("nvmlUtilization_t", Layout(env, sizeof(nvmlUtilization_t),
                                          {FIELD(nvmlUtilization_t, gpu), FIELD(nvmlUtilization_t, memory)}));
  layouts.Set("nvmlMemory_t", Layout(env, sizeof(nvmlMemory_t), {FIELD(nvmlMemory_t, total), FIELD(nvmlMemory_t, free),
                                                                 FIELD(nvmlMemory_t, used)}));
  layouts.Set("nvmlMemory_v2_t",
              Layout(env, sizeof(nvmlMemory_v2_t),
                     {FIELD(nvmlMemory_v2_t, version), FIELD(nvmlMemory_v2_t, total), FIELD(nvmlMemory_v2_t, reserved),
                      FIELD(nvmlMemory_v2_t, free), FIELD(nvmlMemory_v2_t, used)}));
  layouts.Set("nvmlPciInfo_t",
              Layout(env, sizeof(nvmlPciInfo_t),
                     {FIELD(nvmlPciInfo_t, busIdLegacy), FIELD(nvmlPciInfo_t, domain), FIELD(nvmlPciInfo_t, bus),
                      FIELD(nvmlPciInfo_t, device), FIELD(nvmlPciInfo_t, pciDeviceId),
                      FIELD(nvmlPciInfo_t, pciSubSystemId), FIELD(nvmlPciInfo_t, busId)}));
  layouts.Set("nvmlSample_t", Layout(env, sizeof(nvmlSample_t),
                                     {FIELD(nvmlSample_t, timeStamp), FIELD(nvmlSample_t, sampleValue)}));
  layouts.Set("nvmlProcessInfo_t",
              Layout(env, sizeof(nvmlProcessInfo_t),
                     {FIELD(nvmlProcessInfo_t, pid), FIELD(nvmlProcessInfo_t, usedGpuMemory),
                      FIELD(nvmlProcessInfo_t, gpuInstanceId), FIELD(nvmlProcessInfo_t, computeInstanceId)}));
  layouts.Set("nvmlGpmSupport_t", Layout(env, sizeof(nvmlGpmSupport_t),
                                         {FIELD(nvmlGpmSupport_t, version), FIELD(nvmlGpmSupport_t, isSupportedDevice)}));
  layouts.Set("nvmlGpmMetric_t",
              Layout(env, sizeof(nvmlGpmMetric_t),
                     {FIELD(nvmlGpmMetric_t, metricId), FIELD(nvmlGpmMetric_t, nvmlReturn), FIELD(nvmlGpmMetric_t, value),
                      Field{"shortName", offsetof(nvmlGpmMetric_t, metricInfo.shortName)},
                      Field{"longName", offsetof(nvmlGpmMetric_t, metricInfo.longName)},
                      Field{"unit", offsetof(nvmlGpmMetric_t, metricInfo.unit)}}));
  layouts.Set("nvmlGpmMetricsGet_t",
              Layout(env, sizeof(nvmlGpmMetricsGet_t),
                     {FIELD(nvmlGpmMetricsGet_t, version), FIELD(nvmlGpmMetricsGet_t, numMetrics),
                      FIELD(nvmlGpmMetricsGet_t, sample1), FIELD(nvmlGpmMetricsGet_t, sample2),
                      FIELD(nvmlGpmMetricsGet_t, metrics)}));
  layouts.Set("memoryV2Version", Napi::Number::New(env, kMemoryV2Version));
  return layouts;
}
