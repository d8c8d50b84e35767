#include "calls.h"
#include "napi_helpers.h"

static Napi::Value CallDeviceString(const Napi::CallbackInfo& info, nvmlDeviceStringFn NvmlLibrary::*member,
                                    unsigned int capacity) {
  nvmlDevice_t device = DeviceArg(info, 0);
  nvmlReturn_t ret;
  nvmlDeviceStringFn fn = FindSymbol(member, ret);
  char buffer[128] = {0};
  if (fn != nullptr) ret = fn(device, buffer, capacity);
  Napi::Object result = RetObject(info.Env(), ret);
  result.Set("value", Napi::String::New(info.Env(), BoundedString(buffer, capacity)));
  return result;
}

Napi::Value DeviceGetName(const Napi::CallbackInfo& info) {
  return CallDeviceString(info, &NvmlLibrary::nvmlDeviceGetName, kDeviceNameBufferSize);
}

Napi::Value DeviceGetUuid(const Napi::CallbackInfo& info) {
  return CallDeviceString(info, &NvmlLibrary::nvmlDeviceGetUUID, kDeviceUuidBufferSize);
}

Napi::Value DeviceGetPciInfo(const Napi::CallbackInfo& info) {
  nvmlDevice_t device = DeviceArg(info, 0);
  nvmlReturn_t ret;
  nvmlDevicePciFn fn = FindSymbol(&NvmlLibrary::nvmlDeviceGetPciInfo_v3, ret);
  nvmlPciInfo_t pci = {};
  if (fn != nullptr) ret = fn(device, &pci);
  Napi::Env env = info.Env();
  Napi::Object result = RetObject(env, ret);
  result.Set("busIdLegacy", Napi::String::New(env, BoundedString(pci.busIdLegacy, sizeof pci.busIdLegacy)));
  result.Set("domain", Napi::Number::New(env, pci.domain));
  result.Set("bus", Napi::Number::New(env, pci.bus));
  result.Set("device", Napi::Number::New(env, pci.device));
  result.Set("pciDeviceId", Napi::Number::New(env, pci.pciDeviceId));
  result.Set("pciSubSystemId", Napi::Number::New(env, pci.pciSubSystemId));
  result.Set("busId", Napi::String::New(env, BoundedString(pci.busId, sizeof pci.busId)));
  return result;
}
