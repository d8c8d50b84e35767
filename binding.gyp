# The NVML addon (native/nvml). At the repo root so the output is build/Release/nvml.node, which src/nvml/load.ts looks
# for first. Built by native/nvml/build.ts (npm's install script) against local Node headers, never downloaded ones.
{
  "targets": [
    {
      "target_name": "nvml",
      "sources": [
        "native/nvml/addon.cc",
        "native/nvml/library.cc",
        "native/nvml/napi_helpers.cc",
        "native/nvml/calls_system.cc",
        "native/nvml/calls_identity.cc",
        "native/nvml/calls_metrics.cc",
        "native/nvml/calls_lists.cc",
        "native/nvml/calls_gpm.cc",
        "native/nvml/layouts.cc"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      # N-API 8 (type tags on externals); one build serves every Node from 22 to 26.
      "defines": ["NAPI_VERSION=8", "NODE_ADDON_API_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-Wall", "-Wextra"],
      "libraries": ["-ldl"]
    }
  ]
}
