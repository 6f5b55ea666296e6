// ValidateManifestFile: the manifest checks of discovery, for backend authors' CI. It must
// report every problem (not only the first), in discovery's order and with discovery's codes,
// and never open the library.
#include "discovery_records.hpp"
#include "plugin_trace.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/plugin.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace backplane::unit {
namespace {

using nlohmann::json;

const std::string kManifest = ManifestFileName("Test", "ValidA");

std::string Describe(const ManifestValidation& validation) {
  std::ostringstream text;
  text << "valid=" << validation.valid << "\n";
  for (const auto& problem : validation.problems) {
    text << "  problem " << ToString(problem.code) << ": " << problem.message << "\n";
  }
  for (const auto& warning : validation.warnings) text << "  warning: " << warning << "\n";
  return text.str();
}

// "code,code,..." in the order reported, so a failing CHECK prints it.
std::string Codes(const ManifestValidation& validation) {
  std::string codes;
  for (const auto& problem : validation.problems) {
    if (!codes.empty()) codes += ",";
    codes += ToString(problem.code);
  }
  return codes;
}

TEST_CASE("ValidateManifestFile: a valid manifest has no problems and its library is not opened") {
  PluginTrace trace;
  TestFolder folder;
  const fs::path manifest = folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  const ManifestValidation validation = ValidateManifestFile(manifest.string());
  INFO(Describe(validation));
  CHECK(validation.valid);
  CHECK(validation.problems.empty());
  CHECK(validation.warnings.empty());
  CHECK(trace.Count("loaded TestValidA") == 0);
}

TEST_CASE("ValidateManifestFile: reports every problem, in the order discovery checks them") {
  PluginTrace trace;
  TestFolder folder;
  const fs::path manifest =
      folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA", [&](json& m) {
        m.erase("vendor");
        m["version"] = 3;
        m["platform"] = "plan9-mips";
        m["abi"] = "some-other-abi";
      });
  const ManifestValidation validation = ValidateManifestFile(manifest.string());
  INFO(Describe(validation));
  CHECK_FALSE(validation.valid);
  CHECK(Codes(validation) ==
        "manifest_field_missing,manifest_field_invalid,platform_mismatch,abi_mismatch");
  if (validation.problems.size() == 4) {
    CHECK(Contains(validation.problems[0].message, "vendor"));
    CHECK(Contains(validation.problems[1].message, "version"));
    CHECK(Contains(validation.problems[2].message, "plan9-mips"));
    CHECK(Contains(validation.problems[2].message, BACKPLANE_PLATFORM_TAG));
    CHECK(Contains(validation.problems[3].message, "some-other-abi"));
  }
  CHECK(trace.Count("loaded TestValidA") == 0);
}

TEST_CASE("ValidateManifestFile: a sha256 mismatch is reported alongside the other problems") {
  // The library exists and the sha256 field is well-formed, so the digest can be checked even
  // though other fields are wrong; "every problem" includes it.
  TestFolder folder;
  const std::string wrong_digest(64, 'f');
  const fs::path manifest =
      folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA", [&](json& m) {
        m["platform"] = "plan9-mips";
        m["sha256"] = wrong_digest;
      });
  const ManifestValidation validation = ValidateManifestFile(manifest.string());
  INFO(Describe(validation));
  CHECK_FALSE(validation.valid);
  CHECK(Codes(validation) == "platform_mismatch,checksum_mismatch");
  if (validation.problems.size() == 2) {
    CHECK(Contains(validation.problems[1].message, wrong_digest));
    CHECK(Contains(validation.problems[1].message, Sha256OfFile(folder / LibraryFileName("Test", "ValidA"))));
  }
}

TEST_CASE("ValidateManifestFile: a newer format minor is valid with a warning naming it") {
  TestFolder folder;
  const fs::path manifest = folder.AddPluginWithManifest(
      test_plugins::valid_a, "Test", "ValidA", [](json& m) { m["manifest_version"] = "1.9"; });
  const ManifestValidation validation = ValidateManifestFile(manifest.string());
  INFO(Describe(validation));
  CHECK(validation.valid);
  CHECK(validation.problems.empty());
  REQUIRE(validation.warnings.size() >= 1);
  CHECK(Contains(validation.warnings[0], "1.9"));
}

TEST_CASE("ValidateManifestFile: a file that does not exist is manifest_unreadable naming it") {
  TestFolder folder;
  const fs::path missing = folder / kManifest;
  const ManifestValidation validation = ValidateManifestFile(missing.string());
  INFO(Describe(validation));
  CHECK_FALSE(validation.valid);
  REQUIRE(validation.problems.size() == 1);
  CHECK(validation.problems[0].code == ReasonCode::kManifestUnreadable);
  CHECK(Contains(validation.problems[0].message, kManifest));
}

// For manifests with exactly one fault, the validator's problem and discovery's record agree.
TEST_CASE("ValidateManifestFile: agrees with discovery on single-fault manifests") {
  struct Fault {
    const char* what;
    std::function<void(const TestFolder&)> write;  // writes kManifest (and the library)
  };
  const auto edited = [](std::function<void(json&)> edit) {
    return [edit](const TestFolder& folder) {
      folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA", edit);
    };
  };
  const std::vector<Fault> faults = {
      {"invalid JSON", [](const TestFolder& f) { f.WriteFile(kManifest, "{\"id\": [}"); }},
      {"unknown major", edited([](json& m) { m["manifest_version"] = "3.0"; })},
      {"missing id", edited([](json& m) { m.erase("id"); })},
      {"ill-formed id", edited([](json& m) { m["id"] = "a b"; })},
      {"library in a subfolder", edited([](json& m) { m["library"] = "sub/x.so"; })},
      {"library missing", edited([](json& m) { m["library"] = "Test_Gone_backend.so"; })},
      {"platform", edited([](json& m) { m["platform"] = "plan9-mips"; })},
      {"abi", edited([](json& m) { m["abi"] = "some-other-abi"; })},
      {"sha256", edited([](json& m) { m["sha256"] = std::string(64, 'a'); })},
  };
  for (const auto& fault : faults) {
    INFO(std::string(fault.what));
    TestFolder folder;
    fault.write(folder);
    const ManifestValidation validation = ValidateManifestFile((folder / kManifest).string());
    INFO(Describe(validation));
    auto runtime = Runtime::Create(OptionsFor({folder.path()}));
    INFO(unit::Describe(runtime->GetDiscoveryReport()));
    CHECK_FALSE(validation.valid);
    REQUIRE(validation.problems.size() == 1);
    CHECK(ToString(validation.problems[0].code) == CodeOf(runtime->GetDiscoveryReport(), kManifest));
  }
}

}  // namespace
}  // namespace backplane::unit
