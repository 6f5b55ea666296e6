// The plugin contract: what a backend library exports, and the one macro that emits it.
//
// A backend plugin exports exactly four extern "C" symbols and nothing else (it is built with
// hidden visibility):
//   const char* GetBackendId();                              spec 001
//   void GetVersion(uint32_t* major, uint32_t* minor);       spec 001: Backend API version
//   void* BackendFactory();                                  spec 001: a new IBackend*, or null
//   const BackplanePluginIdentity BackplanePluginIdentityV1; identity/ABI descriptor (data)
// The identity is a data symbol so the runtime can check it before calling anything: a library
// built for another SDK that happens to export the three functions of spec 001 has no identity
// (or a wrong magic) and is rejected before BackendFactory is called.
//
// Plugin authors write one line, in one .cpp file of the plugin:
//   BACKPLANE_BACKEND_PLUGIN(CpuRef, "Backplane", "0.1.0", my::RefBackend)
// With BACKPLANE_STATIC_BACKEND defined (the build's "link statically" option), the same line
// instead registers the backend in the static-backend list, so one source serves both ways.
#pragma once

#include <backplane/backend/backend.hpp>
#include <backplane/version.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

// ---- Platform and toolchain ABI tags -------------------------------------------------------
// Written into manifests by the build and compared by the runtime before it opens a library.

#if defined(_WIN32)
#define BACKPLANE_OS_TAG "windows"
#elif defined(__APPLE__)
#define BACKPLANE_OS_TAG "macos"
#elif defined(__linux__)
#define BACKPLANE_OS_TAG "linux"
#else
#define BACKPLANE_OS_TAG "unknown"
#endif

#if defined(__x86_64__) || defined(_M_X64)
#define BACKPLANE_ARCH_TAG "x86_64"
#elif defined(__aarch64__) || defined(_M_ARM64)
#define BACKPLANE_ARCH_TAG "aarch64"
#elif defined(__i386__) || defined(_M_IX86)
#define BACKPLANE_ARCH_TAG "x86"
#elif defined(__arm__) || defined(_M_ARM)
#define BACKPLANE_ARCH_TAG "arm"
#elif defined(__riscv) && __riscv_xlen == 64
#define BACKPLANE_ARCH_TAG "riscv64"
#else
#define BACKPLANE_ARCH_TAG "unknown"
#endif

// "linux-x86_64", "windows-x86_64", "macos-aarch64".
#define BACKPLANE_PLATFORM_TAG BACKPLANE_OS_TAG "-" BACKPLANE_ARCH_TAG

// The C++ ABI the backend interfaces are compiled with: the object model plus the standard
// library flavour, since IBackend passes std::string, std::vector and std::shared_ptr.
#if defined(_MSC_VER)
#if defined(_ITERATOR_DEBUG_LEVEL) && _ITERATOR_DEBUG_LEVEL > 0
#define BACKPLANE_ABI_TAG "msvc-debug"
#else
#define BACKPLANE_ABI_TAG "msvc-release"
#endif
#elif defined(_LIBCPP_VERSION)
#define BACKPLANE_ABI_TAG "itanium-libc++"
#elif defined(__GLIBCXX__) && defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
#define BACKPLANE_ABI_TAG "itanium-libstdc++-cxx11"
#elif defined(__GLIBCXX__)
#define BACKPLANE_ABI_TAG "itanium-libstdc++-cxx98"
#else
#define BACKPLANE_ABI_TAG "unknown"
#endif

// ---- The identity/ABI descriptor -----------------------------------------------------------

extern "C" {

// 'B','K','P','L' as a little-endian word.
#define BACKPLANE_PLUGIN_MAGIC 0x4C504B42u
#define BACKPLANE_PLUGIN_IDENTITY_SYMBOL "BackplanePluginIdentityV1"

// Plain C data, written once at compile time and never changed. All strings are static,
// NUL-terminated and live as long as the library is loaded. Newer layouts only append fields
// and grow struct_size.
struct BackplanePluginIdentity {
  std::uint32_t magic;          // BACKPLANE_PLUGIN_MAGIC
  std::uint32_t struct_size;    // sizeof(BackplanePluginIdentity) of the plugin's SDK
  const char* sdk_name;         // "Backplane"
  std::uint32_t api_major;      // Backend API the plugin was compiled against
  std::uint32_t api_minor;
  const char* platform;         // BACKPLANE_PLATFORM_TAG
  const char* abi;              // BACKPLANE_ABI_TAG
  const char* backend_id;       // equal to GetBackendId()
  const char* vendor;           // e.g. "Backplane"
  const char* plugin_version;   // the plugin's own semver, e.g. "0.1.0"
  // Message of the last exception BackendFactory caught on this thread, or "" if none.
  const char* (*last_factory_error)();
};

}  // extern "C"

namespace backplane {

inline constexpr const char* kSdkName = "Backplane";

// Signatures of the entry points (spec 001).
using GetBackendIdFunction = const char*();
using GetVersionFunction = void(std::uint32_t*, std::uint32_t*);
using BackendFactoryFunction = void*();

// A backend linked into the runtime: the same information a plugin exports, as values.
struct StaticBackendEntry {
  const BackplanePluginIdentity* identity;
  std::function<std::unique_ptr<backend::IBackend>()> factory;
};

// The static-backend registration list: the one piece of global mutable state. Entries are
// added during static initialisation and never removed. Thread-safe.
void RegisterStaticBackend(StaticBackendEntry entry);
std::vector<StaticBackendEntry> GetStaticBackends();

namespace plugin_detail {
// Runs `create`, returning its result; on an exception stores its message (per thread) for
// last_factory_error and returns null. Never throws.
void* GuardedFactory(backend::IBackend* (*create)());
const char* LastFactoryError();
}  // namespace plugin_detail

}  // namespace backplane

#if defined(_WIN32)
#define BACKPLANE_PLUGIN_EXPORT __declspec(dllexport)
#else
#define BACKPLANE_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#define BACKPLANE_DETAIL_STRINGIFY2(x) #x
#define BACKPLANE_DETAIL_STRINGIFY(x) BACKPLANE_DETAIL_STRINGIFY2(x)
#define BACKPLANE_DETAIL_CONCAT2(a, b) a##b
#define BACKPLANE_DETAIL_CONCAT(a, b) BACKPLANE_DETAIL_CONCAT2(a, b)

#define BACKPLANE_DETAIL_IDENTITY(ID, VENDOR, VERSION)                                        \
  {BACKPLANE_PLUGIN_MAGIC,                                                                    \
   static_cast<std::uint32_t>(sizeof(BackplanePluginIdentity)),                              \
   ::backplane::kSdkName,                                                                     \
   ::backplane::kBackendApiVersion.major,                                                     \
   ::backplane::kBackendApiVersion.minor,                                                     \
   BACKPLANE_PLATFORM_TAG,                                                                    \
   BACKPLANE_ABI_TAG,                                                                         \
   BACKPLANE_DETAIL_STRINGIFY(ID),                                                            \
   VENDOR,                                                                                    \
   VERSION,                                                                                   \
   &::backplane::plugin_detail::LastFactoryError}

#if defined(BACKPLANE_STATIC_BACKEND)

// Static form: registers the backend during static initialisation of the runtime library.
#define BACKPLANE_BACKEND_PLUGIN(ID, VENDOR, VERSION, BACKEND_CLASS)                          \
  namespace {                                                                                 \
  const BackplanePluginIdentity BACKPLANE_DETAIL_CONCAT(backplane_static_identity_, ID) =     \
      BACKPLANE_DETAIL_IDENTITY(ID, VENDOR, VERSION);                                         \
  const bool BACKPLANE_DETAIL_CONCAT(backplane_static_registered_, ID) = [] {                 \
    ::backplane::RegisterStaticBackend(                                                       \
        {&BACKPLANE_DETAIL_CONCAT(backplane_static_identity_, ID),                            \
         []() -> std::unique_ptr<::backplane::backend::IBackend> {                            \
           return std::make_unique<BACKEND_CLASS>();                                          \
         }});                                                                                 \
    return true;                                                                              \
  }();                                                                                        \
  }

#else

// Dynamic form: the four exported entry points.
#define BACKPLANE_BACKEND_PLUGIN(ID, VENDOR, VERSION, BACKEND_CLASS)                          \
  extern "C" {                                                                                \
  BACKPLANE_PLUGIN_EXPORT extern const BackplanePluginIdentity BackplanePluginIdentityV1;     \
  const BackplanePluginIdentity BackplanePluginIdentityV1 =                                   \
      BACKPLANE_DETAIL_IDENTITY(ID, VENDOR, VERSION);                                         \
  BACKPLANE_PLUGIN_EXPORT const char* GetBackendId() { return BACKPLANE_DETAIL_STRINGIFY(ID); } \
  BACKPLANE_PLUGIN_EXPORT void GetVersion(std::uint32_t* major, std::uint32_t* minor) {       \
    if (major) *major = ::backplane::kBackendApiVersion.major;                                \
    if (minor) *minor = ::backplane::kBackendApiVersion.minor;                                \
  }                                                                                           \
  BACKPLANE_PLUGIN_EXPORT void* BackendFactory() {                                            \
    return ::backplane::plugin_detail::GuardedFactory(                                        \
        []() -> ::backplane::backend::IBackend* { return new BACKEND_CLASS(); });             \
  }                                                                                           \
  }

#endif
