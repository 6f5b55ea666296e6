// File names that are not ASCII (backplane/path_text.hpp): the runtime's path strings are UTF-8
// on every platform. On Windows std::filesystem's own narrow conversions use the ANSI code page,
// which cannot spell `bäckends-日本`: before the runtime converted through UTF-8, such a folder was
// searched under a mangled name and its plugin never found. On POSIX a path is bytes and these
// cases pass either way.
//
// The expected texts come from the standard's UTF-8 conversions (u8path, u8string), so the cases
// check the runtime against them rather than against the runtime's own helpers.
#include "capturing_log_sink.hpp"
#include "discovery_records.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

namespace backplane::unit {
namespace {

// A folder name with a Latin letter outside ASCII and two CJK ideographs (UTF-8 source text).
const std::string kUnicodeName = u8"bäckends-日本";

// The UTF-8 text of `path` (C++17's u8string is a std::string).
std::string Utf8(const fs::path& path) { return path.u8string(); }

// TestFolder/<kUnicodeName> holding test_plugins::valid_a and its manifest; returns the folder.
fs::path AddUnicodeBackendFolder(const TestFolder& folder) {
  const fs::path name = fs::u8path(kUnicodeName);
  folder.AddLibrary(test_plugins::valid_a, name / LibraryFileName("Test", "ValidA"));
  folder.WriteManifest(name / ManifestFileName("Test", "ValidA"),
                       DefaultManifest(test_plugins::valid_a, LibraryFileName("Test", "ValidA")));
  return folder / name;
}

// Options that search `backends` only, given as UTF-8 text.
RuntimeOptions OptionsForUtf8(const fs::path& backends) {
  RuntimeOptions options = OptionsFor({}, /*allow_no_backends=*/true);
  options.backend_paths = {Utf8(backends)};
  return options;
}

TEST_CASE("unicode paths: a backend folder with a non-ASCII name is searched, its plugin registered, its paths "
          "reported in UTF-8") {
  TestFolder folder;
  const fs::path backends = AddUnicodeBackendFolder(folder);
  const fs::path manifest = backends / ManifestFileName("Test", "ValidA");
  const fs::path library = backends / LibraryFileName("Test", "ValidA");
  REQUIRE(fs::is_regular_file(manifest));
  REQUIRE(Utf8(backends).find(kUnicodeName) != std::string::npos);

  const std::unique_ptr<Runtime> runtime = Runtime::Create(OptionsForUtf8(backends));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));

  REQUIRE(report.search_paths.size() == 1);
  CHECK(report.search_paths[0].path == Utf8(backends));
  CHECK(report.search_paths[0].valid);
  CHECK(report.search_paths[0].reason == "");

  REQUIRE(report.records.size() == 1);
  const DiscoveryRecord& record = report.records[0];
  CHECK(Mismatch(&record, {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered, FoundBy::kManifest,
                           {}}) == "");
  CHECK(record.manifest_path == Utf8(manifest));
  CHECK(record.library_path == Utf8(library));
  CHECK(fs::equivalent(fs::u8path(record.library_path), library));

  const std::vector<BackendInfo> backends_found = runtime->GetBackends();
  REQUIRE(backends_found.size() == 1);
  CHECK(backends_found[0].id == BackendId("TestValidA"));
  CHECK(backends_found[0].manifest_path == Utf8(manifest));
  CHECK(backends_found[0].library_path == Utf8(library));
}

TEST_CASE("unicode paths: a rejected candidate's message names its file in UTF-8") {
  TestFolder folder;
  const fs::path name = fs::u8path(kUnicodeName);
  // A manifest whose library is not there: the message quotes the library's path.
  const fs::path manifest = folder.WriteManifest(
      name / ManifestFileName("Test", "Missing"),
      DefaultManifest(test_plugins::valid_a, LibraryFileName("Test", "Missing")));
  const fs::path library = folder / name / LibraryFileName("Test", "Missing");

  const std::unique_ptr<Runtime> runtime = Runtime::Create(OptionsForUtf8(folder / name));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(report.records[0].code == ReasonCode::kLibraryMissing);
  CHECK(report.records[0].manifest_path == Utf8(manifest));
  CHECK(Contains(report.records[0].message, Utf8(library)));
}

TEST_CASE("unicode paths: ValidateManifestFile takes a UTF-8 path and reports the library's in UTF-8") {
  TestFolder folder;
  const fs::path backends = AddUnicodeBackendFolder(folder);
  const ManifestValidation validation = ValidateManifestFile(Utf8(backends / ManifestFileName("Test", "ValidA")));
  CHECK(validation.valid);
  CHECK(validation.backend_id == "TestValidA");
  CHECK(validation.library_path == Utf8(backends / LibraryFileName("Test", "ValidA")));
}

TEST_CASE("unicode paths: with plugin isolation the probe is given the library's UTF-8 path and passes it") {
  TestFolder folder;
  const fs::path backends = AddUnicodeBackendFolder(folder);
  // The verdict store under a non-ASCII name too.
  const fs::path store = folder / fs::u8path(kUnicodeName + "-verdicts");
  RuntimeOptions options = OptionsForUtf8(backends);
  auto log = std::make_shared<CapturingLogSink>();
  options.log_sink = log;
  options.isolation.enabled = true;
  options.isolation.timeout_seconds = 20;
  options.isolation.verdict_store = Utf8(store);

  const std::unique_ptr<Runtime> runtime = Runtime::Create(options);
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(report.records[0].verdict == Verdict::kRegistered);
  CHECK(report.records[0].library_path == Utf8(backends / LibraryFileName("Test", "ValidA")));
  // The probe ran (and its verdict was stored where the option said).
  bool probed = false;
  for (const auto& entry : log->Entries()) probed = probed || Contains(entry.message, "plugin isolation: probing ");
  CHECK(probed);
  CHECK(fs::is_directory(store));
}

}  // namespace
}  // namespace backplane::unit
