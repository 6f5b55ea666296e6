#include "drop_contents.hpp"

#include "exit_code.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace backplane::sdk_plugin {
namespace {

// The ToolError's code and message; fails the check when nothing is thrown.
std::string RejectionOf(const std::vector<std::string>& names) {
  try {
    FindTheManifest(names, "/drops/acme");
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kRejected);
    return error.what();
  }
  FAIL_CHECK("a manifest was found");
  return "";
}

TEST_CASE("manifest file names follow <Vendor>_<Name>_backend.json") {
  CHECK(IsManifestFileName("Acme_Fast_backend.json"));
  CHECK(IsManifestFileName("A1_B2_backend.json"));
  for (const char* name : {"Acme_backend.json", "_Fast_backend.json", "Acme__backend.json", "Acme_Fast_backend.JSON",
                           "Acme_Fast_Extra_backend.json", "Acme-X_Fast_backend.json", "Acme_Fast_backend.json.sig",
                           "Acme_Fast_backend.so", "_backend.json", ""}) {
    CHECK_MESSAGE(!IsManifestFileName(name), name);
  }
}

TEST_CASE("a drop holds exactly one manifest, and the error names what it holds") {
  CHECK(FindTheManifest({"README", "Acme_Fast_backend.json", "Acme_Fast_backend.so"}, "/drops/acme") ==
        "Acme_Fast_backend.json");
  CHECK(RejectionOf({"Acme_Fast_backend.so", "notes.txt"}) ==
        "/drops/acme holds no backend manifest (<Vendor>_<Name>_backend.json); it holds: Acme_Fast_backend.so, "
        "notes.txt");
  CHECK(RejectionOf({}) == "/drops/acme holds no backend manifest (<Vendor>_<Name>_backend.json); it holds no file");
  CHECK(RejectionOf({"Acme_Fast_backend.json", "Acme_Slow_backend.json", "x.so"}) ==
        "/drops/acme holds 2 backend manifests (Acme_Fast_backend.json, Acme_Slow_backend.json); a drop holds "
        "exactly one backend");
}

TEST_CASE("an installed drop's folder is <manifest stem>-<version>") {
  CHECK(InstalledFolderName("Acme_Fast_backend.json", "1.2.0") == "Acme_Fast_backend-1.2.0");
  CHECK(InstalledFolderName("Acme_Fast_backend.json", "2.0.0-rc.1+build.5") == "Acme_Fast_backend-2.0.0-rc.1+build.5");
  for (const char* version : {"", "../1", "1/2", ".1", "1\\2"}) {
    CHECK_THROWS_AS_MESSAGE(InstalledFolderName("Acme_Fast_backend.json", version), ToolError, version);
  }
}

TEST_CASE("the files of a drop: manifest, signature, library (executable), debug symbols") {
  const std::vector<DropFile> files = DropFilesFor("Acme_Fast_backend.json", "Acme_Fast_backend.so");
  REQUIRE(files.size() == 4);
  CHECK(files[0].name == "Acme_Fast_backend.json");
  CHECK_FALSE(files[0].executable);
  CHECK(files[1].name == "Acme_Fast_backend.json.sig");
  CHECK_FALSE(files[1].executable);
  CHECK(files[2].name == "Acme_Fast_backend.so");
  CHECK(files[2].executable);
  CHECK(files[3].name == "Acme_Fast_backend.so.debug");
  CHECK_FALSE(files[3].executable);
}

}  // namespace
}  // namespace backplane::sdk_plugin
