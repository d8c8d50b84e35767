#include "library.h"

#include <dlfcn.h>

#include <atomic>
#include <map>
#include <mutex>

namespace {

std::mutex open_mutex;
// Tables are never freed and libraries never dlclosed: a worker may be inside a call through the old table while
// another thread switches paths (tests do), and one table per distinct path is a few hundred bytes.
std::map<std::string, NvmlLibrary*> tables_by_path;
std::atomic<const NvmlLibrary*> current_library{nullptr};

NvmlLibrary* ResolveSymbols(const std::string& path, void* handle) {
  auto* library = new NvmlLibrary();
  library->path = path;
  library->handle = handle;
#define NVML_RESOLVE_MEMBER(name, type) library->name = reinterpret_cast<type>(dlsym(handle, #name));
  NVML_SYMBOLS(NVML_RESOLVE_MEMBER)
#undef NVML_RESOLVE_MEMBER
  return library;
}

}  // namespace

OpenOutcome OpenNvmlLibrary(const std::string& path) {
  std::lock_guard<std::mutex> lock(open_mutex);
  auto found = tables_by_path.find(path);
  if (found != tables_by_path.end()) {
    current_library.store(found->second, std::memory_order_release);
    return {found->second, ""};
  }
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    return {nullptr, reason != nullptr ? reason : "dlopen failed without a message"};
  }
  NvmlLibrary* library = ResolveSymbols(path, handle);
  tables_by_path.emplace(path, library);
  current_library.store(library, std::memory_order_release);
  return {library, ""};
}

const NvmlLibrary* CurrentNvmlLibrary() { return current_library.load(std::memory_order_acquire); }

std::vector<std::pair<const char*, bool>> ListNvmlSymbols(const NvmlLibrary& library) {
  std::vector<std::pair<const char*, bool>> symbols;
#define NVML_LIST_MEMBER(name, type) symbols.emplace_back(#name, library.name != nullptr);
  NVML_SYMBOLS(NVML_LIST_MEMBER)
#undef NVML_LIST_MEMBER
  return symbols;
}
