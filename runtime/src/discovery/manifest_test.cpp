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

const loading::TargetTags kTarget{"linux-x86_64", "c", BackendApiVersion{2, 0}};

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
      {"api_version", "2.0"},
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
  CHECK(m.api_version == BackendApiVersion{2, 0});
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

TEST_CASE("manifest: a Backend API 1.x plugin is refused first, saying what changed and what to do") {
  ManifestFixture fixture;
  fixture.manifest["api_version"] = "1.1";
  fixture.manifest["abi"] = "itanium-libstdc++-cxx11";  // what 1.x manifests carried
  const auto check = fixture.Check();
  REQUIRE(check.problems.size() == 2);
  CHECK(check.problems[0].code == ReasonCode::kApiVersionIncompatible);
  CHECK(Contains(check.problems[0].message, "built for Backend API 1.1, but this runtime implements 2.0"));
  CHECK(Contains(check.problems[0].message, "C++ interfaces of 1.x with a C boundary"));
  CHECK(Contains(check.problems[0].message, "rebuild the plugin against Backplane SDK"));
  CHECK(Contains(check.problems[0].message, "backplane_add_backend"));
  CHECK(check.problems[1].code == ReasonCode::kAbiMismatch);
  CHECK_FALSE(check.manifest);
}

TEST_CASE("manifest: a newer Backend API minor or another major is refused naming both versions") {
  ManifestFixture fixture;
  fixture.manifest["api_version"] = "2.1";
  auto check = fixture.Check();
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kApiVersionIncompatible);
  CHECK(Contains(check.problems[0].message, "built for Backend API 2.1, newer than this runtime's 2.0"));
  fixture.manifest["api_version"] = "3.0";
  check = fixture.Check();
  REQUIRE(check.problems.size() == 1);
  CHECK(Contains(check.problems[0].message, "built for Backend API 3.0, a different major version than this runtime's 2.0"));
  fixture.manifest["api_version"] = "2.0";
  CHECK(fixture.Check().problems.empty());
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

// ---- Hostile text (issue 18) -----------------------------------------------------------------

TEST_CASE("manifest: a number out of range is invalid JSON, not an exception") {
  ManifestFixture fixture;
  const auto check = CheckManifestText(fixture.file, "{\"x\": 1e400}", kTarget);
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kManifestInvalidJson);
  CHECK(check.stage == DiscoveryStage::kManifestRead);
  CHECK(Contains(check.problems[0].message, fixture.file.string() + ": not valid JSON"));
  CHECK(Contains(check.problems[0].message, "number overflow parsing '1e400'"));
}

TEST_CASE("manifest: JSON nested deeper than the limit is refused without recursion") {
  ManifestFixture fixture;
  // An unknown field nested to exactly the limit (the top-level object is level 1) is fine...
  auto nested = [&](int levels) {
    json m = fixture.manifest;
    std::string text = m.dump();
    text.pop_back();  // the closing brace
    text += ",\"deep\":" + std::string(levels, '[') + std::string(levels, ']') + "}";
    return CheckManifestText(fixture.file, text, kTarget);
  };
  CHECK(nested(kMaxManifestDepth - 1).problems.empty());
  // ...one level more is not; nor is a deep value inside capabilities, which the field checks
  // used to serialize (recursively) into their message.
  const auto deeper = nested(kMaxManifestDepth);
  REQUIRE(deeper.problems.size() == 1);
  CHECK(deeper.problems[0].code == ReasonCode::kManifestInvalidJson);
  CHECK(Contains(deeper.problems[0].message, "JSON nested more than 64 levels deep"));
  std::string text = fixture.manifest.dump();
  const std::string values = "\"values\":{";
  text.insert(text.find(values) + values.size(),
              "\"Deep\":" + std::string(1000000, '[') + std::string(1000000, ']') + ",");
  const auto capabilities = CheckManifestText(fixture.file, text, kTarget);
  REQUIRE(capabilities.problems.size() == 1);
  CHECK(Contains(capabilities.problems[0].message, "JSON nested more than 64 levels deep"));
}

TEST_CASE("manifest: a key twice in one object is invalid JSON naming the key") {
  ManifestFixture fixture;
  std::string text = fixture.manifest.dump();
  text.insert(1, "\"id\":\"Other\",");
  const auto check = CheckManifestText(fixture.file, text, kTarget);
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kManifestInvalidJson);
  CHECK(Contains(check.problems[0].message, "key \"id\" appears twice in one object"));
  // The same key in two different objects is fine.
  fixture.manifest["capabilities"]["values"]["id"] = true;
  CHECK(fixture.Check().problems.empty());
}

TEST_CASE("manifest: bytes after the JSON document are refused, naming where they start") {
  ManifestFixture fixture;
  const std::string document = fixture.manifest.dump();
  for (const std::string& trailer : {std::string(" x"), std::string("\n{}"), std::string("  \"more\""),
                                     std::string("\0garbage", 8), std::string("\n\0", 2)}) {
    CAPTURE(trailer);
    const auto check = CheckManifestText(fixture.file, document + trailer, kTarget);
    REQUIRE(check.problems.size() == 1);
    CHECK(check.problems[0].code == ReasonCode::kManifestInvalidJson);
    const std::size_t first = trailer.find_first_not_of(" \n");
    CHECK(Contains(check.problems[0].message, "unexpected bytes after the JSON document at byte " +
                                                  std::to_string(document.size() + first + 1)));
  }
  // Trailing whitespace is part of a JSON text.
  CHECK(CheckManifestText(fixture.file, document + " \n\t\r\n", kTarget).problems.empty());
}

TEST_CASE("manifest: long values are quoted bounded in every message") {
  ManifestFixture fixture;
  const std::string huge(200000, 'Z');
  fixture.manifest["id"] = huge;
  fixture.manifest["version"] = huge;
  fixture.manifest["library"] = huge;
  fixture.manifest["platform"] = huge;
  fixture.manifest["abi"] = huge;
  fixture.manifest["capabilities"]["data_types"] = {huge};
  fixture.manifest["capabilities"]["values"][huge] = huge;
  fixture.manifest["capabilities"]["layer_types"] = {huge};
  const auto check = fixture.Check();
  REQUIRE(check.problems.size() >= 7);
  for (const auto& problem : check.problems) {
    CAPTURE(problem.message.substr(0, 300));
    CHECK(problem.message.size() < 600);
    CHECK(Contains(problem.message, "(200000 bytes)"));
  }
  REQUIRE(check.warnings.size() == 1);
  CHECK(check.warnings[0].size() < 600);
  CHECK_FALSE(check.claimed_library);  // not a file name: it claims nothing
  // An unterminated long string: the parser's own message quotes the token it read.
  const auto parse = CheckManifestText(fixture.file, "{\"id\": \"" + huge, kTarget);
  REQUIRE(parse.problems.size() == 1);
  CHECK(parse.problems[0].message.size() < 600);
}

TEST_CASE("manifest: only a regular file of at most 1 MiB is read") {
  ManifestFixture fixture;
  // A folder named like a manifest (std::length_error from the read, before).
  fs::create_directory(fixture.file);
  auto check = CheckManifestFile(fixture.file, kTarget);
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kManifestUnreadable);
  CHECK(check.stage == DiscoveryStage::kFound);
  CHECK(check.problems[0].message == fixture.file.string() + ": is a folder, not a regular file");
  fs::remove(fixture.file);

  std::string big = fixture.manifest.dump();
  big.append(kMaxManifestBytes + 1 - big.size(), ' ');
  std::ofstream(fixture.file, std::ios::binary) << big;
  check = CheckManifestFile(fixture.file, kTarget);
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kManifestUnreadable);
  CHECK(check.problems[0].message ==
        fixture.file.string() + ": is 1048577 bytes; a manifest may have at most 1048576 (1 MiB)");
  big.pop_back();  // exactly the limit
  std::ofstream(fixture.file, std::ios::binary | std::ios::trunc) << big;
  CHECK(CheckManifestFile(fixture.file, kTarget).problems.empty());
}

// MinGW's std::filesystem cannot make symlinks (and Windows needs a privilege for them).
#if !defined(_WIN32)
TEST_CASE("manifest: a library symlink must stay in the manifest's folder") {
  ManifestFixture fixture;
  const fs::path outside = fixture.folder / "elsewhere";
  fs::create_directories(outside);
  std::ofstream(outside / "real.so") << "x";
  fs::create_symlink(outside / "real.so", fixture.folder / "Acme_Out_backend.so");
  fixture.manifest["library"] = "Acme_Out_backend.so";
  auto check = fixture.Check();
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kLibraryPathInvalid);
  CHECK(Contains(check.problems[0].message, "Acme_Out_backend.so is a symlink to " +
                                                (fs::canonical(outside) / "real.so").string() +
                                                ", outside the manifest's folder"));
  // A versioning symlink beside it is fine.
  fs::create_symlink("Acme_Fast_backend.so", fixture.folder / "Acme_Fast_backend.so.1");
  fixture.manifest["library"] = "Acme_Fast_backend.so.1";
  CHECK(fixture.Check().problems.empty());
  // A loop is library_missing, saying so.
  fs::create_symlink("Acme_Loop2_backend.so", fixture.folder / "Acme_Loop1_backend.so");
  fs::create_symlink("Acme_Loop1_backend.so", fixture.folder / "Acme_Loop2_backend.so");
  fixture.manifest["library"] = "Acme_Loop1_backend.so";
  check = fixture.Check();
  REQUIRE(check.problems.size() == 1);
  CHECK(check.problems[0].code == ReasonCode::kLibraryMissing);
  CHECK(Contains(check.problems[0].message, "Acme_Loop1_backend.so is a symlink loop"));
}

#endif

}  // namespace backplane::discovery
