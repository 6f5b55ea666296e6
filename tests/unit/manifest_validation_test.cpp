// Manifest validation (docs/backend-discovery.md, stages found .. library_verified): every
// check that runs before the library is opened. Each case writes a valid test plugin with a
// manifest that breaks one rule, and asserts the record's code, stage and message, and, from
// the plugin trace, that the library was never opened (not by the manifest, not by the
// naming-scheme fallback).
#include "capturing_log_sink.hpp"
#include "discovery_records.hpp"
#include "plugin_trace.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/plugin.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cctype>
#include <functional>
#include <string>
#include <vector>

namespace backplane::unit {
namespace {

using nlohmann::json;

const std::string kManifest = ManifestFileName("Test", "ValidA");
const std::string kLibrary = LibraryFileName("Test", "ValidA");

// The valid_a plugin and its manifest, edited by `edit`, alone in `folder`; a runtime over it.
std::unique_ptr<Runtime> ScanEditedManifest(const TestFolder& folder,
                                            const std::function<void(json&)>& edit) {
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA", edit);
  return Runtime::Create(OptionsFor({folder.path()}));
}

// The manifest's record must be a rejection with `code` at `stage` whose message contains each
// of `parts`; it must be the only record (the library is claimed by its manifest) and the
// library never opened.
void CheckRejectedBeforeOpening(const std::function<void(json&)>& edit, ReasonCode code,
                                DiscoveryStage stage, const std::vector<std::string>& parts) {
  PluginTrace trace;
  TestFolder folder;
  auto runtime = ScanEditedManifest(folder, edit);
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  INFO(trace.Text());
  CHECK(report.records.size() == 1);
  CHECK(Mismatch(RecordFor(report, kManifest),
                 {Verdict::kRejected, code, stage, FoundBy::kManifest, parts}) == "");
  CHECK(runtime->GetBackends().empty());
  CHECK(trace.Count("loaded TestValidA") == 0);
}

// ---- Reading and parsing ---------------------------------------------------------------------

TEST_CASE("manifest: invalid JSON is rejected with the parser's position, and its library is not loaded") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddLibrary(test_plugins::valid_a, kLibrary);
  folder.WriteFile(kManifest, "{\n  \"manifest_version\": \"1.0\",\n  \"id\": \n");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(report.records.size() == 1);
  CHECK(Mismatch(RecordFor(report, kManifest),
                 {Verdict::kRejected, ReasonCode::kManifestInvalidJson, DiscoveryStage::kManifestRead,
                  FoundBy::kManifest, {kManifest, "line"}}) == "");
  CHECK(trace.Count("loaded TestValidA") == 0);
}

TEST_CASE("manifest: an empty file is invalid JSON") {
  TestFolder folder;
  folder.AddLibrary(test_plugins::valid_a, kLibrary);
  folder.WriteFile(kManifest, "");
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(Mismatch(RecordFor(report, kManifest),
                 {Verdict::kRejected, ReasonCode::kManifestInvalidJson, DiscoveryStage::kManifestRead,
                  FoundBy::kManifest, {kManifest}}) == "");
}

TEST_CASE("manifest: a manifest that cannot be read is manifest_unreadable" * doctest::skip(!kSymlinksInTests)) {
  TestFolder folder;
  folder.Symlink(kManifest, folder / "no-such-manifest.json");  // reading it fails
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(Mismatch(RecordFor(report, kManifest),
                 {Verdict::kRejected, ReasonCode::kManifestUnreadable, DiscoveryStage::kFound,
                  FoundBy::kManifest, {kManifest}}) == "");
}

// ---- Format version ----------------------------------------------------------------------------

TEST_CASE("manifest: a newer minor format version is accepted with a warning") {
  TestFolder folder;
  RuntimeOptions options = OptionsFor({folder.path()});
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA", [](json& manifest) {
    manifest["manifest_version"] = "1.7";
    manifest["field_from_format_1_7"] = {{"anything", true}};  // unknown to 1.0: ignored
  });
  auto runtime = Runtime::Create(options);
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  const DiscoveryRecord* record = RecordFor(report, kManifest);
  CHECK(Mismatch(record, {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                          FoundBy::kManifest, {}}) == "");
  REQUIRE(record != nullptr);
  REQUIRE(record->warnings.size() >= 1);
  bool names_version = false;
  for (const auto& warning : record->warnings) names_version = names_version || Contains(warning, "1.7");
  CHECK(names_version);
  const auto* sink = static_cast<CapturingLogSink*>(options.log_sink.get());
  CHECK(sink->Contains(LogLevel::kWarning, LogCategory::kDiscovery, "1.7"));
  CHECK(runtime->HasBackend("TestValidA"));
}

TEST_CASE("manifest: an unknown major format version is rejected") {
  CheckRejectedBeforeOpening([](json& m) { m["manifest_version"] = "2.0"; },
                             ReasonCode::kManifestVersionUnsupported,
                             DiscoveryStage::kManifestChecked, {kManifest, "2.0"});
  CheckRejectedBeforeOpening([](json& m) { m["manifest_version"] = "0.9"; },
                             ReasonCode::kManifestVersionUnsupported,
                             DiscoveryStage::kManifestChecked, {kManifest, "0.9"});
}

TEST_CASE("manifest: the format version is checked before the fields a newer major may have changed") {
  CheckRejectedBeforeOpening(
      [](json& m) {
        m["manifest_version"] = "2.0";
        m.erase("id");
        m["library"] = 5;
      },
      ReasonCode::kManifestVersionUnsupported, DiscoveryStage::kManifestChecked, {kManifest, "2.0"});
}

// ---- Required fields ---------------------------------------------------------------------------

TEST_CASE("manifest: each required field missing is rejected naming the field") {
  for (const char* field : {"manifest_version", "id", "vendor", "version", "api_version", "library",
                            "platform", "abi", "capabilities"}) {
    INFO("missing field " << std::string(field));
    CheckRejectedBeforeOpening([&](json& m) { m.erase(field); }, ReasonCode::kManifestFieldMissing,
                               DiscoveryStage::kManifestChecked, {kManifest, field});
  }
}

TEST_CASE("manifest: each required capabilities field missing is rejected naming the field") {
  for (const char* field : {"device_kind", "data_types", "layer_types"}) {
    INFO("missing field capabilities." << std::string(field));
    CheckRejectedBeforeOpening([&](json& m) { m["capabilities"].erase(field); },
                               ReasonCode::kManifestFieldMissing, DiscoveryStage::kManifestChecked,
                               {kManifest, field});
  }
}

TEST_CASE("manifest: the optional fields may be left out") {
  TestFolder folder;
  auto runtime = ScanEditedManifest(folder, [](json& m) {
    m.erase("description");
    m.erase("sha256");
    m["capabilities"].erase("values");
  });
  INFO(Describe(runtime->GetDiscoveryReport()));
  CHECK(Mismatch(RecordFor(runtime->GetDiscoveryReport(), kManifest),
                 {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                  FoundBy::kManifest, {}}) == "");
}

// ---- Field types and forms ---------------------------------------------------------------------

struct IllTypedField {
  const char* what;                   // for the failure message
  std::function<void(json&)> edit;
  const char* field;                  // must appear in the message
};

TEST_CASE("manifest: each ill-typed or ill-formed field is rejected naming the field") {
  const std::vector<IllTypedField> cases = {
      {"manifest_version is a number", [](json& m) { m["manifest_version"] = 1.0; }, "manifest_version"},
      {"manifest_version has no minor", [](json& m) { m["manifest_version"] = "1"; }, "manifest_version"},
      {"id is a number", [](json& m) { m["id"] = 42; }, "id"},
      {"id has a dash", [](json& m) { m["id"] = "Test-ValidA"; }, "id"},
      {"id is empty", [](json& m) { m["id"] = ""; }, "id"},
      {"id is too long", [](json& m) { m["id"] = std::string(65, 'x'); }, "id"},
      {"vendor is an array", [](json& m) { m["vendor"] = json::array({"Test"}); }, "vendor"},
      {"vendor has a space", [](json& m) { m["vendor"] = "Te st"; }, "vendor"},
      {"version is a number", [](json& m) { m["version"] = 1; }, "version"},
      {"version is not semver", [](json& m) { m["version"] = "1.0"; }, "version"},
      {"api_version is a number", [](json& m) { m["api_version"] = 1.0; }, "api_version"},
      {"api_version has three fields", [](json& m) { m["api_version"] = "1.0.0"; }, "api_version"},
      {"library is a number", [](json& m) { m["library"] = 7; }, "library"},
      {"platform is a number", [](json& m) { m["platform"] = 3; }, "platform"},
      {"abi is a boolean", [](json& m) { m["abi"] = true; }, "abi"},
      {"abi is empty", [](json& m) { m["abi"] = ""; }, "abi"},
      {"sha256 is not 64 hex digits", [](json& m) { m["sha256"] = "abc123"; }, "sha256"},
      {"sha256 is a number", [](json& m) { m["sha256"] = 5; }, "sha256"},
      {"description is a number", [](json& m) { m["description"] = 5; }, "description"},
      {"capabilities is a string", [](json& m) { m["capabilities"] = "cpu"; }, "capabilities"},
      {"device_kind is unknown", [](json& m) { m["capabilities"]["device_kind"] = "tpu"; }, "device_kind"},
      {"device_kind is a number", [](json& m) { m["capabilities"]["device_kind"] = 1; }, "device_kind"},
      {"data_types is a string", [](json& m) { m["capabilities"]["data_types"] = "f32"; }, "data_types"},
      {"data_types has an unknown type", [](json& m) { m["capabilities"]["data_types"] = {"f32", "f99"}; }, "data_types"},
      {"layer_types is a string", [](json& m) { m["capabilities"]["layer_types"] = "Activation"; }, "layer_types"},
      {"layer_types holds a number", [](json& m) { m["capabilities"]["layer_types"] = {1}; }, "layer_types"},
      {"values is an array", [](json& m) { m["capabilities"]["values"] = json::array(); }, "values"},
      {"values holds a string", [](json& m) { m["capabilities"]["values"] = {{"ProtectedContentAllocation", "yes"}}; }, "values"},
  };
  for (const auto& c : cases) {
    INFO(std::string(c.what));
    CheckRejectedBeforeOpening(c.edit, ReasonCode::kManifestFieldInvalid,
                               DiscoveryStage::kManifestChecked, {kManifest, c.field});
  }
}

TEST_CASE("manifest: a manifest that is not a JSON object is rejected") {
  TestFolder folder;
  folder.AddLibrary(test_plugins::valid_a, kLibrary);
  folder.WriteFile(kManifest, "[\"manifest_version\", \"1.0\"]");
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  const DiscoveryRecord* record = RecordFor(report, kManifest);
  REQUIRE(record != nullptr);
  CHECK(record->verdict == Verdict::kRejected);
  CHECK(Contains(record->message, kManifest));
  CHECK(runtime->GetBackends().empty());
}

TEST_CASE("manifest: unknown top-level fields are ignored") {
  TestFolder folder;
  auto runtime = ScanEditedManifest(folder, [](json& m) {
    m["homepage"] = "https://example.com";
    m["x-build"] = {{"compiler", "gcc"}};
  });
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(Mismatch(RecordFor(report, kManifest), {Verdict::kRegistered, ReasonCode::kOk,
                                                DiscoveryStage::kRegistered, FoundBy::kManifest, {}}) == "");
}

TEST_CASE("manifest: an unknown layer type name is accepted with a warning naming it") {
  TestFolder folder;
  auto runtime = ScanEditedManifest(folder, [](json& m) {
    m["capabilities"]["layer_types"] = {"Activation", "ElementwiseBinary", "FancyAttention2030"};
  });
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  const DiscoveryRecord* record = RecordFor(report, kManifest);
  CHECK(Mismatch(record, {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                          FoundBy::kManifest, {}}) == "");
  REQUIRE(record != nullptr);
  bool named = false;
  for (const auto& warning : record->warnings) named = named || Contains(warning, "FancyAttention2030");
  CHECK(named);
}

// ---- The library field -------------------------------------------------------------------------

TEST_CASE("manifest: a library path that leaves the manifest's folder is rejected") {
  // Each names a real copy of the plugin, so only the path rule can stop it.
  struct Escape {
    const char* what;
    std::function<std::string(const TestFolder&)> library;  // also puts the file there
  };
  const std::vector<Escape> escapes = {
      {"absolute path",
       [](const TestFolder& f) {
         return f.AddLibrary(test_plugins::valid_a, "elsewhere/" + kLibrary).string();
       }},
      {"../ prefix",
       [](const TestFolder& f) {
         f.AddLibrary(test_plugins::valid_a, kLibrary);
         return "../" + f.path().filename().string() + "/" + kLibrary;
       }},
      {"subfolder",
       [](const TestFolder& f) {
         f.AddLibrary(test_plugins::valid_a, "sub/" + kLibrary);
         return "sub/" + kLibrary;
       }},
      {"backslash separator", [](const TestFolder&) { return "sub\\" + kLibrary; }},
      {"drive colon", [](const TestFolder&) { return "C:" + kLibrary; }},
      {"dot dot", [](const TestFolder&) { return std::string(".."); }},
      {"empty", [](const TestFolder&) { return std::string(); }},
  };
  for (const auto& escape : escapes) {
    INFO(std::string(escape.what));
    PluginTrace trace;
    TestFolder folder;
    const std::string library = escape.library(folder);
    json manifest = DefaultManifest(test_plugins::valid_a, library);
    folder.WriteManifest(kManifest, manifest);
    auto runtime = Runtime::Create(OptionsFor({folder.path()}));
    const DiscoveryReport& report = runtime->GetDiscoveryReport();
    INFO(Describe(report));
    CHECK(Mismatch(RecordFor(report, kManifest),
                   {Verdict::kRejected, ReasonCode::kLibraryPathInvalid,
                    DiscoveryStage::kManifestChecked, FoundBy::kManifest, {library.substr(0, 60)}  /* messages cut long values */}) == "");
    CHECK(runtime->GetBackends().empty());
    CHECK(trace.Count("loaded TestValidA") == 0);
  }
}

TEST_CASE("manifest: a library that does not exist is library_missing") {
  const std::string missing = LibraryFileName("Test", "NotThere");
  CheckRejectedBeforeOpening([&](json& m) { m["library"] = missing; }, ReasonCode::kLibraryMissing,
                             DiscoveryStage::kManifestChecked, {missing});
}

TEST_CASE("manifest: the library may have any plain file name") {
  TestFolder folder;
  folder.AddLibrary(test_plugins::valid_a, "test_backend_valid_a.so");
  folder.WriteManifest(kManifest, DefaultManifest(test_plugins::valid_a, "test_backend_valid_a.so"));
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(Mismatch(RecordFor(report, kManifest), {Verdict::kRegistered, ReasonCode::kOk,
                                                DiscoveryStage::kRegistered, FoundBy::kManifest, {}}) == "");
  REQUIRE(RecordFor(report, kManifest) != nullptr);
  CHECK(fs::path(RecordFor(report, kManifest)->library_path) == folder / "test_backend_valid_a.so");
}

// ---- Platform, ABI, checksum -------------------------------------------------------------------

TEST_CASE("manifest: another platform is rejected before opening, naming both platforms") {
  CheckRejectedBeforeOpening([](json& m) { m["platform"] = "plan9-mips"; }, ReasonCode::kPlatformMismatch,
                             DiscoveryStage::kManifestChecked, {"plan9-mips", BACKPLANE_PLATFORM_TAG});
}

TEST_CASE("manifest: another C++ ABI is rejected before opening, naming both ABIs") {
  const std::string other = std::string(BACKPLANE_ABI_TAG) == "msvc-release" ? "itanium-libc++" : "msvc-release";
  CheckRejectedBeforeOpening([&](json& m) { m["abi"] = other; }, ReasonCode::kAbiMismatch,
                             DiscoveryStage::kManifestChecked, {other, BACKPLANE_ABI_TAG});
}

TEST_CASE("manifest: a Backend API 1.x plugin is rejected before opening, naming 1.x, 2.0 and what to do") {
  // What a 1.x manifest said: its API version and a C++ toolchain ABI tag.
  CheckRejectedBeforeOpening(
      [](json& m) {
        m["api_version"] = "1.1";
        m["abi"] = "itanium-libstdc++-cxx11";
      },
      ReasonCode::kApiVersionIncompatible, DiscoveryStage::kManifestChecked,
      {"built for Backend API 1.1, but this runtime implements " + ToString(kBackendApiVersion),
       "replaced the C++ interfaces of 1.x with a C boundary", "rebuild the plugin against Backplane SDK",
       "backplane_add_backend"});
}

TEST_CASE("manifest: a newer Backend API minor is rejected before opening, naming both versions") {
  const std::string newer = ToString(BackendApiVersion{kBackendApiVersion.major, kBackendApiVersion.minor + 1});
  CheckRejectedBeforeOpening([&](json& m) { m["api_version"] = newer; }, ReasonCode::kApiVersionIncompatible,
                             DiscoveryStage::kManifestChecked,
                             {"built for Backend API " + newer + ", newer than this runtime's " +
                              ToString(kBackendApiVersion)});
}

TEST_CASE("manifest: a sha256 that differs from the library's is rejected before opening") {
  PluginTrace trace;
  TestFolder folder;
  const std::string wrong(64, '0');
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA",
                               [&](json& m) { m["sha256"] = wrong; });
  const std::string actual = Sha256OfFile(folder / kLibrary);
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(report.records.size() == 1);
  CHECK(Mismatch(RecordFor(report, kManifest),
                 {Verdict::kRejected, ReasonCode::kChecksumMismatch, DiscoveryStage::kLibraryVerified,
                  FoundBy::kManifest, {kLibrary, wrong, actual}}) == "");
  CHECK(runtime->GetBackends().empty());
  CHECK(trace.Count("loaded TestValidA") == 0);  // neither opened nor taken by the fallback
}

TEST_CASE("manifest: a sha256 equal to the library's is accepted, in either case of hex digits") {
  for (const bool upper : {false, true}) {
    INFO("upper-case digits: " << upper);
    TestFolder folder;
    folder.AddLibrary(test_plugins::valid_a, kLibrary);
    std::string digest = Sha256OfFile(folder / kLibrary);
    if (upper) {
      for (char& c : digest) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    json manifest = DefaultManifest(test_plugins::valid_a, kLibrary);
    manifest["sha256"] = digest;
    folder.WriteManifest(kManifest, manifest);
    auto runtime = Runtime::Create(OptionsFor({folder.path()}));
    INFO(Describe(runtime->GetDiscoveryReport()));
    CHECK(Mismatch(RecordFor(runtime->GetDiscoveryReport(), kManifest),
                   {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                    FoundBy::kManifest, {}}) == "");
  }
}

// ---- Which files manifests claim -------------------------------------------------------------

TEST_CASE("manifest: a rejected manifest's libraries are not loaded by the naming-scheme fallback") {
  // The manifest names one library and has the stem of another; both follow the naming scheme.
  PluginTrace trace;
  TestFolder folder;
  const std::string named = LibraryFileName("Test", "Named");
  folder.AddLibrary(test_plugins::valid_a, named);
  folder.AddLibrary(test_plugins::valid_b, kLibrary);  // same stem as the manifest
  json manifest = DefaultManifest(test_plugins::valid_a, named);
  manifest["platform"] = "plan9-mips";
  folder.WriteManifest(kManifest, manifest);

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  INFO(trace.Text());
  CHECK(report.records.size() == 1);
  CHECK(RecordFor(report, kManifest) != nullptr);
  CHECK(RecordsFor(report, named).empty());
  CHECK(RecordsFor(report, kLibrary).empty());
  CHECK(runtime->GetBackends().empty());
  CHECK(trace.Count("loaded TestValidA") == 0);
  CHECK(trace.Count("loaded TestValidB") == 0);
}

TEST_CASE("manifest: an accepted manifest's library gets no second record from the fallback") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(report.records[0].found_by == FoundBy::kManifest);
  CHECK(runtime->GetBackends().size() == 1);
}

TEST_CASE("manifest: a library named in other letter case is still the manifest's, no second record (Windows)" *
          doctest::skip(!kNamesIgnoreCase)) {
  // Another stem than the manifest's, so only the claimed file name keeps the fallback off it.
  TestFolder folder;
  const std::string named = LibraryFileName("Test", "Named");
  folder.AddLibrary(test_plugins::valid_a, named);
  std::string shouted = named;
  for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  folder.WriteManifest(kManifest, DefaultManifest(test_plugins::valid_a, shouted));

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(Mismatch(RecordFor(report, kManifest), {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                                                FoundBy::kManifest, {}}) == "");
  CHECK(runtime->GetBackends().size() == 1);
}

TEST_CASE("manifest: a JSON file not named <Vendor>_<Name>_backend.json is not a manifest") {
  TestFolder folder;
  const std::string library = LibraryFileName("Test", "ValidA");
  folder.AddLibrary(test_plugins::valid_a, library);
  json broken = DefaultManifest(test_plugins::valid_a, library);
  broken["platform"] = "plan9-mips";  // would reject the library if it were read
  folder.WriteManifest("backend.json", broken);
  folder.WriteManifest("Test_ValidA.json", broken);
  folder.WriteManifest("Test_Valid-A_backend.json", broken);

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(Mismatch(&report.records[0], {Verdict::kRegistered, ReasonCode::kOk,
                                      DiscoveryStage::kRegistered, FoundBy::kNamingScheme, {}}) == "");
}

TEST_CASE("manifest: one bad manifest does not stop the scan") {
  TestFolder folder;
  folder.WriteFile(ManifestFileName("Test", "Aaa"), "not json at all");
  folder.AddPluginWithManifest(test_plugins::valid_b, "Test", "Bbb", [](json& m) { m.erase("vendor"); });
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "Ccc");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(report.records.size() == 3);
  CHECK(CodeOf(report, ManifestFileName("Test", "Aaa")) == "manifest_invalid_json");
  CHECK(CodeOf(report, ManifestFileName("Test", "Bbb")) == "manifest_field_missing");
  CHECK(VerdictOf(report, ManifestFileName("Test", "Ccc")) == "registered");
  CHECK(runtime->HasBackend("TestValidA"));
}

}  // namespace
}  // namespace backplane::unit
