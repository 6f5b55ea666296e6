#include "discovery/naming_scheme.hpp"

#include <doctest/doctest.h>

namespace backplane::discovery {

// Spec 001's table, file-name rows (the symlink and folder rows are runtime behaviour, tested
// in tests/unit/naming_scheme_test.cpp).
TEST_CASE("naming scheme: spec 001 table, file names") {
  struct Row {
    const char* name;
    bool valid;
  };
  const Row rows[] = {
      {"Arm_GpuAcc_backend.so", true},           {"Arm_GpuAcc_backend.so.1", true},
      {"Arm_GpuAcc_backend.so.1.2", true},       {"Arm_GpuAcc_backend.so.1.2.3", true},
      {"Arm_GpuAcc_backend.so.10.1.27", true},   {"Arm_GpuAcc_backend.so.10.1.33.", false},
      {"Arm_GpuAcc_backend.so.3.4..5", false},   {"Arm_GpuAcc_backend.so.1,1.1", false},
      {"Arm123_GpuAcc_backend.so", true},        {"Arm_GpuAcc456_backend.so", true},
      {"Arm%Co_GpuAcc_backend.so", false},       {"Arm_Gpu.Acc_backend.so", false},
      {"GpuAcc_backend.so", false},              {"_GpuAcc_backend.so", false},
      {"Arm__backend.so", false},                {"Arm_GpuAcc.so", false},
      {"__backend.so", false},                   {"__.so", false},
      {"Arm_GpuAcc_backend", false},             {"Arm_GpuAcc_backend_v1.2.so", false},
      {"Arm_CpuAcc_backend.so", true},
  };
  for (const auto& row : rows) {
    CAPTURE(row.name);
    CHECK(MatchesNamingScheme(row.name, LibrarySuffix::kSo) == row.valid);
  }
}

TEST_CASE("naming scheme: other platforms take their own suffix, without versions") {
  CHECK(MatchesNamingScheme("Arm_GpuAcc_backend.dll", LibrarySuffix::kDll));
  CHECK_FALSE(MatchesNamingScheme("Arm_GpuAcc_backend.dll.1", LibrarySuffix::kDll));
  CHECK_FALSE(MatchesNamingScheme("Arm_GpuAcc_backend.so", LibrarySuffix::kDll));
  CHECK(MatchesNamingScheme("Arm_GpuAcc_backend.dylib", LibrarySuffix::kDylib));
  CHECK_FALSE(MatchesNamingScheme("Arm_GpuAcc_backend.dll", LibrarySuffix::kSo));
}

TEST_CASE("naming scheme: manifests and stems") {
  CHECK(IsManifestFileName("Backplane_CpuRef_backend.json"));
  CHECK_FALSE(IsManifestFileName("Backplane_CpuRef_backend.so"));
  CHECK_FALSE(IsManifestFileName("notes.json"));
  CHECK_FALSE(IsManifestFileName("Backplane_Cpu_Ref_backend.json"));
  CHECK_FALSE(MatchesNamingScheme("Backplane_CpuRef_backend.json", LibrarySuffix::kSo));
  CHECK(BackendStem("Backplane_CpuRef_backend.json") == "Backplane_CpuRef_backend");
  CHECK(BackendStem("Backplane_CpuRef_backend.so.1.2", LibrarySuffix::kSo) == "Backplane_CpuRef_backend");
  CHECK(BackendStem("readme.txt").empty());
}

}  // namespace backplane::discovery
