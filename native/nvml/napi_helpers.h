// Conversions between N-API values and NVML types. Only conversion lives here: no retries, caching or units.
#ifndef VIRNUCPRO_NVML_NAPI_HELPERS_H
#define VIRNUCPRO_NVML_NAPI_HELPERS_H

#include <napi.h>

#include "library.h"

// Finds `member` in the current library. On failure sets `ret` to LIBRARY_NOT_FOUND (nothing opened) or
// FUNCTION_NOT_FOUND (this libnvidia-ml lacks the symbol) and returns nullptr, so callers report instead of crashing.
template <typename Fn>
Fn FindSymbol(Fn NvmlLibrary::*member, nvmlReturn_t& ret) {
  const NvmlLibrary* library = CurrentNvmlLibrary();
  if (library == nullptr) {
    ret = NVML_ERROR_LIBRARY_NOT_FOUND;
    return nullptr;
  }
  Fn fn = library->*member;
  ret = fn == nullptr ? NVML_ERROR_FUNCTION_NOT_FOUND : NVML_SUCCESS;
  return fn;
}

// A GPM sample as JS holds it: `sample` becomes nullptr once freed, so a second free or a use-after-free is refused.
struct GpmSampleBox {
  nvmlGpmSample_t sample;
};

inline Napi::Object RetObject(Napi::Env env, nvmlReturn_t ret) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("ret", Napi::Number::New(env, ret));
  return result;
}

inline Napi::BigInt U64(Napi::Env env, unsigned long long value) {
  return Napi::BigInt::New(env, static_cast<uint64_t>(value));
}

Napi::Value WrapDevice(Napi::Env env, nvmlDevice_t device);
// @throws TypeError when argument `index` is not a device handle made by this addon.
nvmlDevice_t DeviceArg(const Napi::CallbackInfo& info, size_t index);

Napi::Value WrapGpmSample(Napi::Env env, nvmlGpmSample_t sample);
// @throws TypeError when argument `index` is not a GPM sample made by this addon.
GpmSampleBox* GpmSampleArg(const Napi::CallbackInfo& info, size_t index);

// @throws TypeError when argument `index` is not a non-negative integer number below 2^32.
uint32_t Uint32Arg(const Napi::CallbackInfo& info, size_t index, const char* name);

// Reads a C string that NVML wrote into a fixed buffer, never past its end.
std::string BoundedString(const char* buffer, size_t capacity);

#endif
