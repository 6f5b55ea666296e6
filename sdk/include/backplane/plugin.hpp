// The plugin contract: what a backend library exports, and the one macro that emits it.
//
// A backend plugin exports exactly four extern "C" symbols and nothing else (it is built with
// hidden visibility):
//   const char* GetBackendId();                              spec 001
//   void GetVersion(uint32_t* major, uint32_t* minor);       spec 001: Backend API version
//   void* BackendFactory();                                  spec 001: a new BpBackend*, or null
//   const BackplanePluginIdentity BackplanePluginIdentityV1; identity/ABI descriptor (data)
// The identity is a data symbol so the runtime can check it before calling anything: a library
// built for another SDK that happens to export the three functions of spec 001 has no identity
// (or a wrong magic) and is rejected before BackendFactory is called.
//
// Everything after BackendFactory is C (backplane/backend_c_api.h): BackendFactory returns the
// author's IBackend wrapped by the header-only adapter (backplane/backend/c_adapter.hpp), which
// this header compiles into the plugin.
//
// Plugin authors write one line, in one .cpp file of the plugin:
//   BACKPLANE_BACKEND_PLUGIN(CpuRef, "Backplane", "0.1.0", my::RefBackend)
// With BACKPLANE_STATIC_BACKEND defined (the build's "link statically" option), the same line
// instead registers the backend in the static-backend list, so one source serves both ways.
#pragma once

#include <backplane/backend/backend.hpp>
#include <backplane/backend/c_adapter.hpp>
#include <backplane/backend_c_api.h>
#include <backplane/version.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <type_traits>
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

// The ABI a plugin is built for. Since Backend API 2.0 everything that crosses the plugin
// boundary is C (backplane/backend_c_api.h): the C++ adapter (backplane/backend/c_adapter.hpp)
// is compiled into the plugin, so neither the compiler family nor the standard library (GCC or
// Clang, libstdc++ or libc++) has to match the runtime's. Only the platform's C ABI does, and
// BACKPLANE_PLATFORM_TAG names that. A future boundary with another calling convention would get
// a new tag here.
#define BACKPLANE_ABI_TAG "c"

// ---- The identity/ABI descriptor -----------------------------------------------------------
// BackplanePluginIdentity, BACKPLANE_PLUGIN_MAGIC and BACKPLANE_PLUGIN_IDENTITY_SYMBOL are
// declared by backplane/backend_c_api.h (plain C data, checked before any function is called).

namespace backplane {

inline constexpr const char* kSdkName = "Backplane";

// Signatures of the entry points (spec 001): the function types behind the C header's pointer
// typedefs (so `BackendFactoryFunction*` is what a symbol lookup returns).
using GetBackendIdFunction = std::remove_pointer_t<BpGetBackendIdFunction>;
using GetVersionFunction = std::remove_pointer_t<BpGetVersionFunction>;
using BackendFactoryFunction = std::remove_pointer_t<BpBackendFactoryFunction>;

// A backend linked into the runtime: the same information a plugin exports, as values. It goes
// through the same C tables as a plugin: `factory` behaves as a plugin's BackendFactory (a new
// BpBackend* as void*, owned by the caller, or null with identity->last_factory_error set).
struct StaticBackendEntry {
  const BackplanePluginIdentity* identity;
  BpBackendFactoryFunction factory;
};

// The static-backend registration list: the one piece of global mutable state. Entries are
// added during static initialisation and never removed. Thread-safe.
void RegisterStaticBackend(StaticBackendEntry entry);
std::vector<StaticBackendEntry> GetStaticBackends();

namespace plugin_detail {

// Why the last GuardedFactory on this thread returned null, or "". Compiled into each plugin
// (inline, hidden), so each library reports its own. A trivially destructible thread_local:
// one with a destructor would keep a dlopen'ed plugin mapped until the thread exits. Messages
// longer than the buffer are cut.
inline char* LastFactoryErrorBuffer() noexcept {
  thread_local char buffer[1024] = {};
  return buffer;
}

// The identity's last_factory_error. Never throws; the result is valid until the next
// BackendFactory() on this thread.
inline const char* LastFactoryError() { return LastFactoryErrorBuffer(); }

inline void SetLastFactoryError(const char* message) noexcept {
  char* buffer = LastFactoryErrorBuffer();
  constexpr std::size_t kCapacity = 1024;
  const std::size_t length = std::strlen(message);
  const std::size_t kept = length < kCapacity ? length : kCapacity - 1;
  std::memcpy(buffer, message, kept);
  buffer[kept] = '\0';
}

// BackendFactory's body: runs `create` and returns its backend wrapped in the C tables (a new
// BpBackend*, as void*, owned by the caller, who destroys it with its table's destroy). On an
// exception, or when `create` returns null, stores the reason (per thread) for
// last_factory_error and returns null. Never throws.
inline void* GuardedFactory(backend::IBackend* (*create)()) noexcept {
  SetLastFactoryError("");
  try {
    std::unique_ptr<backend::IBackend> created(create());
    if (!created) {
      SetLastFactoryError("the backend factory returned no backend");
      return nullptr;
    }
    BpBackend* wrapped = backend::c_adapter::WrapBackend(std::move(created));
    return static_cast<void*>(wrapped);
  } catch (const std::exception& error) {
    SetLastFactoryError(*error.what() ? error.what() : "exception with an empty message");
  } catch (...) {
    SetLastFactoryError("unknown exception");
  }
  return nullptr;
}

}  // namespace plugin_detail

}  // namespace backplane

#if defined(_WIN32)
#define BACKPLANE_PLUGIN_EXPORT __declspec(dllexport)
#else
#define BACKPLANE_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

// The function behind the exported entry point GetVersion. On Windows kernel32 has a GetVersion
// of its own: a plugin defining a function of that name could not include <windows.h>, and could
// not link against code that calls kernel32's (a static OpenSSL does: "multiple definition of
// GetVersion"). There it is compiled as BackplanePluginGetVersion and exported under the name
// GetVersion, which is the name the runtime looks up (a linker directive: MSVC's /EXPORT, GNU
// ld's -export in the object's .drectve section). Elsewhere it is GetVersion itself.
#if defined(_WIN32)
#define BACKPLANE_DETAIL_GET_VERSION BackplanePluginGetVersion
#if defined(_MSC_VER)
#define BACKPLANE_DETAIL_EXPORT_GET_VERSION __pragma(comment(linker, "/EXPORT:GetVersion=BackplanePluginGetVersion"))
#else
#define BACKPLANE_DETAIL_EXPORT_GET_VERSION \
  __asm__(".section .drectve\n\t.ascii \" -export:GetVersion=BackplanePluginGetVersion\"\n\t.text");
#endif
#else
#define BACKPLANE_DETAIL_GET_VERSION GetVersion
#define BACKPLANE_DETAIL_EXPORT_GET_VERSION BACKPLANE_PLUGIN_EXPORT
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

// Static form: registers the backend during static initialisation of the runtime library,
// with a factory that behaves as the dynamic form's BackendFactory (the same C tables).
#define BACKPLANE_BACKEND_PLUGIN(ID, VENDOR, VERSION, BACKEND_CLASS)                          \
  namespace {                                                                                 \
  const BackplanePluginIdentity BACKPLANE_DETAIL_CONCAT(backplane_static_identity_, ID) =     \
      BACKPLANE_DETAIL_IDENTITY(ID, VENDOR, VERSION);                                         \
  const bool BACKPLANE_DETAIL_CONCAT(backplane_static_registered_, ID) = [] {                 \
    ::backplane::RegisterStaticBackend(                                                       \
        {&BACKPLANE_DETAIL_CONCAT(backplane_static_identity_, ID), []() -> void* {            \
           return ::backplane::plugin_detail::GuardedFactory(                                 \
               []() -> ::backplane::backend::IBackend* { return new BACKEND_CLASS(); });      \
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
  BACKPLANE_DETAIL_EXPORT_GET_VERSION                                                         \
  void BACKPLANE_DETAIL_GET_VERSION(std::uint32_t* major, std::uint32_t* minor) {             \
    if (major) *major = ::backplane::kBackendApiVersion.major;                                \
    if (minor) *minor = ::backplane::kBackendApiVersion.minor;                                \
  }                                                                                           \
  BACKPLANE_PLUGIN_EXPORT void* BackendFactory() {                                            \
    return ::backplane::plugin_detail::GuardedFactory(                                        \
        []() -> ::backplane::backend::IBackend* { return new BACKEND_CLASS(); });             \
  }                                                                                           \
  }

#endif
