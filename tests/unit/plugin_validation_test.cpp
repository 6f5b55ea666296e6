// Plugin validation (docs/backend-discovery.md, stages library_opened .. registered): each
// deliberately broken test plugin variant must be rejected at the right stage, with the right
// code and a message that names the file and the values that disagree; the library must be
// closed again, and nothing that returns an object may be called before the identity is
// accepted.
#include "discovery_records.hpp"
#include "plugin_trace.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/plugin.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace backplane::unit {
namespace {

using nlohmann::json;

const std::string kRuntimeApi = ToString(kBackendApiVersion);
const std::string kNewerMajorApi =
    ToString(BackendApiVersion{kBackendApiVersion.major + 1, kBackendApiVersion.minor});
const std::string kNewerMinorApi =
    ToString(BackendApiVersion{kBackendApiVersion.major, kBackendApiVersion.minor + 1});

// `plugin`, alone in a folder under a valid name and with no manifest, is rejected with `code`
// at `stage`, the message naming the file and `parts`. The library was opened and closed again,
// and its factory never made a backend.
void CheckBrokenVariant(const TestPlugin& plugin, ReasonCode code, DiscoveryStage stage,
                        const std::vector<std::string>& parts,
                        Verdict verdict = Verdict::kRejected) {
  PluginTrace trace;
  TestFolder folder;
  const std::string file = LibraryFileName("Test", "Broken");
  folder.AddLibrary(plugin, file);

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO("variant " << std::string(plugin.variant));
  INFO(Describe(report));
  INFO(trace.Text());
  REQUIRE(report.records.size() == 1);
  std::vector<std::string> expected_parts{file};
  expected_parts.insert(expected_parts.end(), parts.begin(), parts.end());
  CHECK(Mismatch(&report.records[0], {verdict, code, stage, FoundBy::kNamingScheme, expected_parts}) == "");
  CHECK(runtime->GetBackends().empty());
  const std::string id = plugin.id;
  CHECK(trace.Count("loaded " + id) == 1);
  CHECK(trace.Count("unloaded " + id) == 1);  // closed at once, while the runtime still lives
  CHECK(trace.Count("created " + id) == 0);
}

// ---- Entry points ------------------------------------------------------------------------------

TEST_CASE("plugin: GetBackendId missing is entry_point_missing naming it") {
  CheckBrokenVariant(test_plugins::no_get_backend_id, ReasonCode::kEntryPointMissing,
                     DiscoveryStage::kEntryPoints, {"GetBackendId"});
}

TEST_CASE("plugin: GetVersion missing is entry_point_missing naming it") {
  CheckBrokenVariant(test_plugins::no_get_version, ReasonCode::kEntryPointMissing,
                     DiscoveryStage::kEntryPoints, {"GetVersion"});
}

TEST_CASE("plugin: BackendFactory missing is entry_point_missing naming it") {
  CheckBrokenVariant(test_plugins::no_backend_factory, ReasonCode::kEntryPointMissing,
                     DiscoveryStage::kEntryPoints, {"BackendFactory"});
}

TEST_CASE("plugin: C++-mangled entry points are entry_point_missing naming all three") {
  CheckBrokenVariant(test_plugins::mangled, ReasonCode::kEntryPointMissing,
                     DiscoveryStage::kEntryPoints, {"GetBackendId", "GetVersion", "BackendFactory"});
}

// ---- Identity ------------------------------------------------------------------------------------

TEST_CASE("plugin: the three functions without an identity descriptor is a foreign library") {
  CheckBrokenVariant(test_plugins::no_identity, ReasonCode::kForeignLibrary, DiscoveryStage::kIdentity,
                     {BACKPLANE_PLUGIN_IDENTITY_SYMBOL});
}

TEST_CASE("plugin: an identity with another SDK's magic is a foreign library") {
  CheckBrokenVariant(test_plugins::foreign, ReasonCode::kForeignLibrary, DiscoveryStage::kIdentity, {});
}

TEST_CASE("plugin: an identity with another SDK's name is a foreign library naming it") {
  CheckBrokenVariant(test_plugins::foreign_sdk_name, ReasonCode::kForeignLibrary,
                     DiscoveryStage::kIdentity, {"OtherSDK"});
}

TEST_CASE("plugin: an identity too small for the fields the runtime reads is a foreign library") {
  CheckBrokenVariant(test_plugins::identity_truncated, ReasonCode::kForeignLibrary,
                     DiscoveryStage::kIdentity, {});
}

TEST_CASE("plugin: an identity built for another platform is platform_mismatch naming both") {
  CheckBrokenVariant(test_plugins::identity_platform, ReasonCode::kPlatformMismatch,
                     DiscoveryStage::kIdentity, {"plan9-mips", BACKPLANE_PLATFORM_TAG});
}

TEST_CASE("plugin: an identity built with another C++ ABI is abi_mismatch naming both") {
  CheckBrokenVariant(test_plugins::identity_abi, ReasonCode::kAbiMismatch, DiscoveryStage::kIdentity,
                     {"test-abi-0", BACKPLANE_ABI_TAG});
}

// ---- Backend id ----------------------------------------------------------------------------------

TEST_CASE("plugin: an empty backend id is backend_id_invalid showing the empty id") {
  CheckBrokenVariant(test_plugins::empty_id, ReasonCode::kBackendIdInvalid,
                     DiscoveryStage::kBackendChecked, {"\"\""});
}

TEST_CASE("plugin: a null backend id is backend_id_invalid saying null") {
  CheckBrokenVariant(test_plugins::null_id, ReasonCode::kBackendIdInvalid,
                     DiscoveryStage::kBackendChecked, {"null"});
}

TEST_CASE("plugin: an ill-formed backend id is backend_id_invalid naming it") {
  CheckBrokenVariant(test_plugins::ill_formed_id, ReasonCode::kBackendIdInvalid,
                     DiscoveryStage::kBackendChecked, {"Test-Bad"});
}

TEST_CASE("plugin: GetBackendId or GetVersion throwing is entry_point_failed naming the function and the exception") {
  CheckBrokenVariant(test_plugins::get_backend_id_throws, ReasonCode::kEntryPointFailed,
                     DiscoveryStage::kBackendChecked,
                     {"GetBackendId() threw an exception: GetBackendId failed: deliberate test failure 0xBADC0DE"});
  CheckBrokenVariant(test_plugins::get_backend_id_throws_int, ReasonCode::kEntryPointFailed,
                     DiscoveryStage::kBackendChecked,
                     {"GetBackendId() threw something that is not a std::exception"});
  CheckBrokenVariant(test_plugins::get_version_throws, ReasonCode::kEntryPointFailed,
                     DiscoveryStage::kBackendChecked,
                     {"GetVersion() threw an exception: GetVersion failed: deliberate test failure 0xBADC0DE"});
  CheckBrokenVariant(test_plugins::get_version_throws_int, ReasonCode::kEntryPointFailed,
                     DiscoveryStage::kBackendChecked,
                     {"GetVersion() threw something that is not a std::exception"});
}

TEST_CASE("plugin: GetBackendId differing from the identity is backend_id_invalid naming both") {
  CheckBrokenVariant(test_plugins::identity_id_differs, ReasonCode::kBackendIdInvalid,
                     DiscoveryStage::kBackendChecked, {"TestIdentityIdDiffers", "TestOtherId"});
}

// ---- Backend API version -------------------------------------------------------------------------

TEST_CASE("plugin: a newer Backend API major is api_version_incompatible naming both versions") {
  CheckBrokenVariant(test_plugins::api_major, ReasonCode::kApiVersionIncompatible,
                     DiscoveryStage::kIdentity, {kNewerMajorApi, kRuntimeApi, "a different major version"});
}

TEST_CASE("plugin: a newer Backend API minor is api_version_incompatible naming both versions") {
  CheckBrokenVariant(test_plugins::api_minor, ReasonCode::kApiVersionIncompatible,
                     DiscoveryStage::kBackendChecked, {kNewerMinorApi, kRuntimeApi, "newer than this runtime's"});
}

TEST_CASE("plugin: GetVersion differing from the identity is api_version_incompatible naming both") {
  CheckBrokenVariant(test_plugins::api_identity_differs, ReasonCode::kApiVersionIncompatible,
                     DiscoveryStage::kBackendChecked, {kRuntimeApi, kNewerMinorApi});
}

// ---- Factory -------------------------------------------------------------------------------------

TEST_CASE("plugin: a factory that returns null is factory_failed saying null") {
  CheckBrokenVariant(test_plugins::null_factory, ReasonCode::kFactoryFailed,
                     DiscoveryStage::kRegistered, {"null"});
}

TEST_CASE("plugin: a factory that throws is factory_failed with the exception's message") {
  CheckBrokenVariant(test_plugins::throwing_factory, ReasonCode::kFactoryFailed,
                     DiscoveryStage::kRegistered,
                     {"TestThrowingFactory constructor failed: deliberate test failure 0xBADC0DE"});
}

// ---- Not a library -----------------------------------------------------------------------------

TEST_CASE("plugin: a file with a valid name that is not a library is library_invalid, before the OS loader sees it") {
  TestFolder folder;
  const std::string by_name = LibraryFileName("Test", "Text");
  const std::string by_manifest = LibraryFileName("Test", "Listed");
  folder.WriteFile(by_name, "#!/bin/sh\necho not a library\n");
  folder.WriteFile(by_manifest, std::string(4096, '\x7f'));
  folder.WriteManifest(ManifestFileName("Test", "Listed"), DefaultManifest(test_plugins::valid_a, by_manifest));

#if defined(_WIN32)
  const std::string magic = "PE magic number";
#else
  const std::string magic = "ELF magic number";
#endif

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(report.records.size() == 2);
  CHECK(Mismatch(RecordFor(report, by_name),
                 {Verdict::kRejected, ReasonCode::kLibraryInvalid, DiscoveryStage::kLibraryVerified,
                  FoundBy::kNamingScheme, {by_name, "is not a shared library: it does not start with the " + magic}}) ==
        "");
  CHECK(Mismatch(RecordFor(report, ManifestFileName("Test", "Listed")),
                 {Verdict::kRejected, ReasonCode::kLibraryInvalid, DiscoveryStage::kLibraryVerified,
                  FoundBy::kManifest, {by_manifest, "is not a shared library"}}) == "");
}

// ---- Cross-checks with the manifest ------------------------------------------------------------

TEST_CASE("plugin: an id differing from the manifest's is manifest_mismatch naming both") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA",
                               [](json& m) { m["id"] = "TestSomethingElse"; });
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  INFO(trace.Text());
  CHECK(Mismatch(RecordFor(report, ManifestFileName("Test", "ValidA")),
                 {Verdict::kRejected, ReasonCode::kManifestMismatch, DiscoveryStage::kBackendChecked,
                  FoundBy::kManifest, {"TestSomethingElse", "TestValidA"}}) == "");
  CHECK(runtime->GetBackends().empty());
  CHECK(trace.Count("unloaded TestValidA") == 1);
  CHECK(trace.Count("created TestValidA") == 0);
}

TEST_CASE("plugin: a plugin version differing from the manifest's is manifest_mismatch naming both") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA",
                               [](json& m) { m["version"] = "9.9.9"; });
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(Mismatch(RecordFor(report, ManifestFileName("Test", "ValidA")),
                 {Verdict::kRejected, ReasonCode::kManifestMismatch, DiscoveryStage::kBackendChecked,
                  FoundBy::kManifest, {"9.9.9", kTestPluginVersion}}) == "");
}

// (A manifest whose Backend API differs from its library's yet is compatible with the runtime
// would be manifest_mismatch; with 2.0 the only compatible version, a differing manifest is
// incompatible itself and is refused before the library is opened.)
TEST_CASE("plugin: a manifest claiming a newer Backend API than its library is refused before opening it") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA",
                               [](json& m) { m["api_version"] = kNewerMinorApi; });
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(Mismatch(RecordFor(report, ManifestFileName("Test", "ValidA")),
                 {Verdict::kRejected, ReasonCode::kApiVersionIncompatible, DiscoveryStage::kManifestChecked,
                  FoundBy::kManifest, {kNewerMinorApi, kRuntimeApi}}) == "");
  CHECK(trace.Count("loaded TestValidA") == 0);
}

TEST_CASE("plugin: the same id and version from two manifests: the second is superseded, unopened, naming both files") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "First");
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "Second");
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 2);
  CHECK(VerdictOf(report, ManifestFileName("Test", "First")) == "registered");
  CHECK(Mismatch(RecordFor(report, ManifestFileName("Test", "Second")),
                 {Verdict::kSuperseded, ReasonCode::kSuperseded, DiscoveryStage::kManifestChecked,
                  FoundBy::kManifest, {"TestValidA 1.0.0", "Test_First_backend", "Test_Second_backend"}}) == "");
  CHECK(trace.Count("loaded TestValidA") == 1);
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(fs::path(runtime->GetBackends()[0].manifest_path).filename() == ManifestFileName("Test", "First"));
}

// ---- A mixed folder ----------------------------------------------------------------------------

TEST_CASE("plugin: a folder of valid, broken and foreign files registers the valid one and reports each other candidate once") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  // Candidates that must be rejected, each with its own record:
  std::vector<std::pair<std::string, std::string>> rejected = {
      {LibraryFileName("Test", "Text"), "library_invalid"},
      {LibraryFileName("Test", "Major"), "api_version_incompatible"},
      {LibraryFileName("Test", "Foreign"), "foreign_library"},
      {LibraryFileName("Test", "NoIdentity"), "foreign_library"},
      {LibraryFileName("Test", "Mangled"), "entry_point_missing"},
      {LibraryFileName("Test", "Throwing"), "factory_failed"},
      {ManifestFileName("Test", "BadJson"), "manifest_invalid_json"},
      {ManifestFileName("Test", "OtherAbi"), "abi_mismatch"},
  };
  folder.WriteFile(LibraryFileName("Test", "Text"), "plain text");
  folder.AddLibrary(test_plugins::api_major, LibraryFileName("Test", "Major"));
  folder.AddLibrary(test_plugins::foreign, LibraryFileName("Test", "Foreign"));
  folder.AddLibrary(test_plugins::no_identity, LibraryFileName("Test", "NoIdentity"));
  folder.AddLibrary(test_plugins::mangled, LibraryFileName("Test", "Mangled"));
  folder.AddLibrary(test_plugins::throwing_factory, LibraryFileName("Test", "Throwing"));
  if (kSymlinksInTests) {
    folder.Symlink(LibraryFileName("Test", "Dangling"), folder / "gone");
    rejected.emplace_back(LibraryFileName("Test", "Dangling"), "library_missing");
  }
  folder.WriteFile(ManifestFileName("Test", "BadJson"), "{{{");
  folder.AddPluginWithManifest(test_plugins::valid_b, "Test", "OtherAbi",
                               [](json& m) { m["abi"] = "some-other-abi"; });
  // Files that are not candidates at all:
  folder.WriteFile("README.txt", "hello");
  folder.AddLibrary(test_plugins::valid_c, "libunrelated.so");
  folder.WriteFile("settings.json", "{}");
  folder.MakeFolder("Test_Sub_folder");
  folder.AddLibrary(test_plugins::valid_c, "Test_Sub_folder/Test_Nested_backend.so");  // not recursive

  auto runtime = Runtime::Create(OptionsFor({folder.path()}, /*allow_no_backends=*/false));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  INFO(trace.Text());

  CHECK(report.records.size() == 1 + rejected.size());
  CHECK(VerdictOf(report, ManifestFileName("Test", "ValidA")) == "registered");
  for (const auto& [file, code] : rejected) {
    INFO("file " << file);
    CHECK(RecordsFor(report, file).size() == 1);
    CHECK(CodeOf(report, file) == code);
    const DiscoveryRecord* record = RecordFor(report, file);
    if (record != nullptr) {
      CHECK(record->verdict == Verdict::kRejected);
      CHECK_FALSE(record->message.empty());
    }
  }
  const auto backends = runtime->GetBackends();
  REQUIRE(backends.size() == 1);
  CHECK(backends[0].id == BackendId("TestValidA"));
  CHECK(trace.Count("loaded TestValidC") == 0);  // neither unrelated nor nested copy opened
  CHECK(trace.Count("loaded TestValidB") == 0);  // its manifest was rejected before opening
}

}  // namespace
}  // namespace backplane::unit
