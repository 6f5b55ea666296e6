// One test plugin variant's own translation unit (tests/plugins/CMakeLists.txt compiles it once
// per variant, with that variant's definitions): kVariant, which tells the shared backend code
// (test_backend.cpp) how to behave, and the plugin's exports. Three valid variants use the SDK's
// BACKPLANE_BACKEND_PLUGIN macro exactly as a real plugin does; the others write their exports
// by hand: conforming ones as the macro would (what they test is the backend's behaviour, and
// the macro compiles the whole C adapter into each), broken ones so that each breaks the plugin
// contract in exactly one way.
//
// Compile definitions (all optional except TEST_BACKEND_ID):
//   TEST_BACKEND_ID=Token            the variant's name for logging and, unless overridden, its id
//   TEST_PLUGIN_VERSION="x.y.z"      its plugin version (default 1.0.0): variants of one id compete
//   TEST_DEVICE_KIND=kGpu            its device kind (default kCpu): the default preference order
//   TEST_REFERENCE_IMPLEMENTATION    it says it is a reference implementation
//   TEST_USE_PLUGIN_MACRO            export through BACKPLANE_BACKEND_PLUGIN (valid_a, _b, _c)
//   TEST_BACKEND_THROWS              the backend's constructor throws std::runtime_error
//   TEST_IMPOSTOR                    other bytes under a valid variant's id and version (a file
//                                    swapped for a signed one): its global constructor traces
//                                    "impostor loaded <id>" when the library is mapped
//   -- tensor handles and optimization (placement tests) --
//   TEST_HANDLES_SHARE_HOST          prefers its own factory, then the runtime's host memory
//                                    (kHostFactoryId): edges to host backends are direct
//   TEST_HANDLES_NO_IMPORT_EXPORT    its factory neither imports nor exports: edges are copies
//   TEST_FUSE_ADD_RELU               OptimizeSubgraph fuses Add + ReLU into a PreCompiled layer
//   -- misbehaving libraries (sdk-info --isolate) --
//   TEST_CRASH_ON_LOAD               a global constructor raises SIGSEGV (an access violation on
//                                    Windows) when the library opens
//   TEST_HANG_ON_LOAD                a global constructor sleeps forever when the library opens
//   TEST_ABORT_IN_FACTORY            the backend's constructor calls std::abort()
//   -- exceptions from backend code at run time (issue 18) --
//   TEST_LAYER_SUPPORT_THROWS_INT    IsLayerSupported throws the int 42 (not a std::exception)
//   TEST_LAYER_SUPPORT_THROWS_STD    IsLayerSupported throws std::runtime_error
//   TEST_EXECUTE_THROWS_INT          a workload's Execute throws the int 42 when its first
//                                    input's first element is 42 (other runs compute normally)
//   -- what the runtime must bound at the C boundary (issue 41) --
//   TEST_SCRATCH_BYTES=N             every workload's GetScratchSize returns N
//   TEST_ID_BYTES=N                  get_id returns the id's pointer with the length N
//   TEST_EXECUTE_EXITS               a workload's Execute calls std::exit(0)
//   TEST_FACTORY_EXITS               BackendFactory calls std::exit(0) (hand-written exports)
//   TEST_FACTORY_ERROR_BYTES=N       BackendFactory returns null and the identity's
//                                    last_factory_error a message of N bytes (hand-written
//                                    exports: the SDK's own buffer holds 1 KiB)
//   -- hand-written exports only --
//   TEST_MANGLED_ENTRY_POINTS        the three functions without extern "C" (C++-mangled)
//   TEST_OMIT_GET_BACKEND_ID / TEST_OMIT_GET_VERSION / TEST_OMIT_BACKEND_FACTORY /
//   TEST_OMIT_IDENTITY               leave that export out
//   TEST_ID_EMPTY / TEST_ID_NULL     GetBackendId returns "" / nullptr
//   TEST_ID_ILL_FORMED               GetBackendId (and the identity) say "Test-Bad"
//   TEST_IDENTITY_ID_DIFFERS         the identity says "TestOtherId", GetBackendId the real id
//   TEST_API_MAJOR_DELTA=N / TEST_API_MINOR_DELTA=N
//                                    GetVersion and the identity report kBackendApiVersion + N
//   TEST_IDENTITY_API_MINOR_DELTA=N  only the identity's minor is off by N
//   TEST_API_V1                      GetVersion and the identity report Backend API 1.1 and
//                                    the identity the ABI tag 1.x builds had
//                                    (itanium-libstdc++-cxx11): a plugin of the 1.x C++ API,
//                                    which 2.0 runtimes refuse before calling BackendFactory
//   TEST_IDENTITY_FOREIGN_MAGIC      the identity has another SDK's magic and name
//   TEST_IDENTITY_FOREIGN_SDK_NAME   right magic, sdk_name "OtherSDK"
//   TEST_IDENTITY_TRUNCATED          struct_size too small to hold the fields the runtime reads
//   TEST_IDENTITY_WRONG_PLATFORM / TEST_IDENTITY_WRONG_ABI
//   TEST_FACTORY_RETURNS_NULL        BackendFactory returns null
//   TEST_GET_BACKEND_ID_THROWS=N / TEST_GET_VERSION_THROWS=N
//                                    that entry point throws: N=1 a std::runtime_error, N=2
//                                    the int 42 (not a std::exception)

#include "test_backend.hpp"

#include <backplane/plugin.hpp>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#ifndef TEST_BACKEND_ID
#error "TEST_BACKEND_ID must name the variant's backend id (a token such as TestValidA)"
#endif
#ifndef TEST_PLUGIN_VERSION
#define TEST_PLUGIN_VERSION "1.0.0"
#endif
#ifndef TEST_DEVICE_KIND
#define TEST_DEVICE_KIND kCpu
#endif

#define TEST_DETAIL_STRINGIFY2(x) #x
#define TEST_DETAIL_STRINGIFY(x) TEST_DETAIL_STRINGIFY2(x)

namespace test_backend {

using namespace backplane;
using namespace backplane::backend;

// The variant's own name: its id unless a TEST_ID_* definition makes GetBackendId lie.
constexpr const char* kId = TEST_DETAIL_STRINGIFY(TEST_BACKEND_ID);
constexpr const char* kVendor = "Test";
constexpr const char* kPluginVersion = TEST_PLUGIN_VERSION;

#if defined(TEST_IMPOSTOR)
// Runs when the OS loader maps the library, before anything of the runtime's can look at it.
struct ImpostorTracer {
  ImpostorTracer() { Trace(std::string("impostor loaded ") + kId); }
};
const ImpostorTracer impostor_tracer;
#endif

// Each definition's flag, so that kVariant below is one plain initializer.
#if defined(TEST_REFERENCE_IMPLEMENTATION)
#define TEST_DETAIL_REFERENCE true
#else
#define TEST_DETAIL_REFERENCE false
#endif
#if defined(TEST_CRASH_ON_LOAD)
#define TEST_DETAIL_ON_LOAD kCrash
#elif defined(TEST_HANG_ON_LOAD)
#define TEST_DETAIL_ON_LOAD kHang
#else
#define TEST_DETAIL_ON_LOAD kNothing
#endif
#if defined(TEST_ABORT_IN_FACTORY)
#define TEST_DETAIL_CONSTRUCTION kAborts
#elif defined(TEST_BACKEND_THROWS)
#define TEST_DETAIL_CONSTRUCTION kThrows
#else
#define TEST_DETAIL_CONSTRUCTION kSucceeds
#endif
#if defined(TEST_LAYER_SUPPORT_THROWS_INT)
#define TEST_DETAIL_LAYER_SUPPORT_THROWS kInt
#elif defined(TEST_LAYER_SUPPORT_THROWS_STD)
#define TEST_DETAIL_LAYER_SUPPORT_THROWS kStdException
#else
#define TEST_DETAIL_LAYER_SUPPORT_THROWS kNothing
#endif
#if defined(TEST_EXECUTE_THROWS_INT)
#define TEST_DETAIL_EXECUTE_THROWS true
#else
#define TEST_DETAIL_EXECUTE_THROWS false
#endif
#if defined(TEST_HANDLES_NO_IMPORT_EXPORT)
#define TEST_DETAIL_IMPORTS_AND_EXPORTS false
#else
#define TEST_DETAIL_IMPORTS_AND_EXPORTS true
#endif
#if defined(TEST_HANDLES_SHARE_HOST)
#define TEST_DETAIL_SHARES_HOST true
#else
#define TEST_DETAIL_SHARES_HOST false
#endif
#if defined(TEST_FUSE_ADD_RELU)
#define TEST_DETAIL_FUSES true
#else
#define TEST_DETAIL_FUSES false
#endif
#if !defined(TEST_SCRATCH_BYTES)
#define TEST_SCRATCH_BYTES 0
#endif
#if !defined(TEST_ID_BYTES)
#define TEST_ID_BYTES 0
#endif
#if defined(TEST_EXECUTE_EXITS)
#define TEST_DETAIL_EXECUTE_EXITS true
#else
#define TEST_DETAIL_EXECUTE_EXITS false
#endif

const Variant kVariant = {
    kId,
    DeviceKind::TEST_DEVICE_KIND,
    TEST_DETAIL_REFERENCE,
    Variant::OnLoad::TEST_DETAIL_ON_LOAD,
    Variant::Construction::TEST_DETAIL_CONSTRUCTION,
    Variant::Throw::TEST_DETAIL_LAYER_SUPPORT_THROWS,
    TEST_DETAIL_EXECUTE_THROWS,
    TEST_DETAIL_IMPORTS_AND_EXPORTS,
    TEST_DETAIL_SHARES_HOST,
    TEST_DETAIL_FUSES,
    static_cast<std::size_t>(TEST_SCRATCH_BYTES),
    static_cast<std::uint64_t>(TEST_ID_BYTES),
    TEST_DETAIL_EXECUTE_EXITS,
};

}  // namespace test_backend

#if defined(TEST_USE_PLUGIN_MACRO)

// A conforming plugin: the SDK's macro emits all four entry points.
BACKPLANE_BACKEND_PLUGIN(TEST_BACKEND_ID, "Test", TEST_PLUGIN_VERSION, test_backend::TestBackend)

#else

// Exports written by hand: what the macro would emit, except what a definition below breaks on
// purpose (one rule per variant).
namespace test_backend {

#if !defined(TEST_API_MAJOR_DELTA)
#define TEST_API_MAJOR_DELTA 0
#endif
#if !defined(TEST_API_MINOR_DELTA)
#define TEST_API_MINOR_DELTA 0
#endif
#if !defined(TEST_IDENTITY_API_MINOR_DELTA)
#define TEST_IDENTITY_API_MINOR_DELTA 0
#endif

#if defined(TEST_API_V1)
// A plugin of the 1.x C++ API, as a 1.1 build of this SDK would have declared itself. (Its
// BackendFactory still returns a 2.0 table: a 2.0 runtime must refuse it before calling it.)
constexpr std::uint32_t kApiMajor = 1;
constexpr std::uint32_t kApiMinor = 1;
#else
constexpr std::uint32_t kApiMajor = kBackendApiVersion.major + (TEST_API_MAJOR_DELTA);
constexpr std::uint32_t kApiMinor = kBackendApiVersion.minor + (TEST_API_MINOR_DELTA);
#endif

#if defined(TEST_ID_EMPTY)
constexpr const char* kReportedId = "";
#elif defined(TEST_ID_NULL)
constexpr const char* kReportedId = nullptr;
#elif defined(TEST_ID_ILL_FORMED)
constexpr const char* kReportedId = "Test-Bad";
#else
constexpr const char* kReportedId = kId;
#endif

#if defined(TEST_ID_ILL_FORMED)
constexpr const char* kIdentityId = "Test-Bad";
#elif defined(TEST_IDENTITY_ID_DIFFERS)
constexpr const char* kIdentityId = "TestOtherId";
#else
constexpr const char* kIdentityId = kId;
#endif

#if defined(TEST_IDENTITY_FOREIGN_MAGIC)
constexpr std::uint32_t kIdentityMagic = 0x464F5245u;  // "EROF": some other SDK's marker
constexpr const char* kIdentitySdkName = "OtherSDK";
#elif defined(TEST_IDENTITY_FOREIGN_SDK_NAME)
constexpr std::uint32_t kIdentityMagic = BACKPLANE_PLUGIN_MAGIC;
constexpr const char* kIdentitySdkName = "OtherSDK";
#else
constexpr std::uint32_t kIdentityMagic = BACKPLANE_PLUGIN_MAGIC;
constexpr const char* kIdentitySdkName = kSdkName;
#endif

#if defined(TEST_IDENTITY_TRUNCATED)
// Room for magic and struct_size only: an older or foreign layout.
constexpr std::uint32_t kIdentityStructSize = 2 * sizeof(std::uint32_t);
#else
constexpr std::uint32_t kIdentityStructSize = sizeof(BackplanePluginIdentity);
#endif

#if defined(TEST_IDENTITY_WRONG_PLATFORM)
constexpr const char* kIdentityPlatform = "plan9-mips";
#else
constexpr const char* kIdentityPlatform = BACKPLANE_PLATFORM_TAG;
#endif

#if defined(TEST_IDENTITY_WRONG_ABI)
constexpr const char* kIdentityAbi = "test-abi-0";
#elif defined(TEST_API_V1)
// What a 1.x build with GCC on Linux wrote (1.x tagged the C++ toolchain): a real 1.x plugin
// differs in both, and must still get the message about 1.x, not just an ABI mismatch.
constexpr const char* kIdentityAbi = "itanium-libstdc++-cxx11";
#else
constexpr const char* kIdentityAbi = BACKPLANE_ABI_TAG;
#endif

#if defined(TEST_FACTORY_ERROR_BYTES)
// The identity's last_factory_error: TEST_FACTORY_ERROR_BYTES bytes, valid while the library is loaded.
const char* HugeFactoryError() {
  static const std::string message = [] {
    std::string text = std::string(kId) + ": deliberate test failure ";
    text.resize(static_cast<std::size_t>(TEST_FACTORY_ERROR_BYTES), 'x');
    return text;
  }();
  return message.c_str();
}
#define TEST_DETAIL_LAST_FACTORY_ERROR &test_backend::HugeFactoryError
#else
#define TEST_DETAIL_LAST_FACTORY_ERROR &::backplane::plugin_detail::LastFactoryError
#endif

IBackend* CreateBackend() {
#if defined(TEST_FACTORY_EXITS)
  std::exit(0);
#endif
#if defined(TEST_FACTORY_RETURNS_NULL) || defined(TEST_FACTORY_ERROR_BYTES)
  return nullptr;
#else
  return new TestBackend();
#endif
}

}  // namespace test_backend

#if defined(TEST_MANGLED_ENTRY_POINTS)
#define TEST_ENTRY_LINKAGE
#else
#define TEST_ENTRY_LINKAGE extern "C"
#endif

#if !defined(TEST_OMIT_IDENTITY)
extern "C" {
BACKPLANE_PLUGIN_EXPORT extern const BackplanePluginIdentity BackplanePluginIdentityV1;
const BackplanePluginIdentity BackplanePluginIdentityV1 = {
    test_backend::kIdentityMagic,
    test_backend::kIdentityStructSize,
    test_backend::kIdentitySdkName,
    test_backend::kApiMajor,
    test_backend::kApiMinor + (TEST_IDENTITY_API_MINOR_DELTA),
    test_backend::kIdentityPlatform,
    test_backend::kIdentityAbi,
    test_backend::kIdentityId,
    test_backend::kVendor,
    test_backend::kPluginVersion,
    TEST_DETAIL_LAST_FACTORY_ERROR,
};
}
#endif

namespace test_backend {
// Throws what TEST_GET_BACKEND_ID_THROWS / TEST_GET_VERSION_THROWS ask for: 1 a
// std::runtime_error naming `entry_point`, 2 the int 42.
[[maybe_unused]] void ThrowFrom(const char* entry_point, int kind) {
  if (kind == 2) throw 42;
  throw std::runtime_error(std::string(entry_point) + " failed: deliberate test failure 0xBADC0DE");
}
}  // namespace test_backend

#if !defined(TEST_OMIT_GET_BACKEND_ID)
TEST_ENTRY_LINKAGE BACKPLANE_PLUGIN_EXPORT const char* GetBackendId() {
#if defined(TEST_GET_BACKEND_ID_THROWS)
  test_backend::ThrowFrom("GetBackendId", TEST_GET_BACKEND_ID_THROWS);
#endif
  return test_backend::kReportedId;
}
#endif

#if !defined(TEST_OMIT_GET_VERSION)
TEST_ENTRY_LINKAGE BACKPLANE_PLUGIN_EXPORT void GetVersion(std::uint32_t* major,
                                                           std::uint32_t* minor) {
#if defined(TEST_GET_VERSION_THROWS)
  test_backend::ThrowFrom("GetVersion", TEST_GET_VERSION_THROWS);
#endif
  if (major) *major = test_backend::kApiMajor;
  if (minor) *minor = test_backend::kApiMinor;
}
#endif

#if !defined(TEST_OMIT_BACKEND_FACTORY)
TEST_ENTRY_LINKAGE BACKPLANE_PLUGIN_EXPORT void* BackendFactory() {
  return test_backend::GuardedBackendFactory(&test_backend::CreateBackend);
}
#endif

#endif  // TEST_USE_PLUGIN_MACRO
