// What this process can load: the platform, ABI and Backend API a plugin must be built for.
// Identity descriptors (plugin_library.hpp) and manifests (discovery/manifest.hpp) are both
// checked against it.
#pragma once

#include <backplane/version.hpp>

#include <string>

namespace backplane::loading {

struct TargetTags {
  std::string platform;  // e.g. "linux-x86_64"
  std::string abi;       // "c" since Backend API 2.0
  BackendApiVersion api = kBackendApiVersion;  // the Backend API it implements
};

// The tags of this build of the runtime (plugin.hpp's macros). Thread-safe.
TargetTags RuntimeTargetTags();

}  // namespace backplane::loading
