// Versions: the SDK's own release version and the Backend API version plugins are built for.
//
// The Backend API version follows spec 001: a change that breaks ABI compatibility of the
// backend interfaces bumps the major; a compatible addition bumps the minor. A backend built
// for {major, minor} runs on a runtime whose API has the same major and a minor >= its own.
#pragma once

#include <backplane/backend_c_api.h>

#include <cstdint>
#include <string>

namespace backplane {

// The SDK release (semver). Plain data; thread-safe to read.
struct SdkVersion {
  std::uint32_t major;
  std::uint32_t minor;
  std::uint32_t patch;
};
inline constexpr SdkVersion kSdkVersion{0, 2, 0};

// The release of the libbackplane_sdk this process loaded, as that library was built: an app
// compares it with kSdkVersion (the headers it was compiled with) to notice a library swapped
// under it. Same major, loaded minor >= the headers' minor is compatible (the soname carries
// the major). Thread-safe; never throws.
SdkVersion LoadedSdkVersion() noexcept;

constexpr bool operator==(SdkVersion a, SdkVersion b) {
  return a.major == b.major && a.minor == b.minor && a.patch == b.patch;
}
constexpr bool operator!=(SdkVersion a, SdkVersion b) { return !(a == b); }

// A Backend API version. Plain value type.
struct BackendApiVersion {
  std::uint32_t major = 0;
  std::uint32_t minor = 0;

  friend constexpr bool operator==(BackendApiVersion a, BackendApiVersion b) {
    return a.major == b.major && a.minor == b.minor;
  }
  friend constexpr bool operator!=(BackendApiVersion a, BackendApiVersion b) { return !(a == b); }
};

// The Backend API this SDK's headers declare. Plugins record it at compile time (plugin.hpp);
// the runtime compares it with its own copy at load time.
// History: 1.0 and 1.1 were C++ interfaces crossing the plugin boundary (refused since 2.0);
// 2.0 is the C boundary of backplane/backend_c_api.h, which owns the numbers.
inline constexpr BackendApiVersion kBackendApiVersion{BP_BACKEND_API_MAJOR, BP_BACKEND_API_MINOR};

// True when a backend built for `backend` can be loaded by a runtime implementing `runtime`:
// equal majors and backend minor <= runtime minor.
constexpr bool IsBackendApiCompatible(BackendApiVersion backend, BackendApiVersion runtime) {
  return backend.major == runtime.major && backend.minor <= runtime.minor;
}

// "2.4" for {2, 4}; "0.1.0" for an SdkVersion.
std::string ToString(BackendApiVersion version);
std::string ToString(SdkVersion version);

// Parses "MAJOR.MINOR" (decimal, no sign, no spaces). Returns false and leaves `out` untouched
// on anything else.
bool ParseBackendApiVersion(const std::string& text, BackendApiVersion& out);

}  // namespace backplane
