// Spec 001 "Dynamic backend file naming convention", row by row, as runtime behaviour: a copy
// of a valid test plugin is put under the row's file name, with no manifest, and the runtime
// must register it (valid rows) or not even consider it (invalid rows: no record, never
// opened). The table is written for Linux shared objects (.so[.N...]).
#include "discovery_records.hpp"
#include "plugin_trace.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <string>

namespace backplane::unit {
namespace {

#if defined(__linux__)

// A valid row: the plugin under `name`, alone in the folder, is registered.
void CheckRegisteredUnder(const std::string& name) {
  PluginTrace trace;
  TestFolder folder;
  const fs::path library = folder.AddLibrary(test_plugins::valid_a, name);

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO("file name: " << name);
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(Mismatch(&report.records[0], {Verdict::kRegistered, ReasonCode::kOk,
                                      DiscoveryStage::kRegistered, FoundBy::kNamingScheme, {}}) == "");
  CHECK(fs::path(report.records[0].library_path) == library);
  CHECK(runtime->HasBackend("TestValidA"));
  CHECK(trace.Count("loaded TestValidA") == 1);
}

// An invalid row: the plugin under `name` is not a candidate at all (no record, never opened),
// while a control plugin with a valid name in the same folder is found, so the folder was
// really scanned.
void CheckNotACandidate(const std::string& name) {
  PluginTrace trace;
  TestFolder folder;
  folder.AddLibrary(test_plugins::valid_a, name);
  folder.AddLibrary(test_plugins::valid_b, "Test_Control_backend.so");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO("file name: " << name);
  INFO(Describe(report));
  INFO(trace.Text());
  REQUIRE(report.records.size() == 1);
  CHECK(fs::path(report.records[0].library_path).filename() == "Test_Control_backend.so");
  CHECK(runtime->HasBackend("TestValidB"));
  CHECK_FALSE(runtime->HasBackend("TestValidA"));
  CHECK(trace.Count("loaded TestValidA") == 0);
}

TEST_CASE("spec 001 naming row 1: Arm_GpuAcc_backend.so is valid - basic backend name") {
  CheckRegisteredUnder("Arm_GpuAcc_backend.so");
}
TEST_CASE("spec 001 naming row 2: Arm_GpuAcc_backend.so.1 is valid - single field version number") {
  CheckRegisteredUnder("Arm_GpuAcc_backend.so.1");
}
TEST_CASE("spec 001 naming row 3: Arm_GpuAcc_backend.so.1.2 is valid - multiple field version number") {
  CheckRegisteredUnder("Arm_GpuAcc_backend.so.1.2");
}
TEST_CASE("spec 001 naming row 4: Arm_GpuAcc_backend.so.1.2.3 is valid - multiple field version number") {
  CheckRegisteredUnder("Arm_GpuAcc_backend.so.1.2.3");
}
TEST_CASE("spec 001 naming row 5: Arm_GpuAcc_backend.so.10.1.27 is valid - multiple digit version") {
  CheckRegisteredUnder("Arm_GpuAcc_backend.so.10.1.27");
}
TEST_CASE("spec 001 naming row 6: Arm_GpuAcc_backend.so.10.1.33. is not valid - dot not followed by version number") {
  CheckNotACandidate("Arm_GpuAcc_backend.so.10.1.33.");
}
TEST_CASE("spec 001 naming row 7: Arm_GpuAcc_backend.so.3.4..5 is not valid - dot not followed by version number") {
  CheckNotACandidate("Arm_GpuAcc_backend.so.3.4..5");
}
TEST_CASE("spec 001 naming row 8: Arm_GpuAcc_backend.so.1 comma 1.1 is not valid - comma instead of dot in the version") {
  CheckNotACandidate("Arm_GpuAcc_backend.so.1,1.1");
}
TEST_CASE("spec 001 naming row 9: Arm123_GpuAcc_backend.so is valid - digits in vendor name are allowed") {
  CheckRegisteredUnder("Arm123_GpuAcc_backend.so");
}
TEST_CASE("spec 001 naming row 10: Arm_GpuAcc456_backend.so is valid - digits in backend id are allowed") {
  CheckRegisteredUnder("Arm_GpuAcc456_backend.so");
}
TEST_CASE("spec 001 naming row 11: Arm%Co_GpuAcc_backend.so is not valid - invalid character in vendor name") {
  CheckNotACandidate("Arm%Co_GpuAcc_backend.so");
}
TEST_CASE("spec 001 naming row 12: Arm_Gpu.Acc_backend.so is not valid - invalid character in backend id") {
  CheckNotACandidate("Arm_Gpu.Acc_backend.so");
}
TEST_CASE("spec 001 naming row 13: GpuAcc_backend.so is not valid - missing vendor name") {
  CheckNotACandidate("GpuAcc_backend.so");
}
TEST_CASE("spec 001 naming row 14: _GpuAcc_backend.so is not valid - missing vendor name") {
  CheckNotACandidate("_GpuAcc_backend.so");
}
TEST_CASE("spec 001 naming row 15: Arm__backend.so is not valid - missing backend id") {
  CheckNotACandidate("Arm__backend.so");
}
TEST_CASE("spec 001 naming row 16: Arm_GpuAcc.so is not valid - missing backend at the end") {
  CheckNotACandidate("Arm_GpuAcc.so");
}
TEST_CASE("spec 001 naming row 17: __backend.so is not valid - missing vendor name and backend id") {
  CheckNotACandidate("__backend.so");
}
TEST_CASE("spec 001 naming row 18: __.so is not valid - missing all fields") {
  CheckNotACandidate("__.so");
}
TEST_CASE("spec 001 naming row 19: Arm_GpuAcc_backend is not valid - missing at least .so at the end") {
  CheckNotACandidate("Arm_GpuAcc_backend");
}
TEST_CASE("spec 001 naming row 20: Arm_GpuAcc_backend_v1.2.so is not valid - extra version info at the end") {
  CheckNotACandidate("Arm_GpuAcc_backend_v1.2.so");
}
TEST_CASE("spec 001 naming row 21: Arm_CpuAcc_backend.so is valid - basic backend name") {
  CheckRegisteredUnder("Arm_CpuAcc_backend.so");
}

// Rows 22-24: symlinks. Alone in the scanned folder (the files they lead to are elsewhere), each
// link is a valid candidate and loads the library it resolves to.
TEST_CASE("spec 001 naming row 22: Arm_CpuAcc_backend.so.1 -> Arm_CpuAcc_backend.so is valid - symlink to valid backend file") {
  PluginTrace trace;
  TestFolder folder;
  folder.MakeFolder("scanned");
  folder.AddLibrary(test_plugins::valid_a, "store/Arm_CpuAcc_backend.so");
  const fs::path link = folder.Symlink("scanned/Arm_CpuAcc_backend.so.1", "../store/Arm_CpuAcc_backend.so");

  auto runtime = Runtime::Create(OptionsFor({folder / "scanned"}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(Mismatch(&report.records[0], {Verdict::kRegistered, ReasonCode::kOk,
                                      DiscoveryStage::kRegistered, FoundBy::kNamingScheme, {}}) == "");
  CHECK(fs::path(report.records[0].library_path) == link);
  CHECK(runtime->HasBackend("TestValidA"));
  CHECK(trace.Count("loaded TestValidA") == 1);
}

TEST_CASE("spec 001 naming row 23: Arm_CpuAcc_backend.so.1.2 -> Arm_CpuAcc_backend.so.1 is valid - symlink to valid symlink") {
  TestFolder folder;
  folder.MakeFolder("scanned");
  folder.AddLibrary(test_plugins::valid_a, "store/Arm_CpuAcc_backend.so");
  folder.Symlink("store/Arm_CpuAcc_backend.so.1", "Arm_CpuAcc_backend.so");
  const fs::path link = folder.Symlink("scanned/Arm_CpuAcc_backend.so.1.2", "../store/Arm_CpuAcc_backend.so.1");

  auto runtime = Runtime::Create(OptionsFor({folder / "scanned"}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(report.records[0].verdict == Verdict::kRegistered);
  CHECK(fs::path(report.records[0].library_path) == link);
  CHECK(runtime->HasBackend("TestValidA"));
}

TEST_CASE("spec 001 naming row 24: Arm_CpuAcc_backend.so.1.2.3 -> Arm_CpuAcc_backend.so.1.2 is valid - symlink to valid symlink") {
  TestFolder folder;
  folder.MakeFolder("scanned");
  folder.AddLibrary(test_plugins::valid_a, "store/Arm_CpuAcc_backend.so");
  folder.Symlink("store/Arm_CpuAcc_backend.so.1", "Arm_CpuAcc_backend.so");
  folder.Symlink("store/Arm_CpuAcc_backend.so.1.2", "Arm_CpuAcc_backend.so.1");
  const fs::path link =
      folder.Symlink("scanned/Arm_CpuAcc_backend.so.1.2.3", "../store/Arm_CpuAcc_backend.so.1.2");

  auto runtime = Runtime::Create(OptionsFor({folder / "scanned"}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(report.records[0].verdict == Verdict::kRegistered);
  CHECK(fs::path(report.records[0].library_path) == link);
  CHECK(runtime->HasBackend("TestValidA"));
}

// Rows 21-24 together, as the spec lays them out in one folder: the four names are one file,
// so it is loaded once (under the first name in byte order) and the three links are
// duplicates naming it.
TEST_CASE("spec 001 naming rows 21-24 together: the versioned symlinks of one library load it once") {
  PluginTrace trace;
  TestFolder folder;
  const fs::path library = folder.AddLibrary(test_plugins::valid_a, "Arm_CpuAcc_backend.so");
  folder.Symlink("Arm_CpuAcc_backend.so.1", "Arm_CpuAcc_backend.so");
  folder.Symlink("Arm_CpuAcc_backend.so.1.2", "Arm_CpuAcc_backend.so.1");
  folder.Symlink("Arm_CpuAcc_backend.so.1.2.3", "Arm_CpuAcc_backend.so.1.2");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 4);
  CHECK(Mismatch(RecordFor(report, "Arm_CpuAcc_backend.so"),
                 {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                  FoundBy::kNamingScheme, {}}) == "");
  for (const char* link : {"Arm_CpuAcc_backend.so.1", "Arm_CpuAcc_backend.so.1.2",
                           "Arm_CpuAcc_backend.so.1.2.3"}) {
    INFO("link " << std::string(link));
    CHECK(Mismatch(RecordFor(report, link),
                   {Verdict::kDuplicate, ReasonCode::kDuplicateLibrary, DiscoveryStage::kLibraryVerified,
                    FoundBy::kNamingScheme, {link, library.string()}}) == "");
  }
  CHECK(runtime->GetBackends().size() == 1);
  CHECK(trace.Count("loaded TestValidA") == 1);
}

TEST_CASE("spec 001 naming row 25: Arm_no_backend.so -> nothing is not valid - symlink resolves to non-existent file") {
  TestFolder folder;
  folder.Symlink("Arm_no_backend.so", folder / "nothing");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  const DiscoveryRecord& record = report.records[0];
  CHECK(record.verdict == Verdict::kRejected);
  CHECK(record.code == ReasonCode::kLibraryMissing);
  CHECK(record.found_by == FoundBy::kNamingScheme);
  CHECK(Contains(record.message, "Arm_no_backend.so"));
  CHECK(runtime->GetBackends().empty());
}

// Rows 26-27: the same file name in two folders. When both are one library (pathB's is a link to
// pathA's) only the first in parsing order is loaded; the second is a duplicate naming it.
TEST_CASE("spec 001 naming rows 26-27: pathA and pathB holding the same library load it once") {
  PluginTrace trace;
  TestFolder folder;
  const fs::path path_a = folder.MakeFolder("pathA");
  const fs::path path_b = folder.MakeFolder("pathB");
  const fs::path library = folder.AddLibrary(test_plugins::valid_a, "pathA/Arm_GpuAcc_backend.so");
  folder.Symlink("pathB/Arm_GpuAcc_backend.so", library);

  auto runtime = Runtime::Create(OptionsFor({path_a, path_b}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 2);
  CHECK(Mismatch(&report.records[0], {Verdict::kRegistered, ReasonCode::kOk,
                                      DiscoveryStage::kRegistered, FoundBy::kNamingScheme, {}}) == "");
  CHECK(fs::path(report.records[0].library_path) == library);
  CHECK(Mismatch(&report.records[1], {Verdict::kDuplicate, ReasonCode::kDuplicateLibrary,
                                      DiscoveryStage::kLibraryVerified, FoundBy::kNamingScheme,
                                      {library.string()}}) == "");
  CHECK(fs::path(report.records[1].library_path) == path_b / "Arm_GpuAcc_backend.so");
  CHECK(runtime->GetBackends().size() == 1);
  CHECK(trace.Count("loaded TestValidA") == 1);
}

// Two copies (different files, same backend): both are opened, the second is refused by id.
TEST_CASE("spec 001 naming rows 26-27: pathA and pathB holding copies of one backend register it once") {
  TestFolder folder;
  const fs::path path_a = folder.MakeFolder("pathA");
  const fs::path path_b = folder.MakeFolder("pathB");
  const fs::path first = folder.AddLibrary(test_plugins::valid_a, "pathA/Arm_GpuAcc_backend.so");
  const fs::path second = folder.AddLibrary(test_plugins::valid_a, "pathB/Arm_GpuAcc_backend.so");

  auto runtime = Runtime::Create(OptionsFor({path_a, path_b}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 2);
  CHECK(report.records[0].verdict == Verdict::kRegistered);
  CHECK(fs::path(report.records[0].library_path) == first);
  CHECK(Mismatch(&report.records[1], {Verdict::kDuplicate, ReasonCode::kDuplicateBackendId,
                                      DiscoveryStage::kBackendChecked, FoundBy::kNamingScheme,
                                      {"TestValidA", first.string(), second.string()}}) == "");
  const auto backends = runtime->GetBackends();
  REQUIRE(backends.size() == 1);
  CHECK(fs::path(backends[0].library_path) == first);
}

TEST_CASE("spec 001 naming: within a folder candidates are taken in byte order of their names") {
  TestFolder folder;
  // Same id under three valid names: the first in byte order wins ('1' < 'A' < 'a').
  folder.AddLibrary(test_plugins::valid_a, "Test_a_backend.so");
  folder.AddLibrary(test_plugins::valid_a, "Test_A_backend.so");
  folder.AddLibrary(test_plugins::valid_a, "Test_1_backend.so");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 3);
  CHECK(fs::path(report.records[0].library_path).filename() == "Test_1_backend.so");
  CHECK(fs::path(report.records[1].library_path).filename() == "Test_A_backend.so");
  CHECK(fs::path(report.records[2].library_path).filename() == "Test_a_backend.so");
  CHECK(report.records[0].verdict == Verdict::kRegistered);
  CHECK(report.records[1].code == ReasonCode::kDuplicateBackendId);
  CHECK(report.records[2].code == ReasonCode::kDuplicateBackendId);
}

#endif  // __linux__

}  // namespace
}  // namespace backplane::unit
