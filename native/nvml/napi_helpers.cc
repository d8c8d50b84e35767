#include "napi_helpers.h"

#include <cmath>
#include <cstring>
#include <string>

namespace {

// Random 128-bit tags: N-API refuses an External whose tag differs, so JS cannot pass a sample where a device goes.
constexpr napi_type_tag kDeviceTag = {0x6e766d6c64657669ULL, 0x9c1d3a7f52e04b18ULL};
constexpr napi_type_tag kGpmSampleTag = {0x6e766d6c67706d73ULL, 0x3b7e91c2d4a6f805ULL};

void FreeBox(Napi::Env, GpmSampleBox* box) { delete box; }

std::string ArgumentMessage(size_t index, const char* expected) {
  return "nvml addon: argument " + std::to_string(index) + " must be " + expected;
}

}  // namespace

Napi::Value WrapDevice(Napi::Env env, nvmlDevice_t device) {
  auto external = Napi::External<nvmlDevice_st>::New(env, device);
  external.TypeTag(&kDeviceTag);
  return external;
}

nvmlDevice_t DeviceArg(const Napi::CallbackInfo& info, size_t index) {
  Napi::Value value = info[index];
  if (!value.IsExternal() || !value.As<Napi::External<nvmlDevice_st>>().CheckTypeTag(&kDeviceTag)) {
    throw Napi::TypeError::New(info.Env(), ArgumentMessage(index, "a device handle from deviceGetHandleByIndex"));
  }
  return value.As<Napi::External<nvmlDevice_st>>().Data();
}

Napi::Value WrapGpmSample(Napi::Env env, nvmlGpmSample_t sample) {
  auto external = Napi::External<GpmSampleBox>::New(env, new GpmSampleBox{sample}, FreeBox);
  external.TypeTag(&kGpmSampleTag);
  return external;
}

GpmSampleBox* GpmSampleArg(const Napi::CallbackInfo& info, size_t index) {
  Napi::Value value = info[index];
  if (!value.IsExternal() || !value.As<Napi::External<GpmSampleBox>>().CheckTypeTag(&kGpmSampleTag)) {
    throw Napi::TypeError::New(info.Env(), ArgumentMessage(index, "a GPM sample from gpmSampleAlloc"));
  }
  return value.As<Napi::External<GpmSampleBox>>().Data();
}

uint32_t Uint32Arg(const Napi::CallbackInfo& info, size_t index, const char* name) {
  Napi::Value value = info[index];
  if (!value.IsNumber()) {
    throw Napi::TypeError::New(info.Env(), ArgumentMessage(index, "a number") + " (" + name + ")");
  }
  double number = value.As<Napi::Number>().DoubleValue();
  if (!(number >= 0 && number <= 4294967295.0) || std::floor(number) != number) {
    throw Napi::TypeError::New(info.Env(), ArgumentMessage(index, "an integer in [0, 2^32)") + " (" + name +
                                               ", got " + std::to_string(number) + ")");
  }
  return static_cast<uint32_t>(number);
}

std::string BoundedString(const char* buffer, size_t capacity) { return std::string(buffer, strnlen(buffer, capacity)); }
