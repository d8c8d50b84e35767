#include "calls.h"
#include "napi_helpers.h"

Napi::Value OpenLibrary(const Napi::CallbackInfo& info) {
  if (!info[0].IsString()) throw Napi::TypeError::New(info.Env(), "nvml addon: openLibrary(path) needs a string path");
  OpenOutcome outcome = OpenNvmlLibrary(info[0].As<Napi::String>().Utf8Value());
  Napi::Object result = Napi::Object::New(info.Env());
  result.Set("loaded", Napi::Boolean::New(info.Env(), outcome.library != nullptr));
  result.Set("error", outcome.library != nullptr ? info.Env().Null() : Napi::String::New(info.Env(), outcome.error));
  return result;
}

// {symbolName: found} for the current library, or null before one is opened.
Napi::Value LibrarySymbols(const Napi::CallbackInfo& info) {
  const NvmlLibrary* library = CurrentNvmlLibrary();
  if (library == nullptr) return info.Env().Null();
  Napi::Object result = Napi::Object::New(info.Env());
  for (const auto& [name, found] : ListNvmlSymbols(*library)) result.Set(name, Napi::Boolean::New(info.Env(), found));
  result.Set("$path", Napi::String::New(info.Env(), library->path));
  return result;
}

static Napi::Value CallVoid(const Napi::CallbackInfo& info, nvmlVoidFn NvmlLibrary::*member) {
  nvmlReturn_t ret;
  nvmlVoidFn fn = FindSymbol(member, ret);
  if (fn != nullptr) ret = fn();
  return Napi::Number::New(info.Env(), ret);
}

Napi::Value Init(const Napi::CallbackInfo& info) { return CallVoid(info, &NvmlLibrary::nvmlInit_v2); }

Napi::Value Shutdown(const Napi::CallbackInfo& info) { return CallVoid(info, &NvmlLibrary::nvmlShutdown); }

// NVML's own text for `code`, or null when no library (or no nvmlErrorString) is there to ask.
Napi::Value ErrorString(const Napi::CallbackInfo& info) {
  nvmlReturn_t ret;
  nvmlErrorStringFn fn = FindSymbol(&NvmlLibrary::nvmlErrorString, ret);
  if (fn == nullptr || !info[0].IsNumber()) return info.Env().Null();
  const char* text = fn(info[0].As<Napi::Number>().Int32Value());
  return text == nullptr ? info.Env().Null() : Napi::String::New(info.Env(), text);
}

static Napi::Value CallSystemString(const Napi::CallbackInfo& info, nvmlStringFn NvmlLibrary::*member) {
  nvmlReturn_t ret;
  nvmlStringFn fn = FindSymbol(member, ret);
  char buffer[kSystemVersionBufferSize] = {0};
  if (fn != nullptr) ret = fn(buffer, kSystemVersionBufferSize);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("value", Napi::String::New(info.Env(), BoundedString(buffer, sizeof buffer)));
  return result;
}

Napi::Value SystemGetDriverVersion(const Napi::CallbackInfo& info) {
  return CallSystemString(info, &NvmlLibrary::nvmlSystemGetDriverVersion);
}

Napi::Value SystemGetNvmlVersion(const Napi::CallbackInfo& info) {
  return CallSystemString(info, &NvmlLibrary::nvmlSystemGetNVMLVersion);
}

Napi::Value DeviceGetCount(const Napi::CallbackInfo& info) {
  nvmlReturn_t ret;
  nvmlUintOutFn fn = FindSymbol(&NvmlLibrary::nvmlDeviceGetCount_v2, ret);
  unsigned int count = 0;
  if (fn != nullptr) ret = fn(&count);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("value", Napi::Number::New(info.Env(), count));
  return result;
}

Napi::Value DeviceGetHandleByIndex(const Napi::CallbackInfo& info) {
  uint32_t index = Uint32Arg(info, 0, "index");
  nvmlReturn_t ret;
  nvmlHandleByIndexFn fn = FindSymbol(&NvmlLibrary::nvmlDeviceGetHandleByIndex_v2, ret);
  nvmlDevice_t device = nullptr;
  if (fn != nullptr) ret = fn(index, &device);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("handle", ret == NVML_SUCCESS ? WrapDevice(info.Env(), device) : info.Env().Null());
  return result;
}
