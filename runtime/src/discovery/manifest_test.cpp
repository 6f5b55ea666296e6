#include "discovery/manifest.hpp"

#include <backplane/plugin.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>

namespace backplane::discovery {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

const TargetTags kTarget{"linux-x86_64", "itanium-libstdc++-cxx11"};

// A folder with a (fake) library file, and a valid manifest for it to mutate.
struct ManifestFixture {
  // ctest runs test cases as parallel processes: every fixture gets its own folder.
  fs::path folder = fs::temp_directory_path() /
                    ("backplane-manifest-test-" + std::to_string(std::random_device{}()));
  fs::path file = folder / "Acme_Fast_backend.json";
  json manifest = {
      {"manifest_version", "1.0"},
      {"id", "Fast"},
      {"vendor", "Acme"},
      {"version", "1.2.3"},
      {"api_version", "1.0"},
      {"library", "Acme_Fast_backend.so"},
      {"platform", kTarget.platform},
      {"abi", kTarget.abi},
      {"capabilities",
       {{"device_kind", "cpu"},
        {"data_types", {"f32", "i64"}},
        {"layer_types", {"Convolution2d", "Softmax"}},
        {"values", {{"ProtectedContentAllocation", false}}}}},
  };

  ManifestFixture() {
    fs::create_directories(folder);
    std::ofstream(folder / "Acme_Fast_backend.so") << "not checked at this stage";
  }
  ~ManifestFixture() {
    std::error_code ignored;
    fs::remove_all(folder, ignored);
  }
  ManifestCheck Check() const { return CheckManifestText(file, manifest.dump(), kTarget); }
};

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("manifest: a valid manifest is read completely") {
  ManifestFixture fixture;
  const auto check = fixture.Check();
  REQUIRE(check.problems.empty());
  REQUIRE(check.manifest);
  const Manifest& m = *check.manifest;
  CHECK(m.id == "Fast");
  CHECK(m.vendor == "Acme");
  CHECK(m.version == "1.2.3");
  CHECK(m.api_version == BackendApiVersion{1, 0});
  CHECK(m.library_path == fixture.folder / "Acme_Fast_backend.so");
  CHECK(m.capabilities.device_kind == backend::DeviceKind::kCpu);
  CHECK(m.capabilities.data_types == std::vector<DataType>{DataType::kFloat32, DataType::kInt64});
  CHECK(m.capabilities.layer_types.size() == 2);
  CHECK(m.capabilities.values.at("ProtectedContentAllocation") == false);
  CHECK(check.warnings.empty());
  CHECK(check.claimed_library == std::optional<std::string>("Acme_Fast_backend.so"));
}

TEST_CASE("manifest: format version rules") {
  ManifestFixture fixture;
  fixture.manifest["manifest_version"] = "1.7";
  auto check = fixture.Check();
  CHECK(check.manifest);
  REQUIRE(check.warnings.size() == 1);
  CHECK(Contains(check.warnings[0], "manifest format 1.7 is newer than this runtime's 1.0"));

  fixture.manifest["manifest_version"] = "2.0";
  fixture.manifest.erase("id");  // not even looked at: the format is unknown
  check = fixture.Check();
  CHECK_FALSE(check.manifest);
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kManifestVersionUnsupported);
  CHECK(Contains(check.problems[0].message, "manifest format 2.0 is not supported"));

  fixture.manifest["manifest_version"] = 1;
  check = fixture.Check();
  CHECK(check.problems.at(0).code == ReasonCode::kManifestFieldInvalid);
  CHECK(Contains(check.problems[0].message, "\"manifest_version\" must be a string, not number"));
}

TEST_CASE("manifest: invalid JSON names the file and the parser's position") {
  ManifestFixture fixture;
  const auto check = CheckManifestText(fixture.file, "{\"id\": \"Fast\",", kTarget);
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kManifestInvalidJson);
  CHECK(check.stage == DiscoveryStage::kManifestRead);
  CHECK(Contains(check.problems[0].message, fixture.file.string()));
  CHECK(Contains(check.problems[0].message, "parse error"));
  const auto array = CheckManifestText(fixture.file, "[1, 2]", kTarget);
  CHECK(Contains(array.problems.at(0).message, "must be a JSON object, not array"));
}

TEST_CASE("manifest: every problem is reported, the first decides the code") {
  ManifestFixture fixture;
  fixture.manifest.erase("vendor");
  fixture.manifest["version"] = "1.2";
  fixture.manifest["platform"] = "windows-x86_64";
  fixture.manifest["capabilities"]["device_kind"] = "toaster";
  const auto check = fixture.Check();
  CHECK_FALSE(check.manifest);
  CHECK(check.stage == DiscoveryStage::kManifestChecked);
  REQUIRE(check.problems.size() == 4);
  CHECK(check.problems[0].code == ReasonCode::kManifestFieldMissing);
  CHECK(Contains(check.problems[0].message, "required field \"vendor\" is missing"));
  CHECK(Contains(check.problems[1].message, "\"version\" is \"1.2\": must be a semantic version"));
  CHECK(Contains(check.problems[2].message, "\"device_kind\" is \"toaster\""));
  CHECK(check.problems[3].code == ReasonCode::kPlatformMismatch);
  CHECK(Contains(check.problems[3].message, "built for platform windows-x86_64, but this runtime is linux-x86_64"));
}

TEST_CASE("manifest: the library must be a file name in the manifest's folder") {
  ManifestFixture fixture;
  for (const char* bad : {"/usr/lib/Acme_Fast_backend.so", "../Acme_Fast_backend.so",
                          "sub/Acme_Fast_backend.so", "..", "sub\\x.so", "C:x.so", ""}) {
    CAPTURE(bad);
    fixture.manifest["library"] = bad;
    const auto check = fixture.Check();
    REQUIRE_FALSE(check.problems.empty());
    CHECK(check.problems[0].code == ReasonCode::kLibraryPathInvalid);
  }
  fixture.manifest["library"] = "Acme_Other_backend.so";
  const auto missing = fixture.Check();
  REQUIRE(missing.problems.size() == 1);
  CHECK(missing.problems[0].code == ReasonCode::kLibraryMissing);
  CHECK(Contains(missing.problems[0].message, "Acme_Other_backend.so does not exist"));
}

TEST_CASE("manifest: ABI mismatch and ill-typed capability entries") {
  ManifestFixture fixture;
  fixture.manifest["abi"] = "msvc-release";
  fixture.manifest["capabilities"]["data_types"] = {"f32", "f128"};
  fixture.manifest["capabilities"]["values"]["Fast"] = "yes";
  fixture.manifest["capabilities"]["layer_types"] = {"Convolution2d", "TeleportTensor"};
  const auto check = fixture.Check();
  REQUIRE(check.problems.size() == 3);
  CHECK(Contains(check.problems[0].message, "capabilities.data_types holds \"f128\""));
  CHECK(Contains(check.problems[1].message, "capabilities.values.Fast must be true or false"));
  CHECK(check.problems[2].code == ReasonCode::kAbiMismatch);
  REQUIRE(check.warnings.size() == 1);
  CHECK(Contains(check.warnings[0], "unknown layer type \"TeleportTensor\""));
}

TEST_CASE("manifest: semantic versions and sha256 form") {
  ManifestFixture fixture;
  for (const char* good : {"0.1.0", "10.20.30", "1.0.0-rc.1", "1.0.0+build.7", "1.0.0-alpha+001"}) {
    CAPTURE(good);
    fixture.manifest["version"] = good;
    CHECK(fixture.Check().problems.empty());
  }
  for (const char* bad : {"1", "1.0", "01.0.0", "1.0.0-", "1.0.0+", "1.0.0-a_b", "v1.0.0", "1.0.0.0"}) {
    CAPTURE(bad);
    fixture.manifest["version"] = bad;
    CHECK_FALSE(fixture.Check().problems.empty());
  }
  fixture.manifest["version"] = "1.0.0";
  fixture.manifest["sha256"] = "abc";
  CHECK(Contains(fixture.Check().problems.at(0).message, "must be 64 hex digits"));
  fixture.manifest["sha256"] = std::string(64, 'A');
  const auto upper = fixture.Check();
  REQUIRE(upper.manifest);
  CHECK(upper.manifest->sha256 == std::string(64, 'a'));
}

TEST_CASE("manifest: the runtime's own tags are those of plugin.hpp") {
  CHECK(RuntimeTargetTags().platform == BACKPLANE_PLATFORM_TAG);
  CHECK(RuntimeTargetTags().abi == BACKPLANE_ABI_TAG);
}

}  // namespace backplane::discovery
