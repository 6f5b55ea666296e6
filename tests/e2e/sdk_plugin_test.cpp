// End-to-end runs of the built sdk-plugin: installing, listing, verifying and removing drops,
// trusted keys, keygen and sign, with exit codes and message text.
//
// Every test works in its own temporary folder: XDG_DATA_HOME and XDG_CONFIG_HOME point there,
// so the user's drop folder ($XDG_DATA_HOME/backplane/backends) and trusted-key folder
// ($XDG_CONFIG_HOME/backplane/trusted-keys) are the test's, never the real home's. Drops are
// test plugins (tests/plugins) with a manifest written here (sha256 included) and signed with the
// tool's own keygen and sign.
#include "child_process.hpp"
#include "temp_folder.hpp"
#include "tool_output.hpp"

#include <backplane/plugin.hpp>
#include <backplane/version.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace backplane::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSdkPlugin = BACKPLANE_E2E_SDK_PLUGIN;
const std::string kSdkInfo = BACKPLANE_E2E_SDK_INFO;
const std::string kValidA = BACKPLANE_E2E_PLUGIN_VALID;            // TestValidA 1.0.0
const std::string kValidA2 = BACKPLANE_E2E_PLUGIN_VALID_A_2_0;     // TestValidA 2.0.0
const std::string kCrashOnLoad = BACKPLANE_E2E_PLUGIN_CRASH_ON_LOAD;  // TestCrashOnLoad 1.0.0
constexpr bool kArchives = BACKPLANE_E2E_SDK_PLUGIN_ARCHIVES;
constexpr bool kSanitized = BACKPLANE_E2E_SANITIZED;

// Runs sdk-plugin into `result` and shows its arguments and output with any failed check of the
// enclosing scope.
#define RUN_SDK_PLUGIN(result, ...)                                                                   \
  const std::vector<std::string> result##_arguments = __VA_ARGS__;                                    \
  const ProcessResult result = RunProcess(kSdkPlugin, result##_arguments);                            \
  INFO("sdk-plugin " << json(result##_arguments).dump() << " exited " << result.exit_code << "\nstdout:\n" \
                     << result.out << "\nstderr:\n" << result.err)

std::string ReadAll(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string Sha256OfFile(const fs::path& file) {
  const std::string bytes = ReadAll(file);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  REQUIRE(EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) == 1);
  static const char* const kHex = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

// The names in `folder` (files and folders, hidden ones included), sorted; none when it does
// not exist.
std::vector<std::string> Names(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

[[maybe_unused]] fs::perms ModeOf(const fs::path& file) { return fs::status(file).permissions() & fs::perms::all; }

// A test's own home: temporary drop and key folders through XDG_DATA_HOME and XDG_CONFIG_HOME,
// the isolation cache through XDG_CACHE_HOME, and none of the variables that would add or
// replace search folders or set the policy.
class Sandbox {
 public:
  Sandbox()
      : root_("e2e-sdk-plugin"),
        data_("XDG_DATA_HOME", (root_.path() / "data").string()),
        config_("XDG_CONFIG_HOME", (root_.path() / "config").string()),
        cache_("XDG_CACHE_HOME", (root_.path() / "cache").string()),
        policy_("BACKPLANE_TRUST_POLICY", std::nullopt),
        paths_("BACKPLANE_BACKEND_PATHS", std::nullopt),
        add_paths_("BACKPLANE_ADD_BACKEND_PATHS", std::nullopt),
        verdicts_("BACKPLANE_PLUGIN_VERDICT_STORE", std::nullopt),
        select_("BACKPLANE_BACKENDS_SELECT", std::nullopt),
        disable_("BACKPLANE_BACKENDS_DISABLE", std::nullopt) {}

  const fs::path& root() const { return root_.path(); }
  fs::path drops() const { return root_.path() / "data" / "backplane" / "backends"; }
  fs::path keys() const { return root_.path() / "config" / "backplane" / "trusted-keys"; }
  fs::path cache() const { return root_.path() / "cache"; }

 private:
  test_support::TempFolder root_;
  ScopedEnvironmentVariable data_, config_, cache_, policy_, paths_, add_paths_, verdicts_, select_, disable_;
};

// A drop folder for a test plugin: the library as Test_<name>_backend<suffix> and a manifest
// with its sha256. `edit` may change the manifest before it is written. Returns the folder.
fs::path MakeDrop(const fs::path& folder, const std::string& built_library, const std::string& name,
                  const std::string& version, const std::function<void(json&)>& edit = {}) {
  fs::create_directories(folder);
  const std::string library = "Test_" + name + "_backend" + kLibrarySuffix;
  fs::copy_file(built_library, folder / library, fs::copy_options::overwrite_existing);
  json manifest = {{"manifest_version", "1.0"},
                   {"id", "Test" + name},
                   {"vendor", "Test"},
                   {"version", version},
                   {"api_version", ToString(kBackendApiVersion)},
                   {"library", library},
                   {"platform", BACKPLANE_PLATFORM_TAG},
                   {"abi", BACKPLANE_ABI_TAG},
                   {"sha256", Sha256OfFile(folder / library)},
                   {"capabilities",
                    {{"device_kind", "cpu"},
                     {"data_types", {"f32"}},
                     {"layer_types", {"Activation", "ElementwiseBinary"}},
                     {"values", json::object()}}}};
  if (edit) edit(manifest);
  WriteFile(folder / ("Test_" + name + "_backend.json"), manifest.dump(2));
  return folder;
}

fs::path ManifestOf(const fs::path& drop, const std::string& name) { return drop / ("Test_" + name + "_backend.json"); }

// A vendor's key (keygen) whose public half the user trusts (keys add). Returns the private key.
fs::path MakeTrustedKey(const Sandbox& sandbox) {
  const fs::path prefix = sandbox.root() / "vendor";
  RUN_SDK_PLUGIN(keygen, {"keygen", "--publisher", "Test Vendor", "--out", prefix.string()});
  REQUIRE(keygen.exit_code == 0);
  RUN_SDK_PLUGIN(add, {"keys", "add", prefix.string() + ".pub.json"});
  REQUIRE(add.exit_code == 0);
  return prefix.string() + ".key";
}

void Sign(const fs::path& manifest, const fs::path& key) {
  RUN_SDK_PLUGIN(sign, {"sign", manifest.string(), "--key", key.string()});
  REQUIRE(sign.exit_code == 0);
}

// sdk-info's records for backend `id`, with every other backend filtered out (the bundled ones
// of the build tree are searched too: the default layers apply).
std::vector<json> SdkInfoRecords(const std::string& id) {
  const ScopedEnvironmentVariable select("BACKPLANE_BACKENDS_SELECT", id);
  const ProcessResult result = RunProcess(kSdkInfo, {"--json"});
  INFO("sdk-info stdout:\n" << result.out << "\nstderr:\n" << result.err);
  const json document = ParseJson(result);
  std::vector<json> records;
  for (const json& record : document.at("records")) {
    if (record.at("backend_id") == id) records.push_back(record);
  }
  return records;
}

// ---- command line -----------------------------------------------------------------------------

TEST_CASE("sdk-plugin --help lists every command and exit code, --version names the SDK") {
  RUN_SDK_PLUGIN(help, {"--help"});
  CHECK(help.exit_code == 0);
  for (const char* text : {"install DROP", "list", "verify [ID]", "remove ID", "keys list", "keys add FILE",
                           "keys remove KEY_ID_OR_PUBLISHER", "keygen --publisher NAME --out PREFIX",
                           "sign MANIFEST --key KEY", "Exit status", "64", "66", "73", "77"}) {
    CHECK_MESSAGE(Contains(help.out, text), text);
  }
  RUN_SDK_PLUGIN(install_help, {"install", "--help"});
  CHECK(install_help.exit_code == 0);
  CHECK(Contains(install_help.out, "--timeout"));
  RUN_SDK_PLUGIN(version, {"--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out == "sdk-plugin (Backplane SDK " + ToString(kSdkVersion) + ")\n");
}

TEST_CASE("sdk-plugin usage errors exit 64: a message on stderr, or a JSON document with --json" * doctest::skip(!kToolsReadEnvironment)) {
  RUN_SDK_PLUGIN(text, {"install"});
  CHECK(text.exit_code == 64);
  CHECK(text.out.empty());
  CHECK(text.err == "sdk-plugin: install needs DROP\nTry 'sdk-plugin install --help'.\n");

  RUN_SDK_PLUGIN(scopes, {"list", "--user", "--system"});
  CHECK(scopes.exit_code == 64);
  CHECK(Contains(scopes.err, "sdk-plugin: --user, --system and --all exclude each other"));

  RUN_SDK_PLUGIN(as_json, {"install", "--json", "--policy", "strict"});
  CHECK(as_json.exit_code == 64);
  const json document = ParseJson(as_json);
  CHECK(document.at("format") == "1.0");
  CHECK(document.at("command") == "install");
  CHECK(document.at("exit_code") == 64);
  CHECK(document.at("status") == "usage_error");
  CHECK(document.at("error") == "--policy 'strict': expected off, warn or require");
}

// ---- install ----------------------------------------------------------------------------------

TEST_CASE("sdk-plugin: keygen, sign, keys add, then install --policy require of the signed drop" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  const fs::path prefix = sandbox.root() / "vendor";
  RUN_SDK_PLUGIN(keygen, {"keygen", "--publisher", "Test Vendor", "--out", prefix.string(), "--json"});
  REQUIRE(keygen.exit_code == 0);
  const json key = ParseJson(keygen).at("key");
  const std::string key_id = key.at("key_id");
  CHECK(key_id.size() == 16);
  CHECK(key.at("publisher") == "Test Vendor");
#if !defined(_WIN32)
  CHECK(ModeOf(prefix.string() + ".key") == (fs::perms::owner_read | fs::perms::owner_write));
#endif
  CHECK(Contains(ReadAll(prefix.string() + ".key"), "-----BEGIN PRIVATE KEY-----"));
  CHECK(Contains(ReadAll(prefix.string() + ".pub.json"), key_id));

  RUN_SDK_PLUGIN(add, {"keys", "add", prefix.string() + ".pub.json"});
  CHECK(add.exit_code == 0);
  const fs::path key_file = sandbox.keys() / (key_id + ".json");
  CHECK(add.out == "added the key of Test Vendor (key " + key_id + ") as " + key_file.string() + "\n");
  CHECK(ReadAll(key_file) == ReadAll(prefix.string() + ".pub.json"));

  const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0");
  RUN_SDK_PLUGIN(sign, {"sign", ManifestOf(drop, "ValidA").string(), "--key", prefix.string() + ".key"});
  CHECK(sign.exit_code == 0);
  CHECK(sign.out == "signed as Test with key " + key_id + "\n  signature: " + ManifestOf(drop, "ValidA").string() +
                        ".sig\n");

  RUN_SDK_PLUGIN(install, {"install", drop.string(), "--policy", "require"});
  CHECK(install.exit_code == 0);
  const fs::path installed = sandbox.drops() / "Test_ValidA_backend-1.0.0";
  CHECK(Contains(install.out, "installed TestValidA 1.0.0 (Test) into " + installed.string() + "\n"));
  CHECK(Contains(install.out, "signature: verified, publisher Test Vendor (key " + key_id + ")"));
  CHECK(install.err.empty());
  // Its own folder, holding exactly the drop's three files; nothing else in the drop folder.
  CHECK(Names(sandbox.drops()) == std::vector<std::string>{"Test_ValidA_backend-1.0.0"});
  const std::string library = std::string("Test_ValidA_backend") + kLibrarySuffix;
  CHECK(Names(installed) ==
        std::vector<std::string>{"Test_ValidA_backend.json", "Test_ValidA_backend.json.sig", library});
#if !defined(_WIN32)
  CHECK(ModeOf(installed / library) == (fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                        fs::perms::others_read | fs::perms::others_exec));
  CHECK(ModeOf(installed / "Test_ValidA_backend.json") ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
#endif
  // The probe's verdicts stayed in the staging folder: nothing in the user's cache.
  CHECK_FALSE(fs::exists(sandbox.cache()));

  // An application's runtime (sdk-info) finds it in the user's drop folder, signature verified.
  const std::vector<json> records = SdkInfoRecords("TestValidA");
  REQUIRE(records.size() == 1);
  CHECK(records[0].at("verdict") == "registered");
  CHECK(records[0].at("layer") == "user");
  CHECK(records[0].at("manifest_path") == (installed / "Test_ValidA_backend.json").string());

  // list and verify see it the same way.
  RUN_SDK_PLUGIN(list, {"list", "--json", "--policy", "require"});
  CHECK(list.exit_code == 0);
  const json listed = ParseJson(list);
  CHECK(listed.at("command") == "list");
  CHECK(listed.at("policy") == "require");
  REQUIRE(listed.at("drops").size() == 1);
  const json& entry = listed.at("drops").at(0);
  CHECK(entry.at("id") == "TestValidA");
  CHECK(entry.at("version") == "1.0.0");
  CHECK(entry.at("vendor") == "Test");
  CHECK(entry.at("source") == "user");
  CHECK(entry.at("folder") == installed.string());
  CHECK(entry.at("valid") == true);
  CHECK(entry.at("signature").at("status") == "verified");
  CHECK(entry.at("signature").at("publisher") == "Test Vendor");
  CHECK(entry.at("signature").at("key_id") == key_id);

  RUN_SDK_PLUGIN(verify, {"verify", "TestValidA", "--policy", "require", "--user"});
  CHECK(verify.exit_code == 0);
  CHECK(Contains(verify.out, "ok      TestValidA 1.0.0  " + installed.string()));
  CHECK(Contains(verify.out, "1 drop checked, 0 failed"));
}

TEST_CASE("sdk-plugin: an unsigned drop under --policy require is refused and nothing is copied" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  MakeTrustedKey(sandbox);
  const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0");

  RUN_SDK_PLUGIN(text, {"install", drop.string(), "--policy", "require"});
  CHECK(text.exit_code == 1);
  CHECK(text.out.empty());
  CHECK(Contains(text.err, "sdk-plugin: " + drop.string() + " was rejected (signature_missing): "));
  CHECK(Contains(text.err, "; nothing was installed"));
  // The drop folder was made, but holds no drop and no staging leftover.
  CHECK(fs::is_directory(sandbox.drops()));
  CHECK(Names(sandbox.drops()).empty());

  RUN_SDK_PLUGIN(as_json, {"install", drop.string(), "--policy", "require", "--json"});
  CHECK(as_json.exit_code == 1);
  const json document = ParseJson(as_json);
  CHECK(document.at("status") == "rejected");
  CHECK(document.at("installed").is_null());
  CHECK(document.at("record").at("code") == "signature_missing");
  CHECK(document.at("record").at("verdict") == "rejected");
  CHECK(document.at("record").at("manifest_path") == ManifestOf(drop, "ValidA").string());
  CHECK(Contains(document.at("error").get<std::string>(), "signature_missing"));
  CHECK(Names(sandbox.drops()).empty());
}

TEST_CASE("sdk-plugin: a manifest edited after signing is refused as signature_invalid, even under warn" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  const fs::path key = MakeTrustedKey(sandbox);
  const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0");
  Sign(ManifestOf(drop, "ValidA"), key);
  json manifest = json::parse(ReadAll(ManifestOf(drop, "ValidA")));
  manifest["description"] = "edited after signing";
  WriteFile(ManifestOf(drop, "ValidA"), manifest.dump(2));

  RUN_SDK_PLUGIN(install, {"install", drop.string(), "--policy", "warn"});
  CHECK(install.exit_code == 1);
  CHECK(Contains(install.err, "was rejected (signature_invalid): "));
  CHECK(Names(sandbox.drops()).empty());
}

TEST_CASE("sdk-plugin: a broken drop installs nothing" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  SUBCASE("the library is missing") {
    const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0");
    fs::remove(drop / (std::string("Test_ValidA_backend") + kLibrarySuffix));
    RUN_SDK_PLUGIN(install, {"install", drop.string(), "--policy", "off"});
    CHECK(install.exit_code == 1);
    CHECK(Contains(install.err, "was rejected (library_missing): "));
    CHECK(Names(sandbox.drops()).empty());
  }
#if !defined(_WIN32)
  SUBCASE("the library crashes while loading: the probe quarantines it") {
    if (kSanitized) return;  // a sanitizer turns the crash into a report and exit(1)
    const fs::path drop = MakeDrop(sandbox.root() / "drop", kCrashOnLoad, "CrashOnLoad", "1.0.0");
    RUN_SDK_PLUGIN(install, {"install", drop.string(), "--policy", "off", "--timeout", "5", "--json"});
    CHECK(install.exit_code == 1);
    const json document = ParseJson(install);
    CHECK(document.at("record").at("code") == "library_refused");
    CHECK(document.at("record").at("stage") == "library_opened");
    CHECK(Contains(document.at("record").at("message").get<std::string>(), "crashed while loading (SIGSEGV)"));
    CHECK(Names(sandbox.drops()).empty());
    CHECK_FALSE(fs::exists(sandbox.cache()));  // the quarantine verdict went with the staging folder
  }
#endif
  SUBCASE("no manifest, or two") {
    const fs::path empty = sandbox.root() / "empty";
    fs::create_directories(empty);
    WriteFile(empty / "README", "no manifest here");
    RUN_SDK_PLUGIN(none, {"install", empty.string()});
    CHECK(none.exit_code == 1);
    CHECK(none.err == "sdk-plugin: " + empty.string() +
                          " holds no backend manifest (<Vendor>_<Name>_backend.json); it holds: README\n");
    const fs::path two = MakeDrop(sandbox.root() / "two", kValidA, "ValidA", "1.0.0");
    MakeDrop(two, kValidA2, "ValidB", "1.0.0");
    RUN_SDK_PLUGIN(several, {"install", two.string()});
    CHECK(several.exit_code == 1);
    CHECK(Contains(several.err, "holds 2 backend manifests (Test_ValidA_backend.json, Test_ValidB_backend.json)"));
    CHECK(Names(sandbox.drops()).empty());
  }
  SUBCASE("no such drop") {
    RUN_SDK_PLUGIN(missing, {"install", (sandbox.root() / "nowhere").string()});
    CHECK(missing.exit_code == 66);
    CHECK(missing.err == "sdk-plugin: no such drop: " + (sandbox.root() / "nowhere").string() + "\n");
  }
}

// Issue 41: killed (SIGKILL) while the probe of a library that hangs has 60 s left, sdk-plugin
// takes its probe process along.
#if defined(__linux__)
TEST_CASE("sdk-plugin: when install is killed, its probe process ends with it" *
          doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  const fs::path drop = MakeDrop(sandbox.root() / "drop", BACKPLANE_E2E_PLUGIN_HANG_ON_LOAD, "HangOnLoad", "1.0.0");
  const std::string trace = (sandbox.root() / "trace.txt").string();
  const ScopedEnvironmentVariable log("BACKPLANE_TEST_PLUGIN_LOG", trace);
  const ProcessResult killed = RunProcessAndKill(
      kSdkPlugin, {"install", drop.string(), "--policy", "off", "--timeout", "60"}, std::chrono::milliseconds(3000));
  CHECK((killed.exit_code == -1 || killed.exit_code == 137));
  const long probe = HangingProcessId(trace);
  REQUIRE_MESSAGE(probe > 0, "the probe never reached the hanging library (trace " << trace << ")");
  CHECK(ProcessEndsWithin(probe, std::chrono::milliseconds(2000)));
}
#endif

TEST_CASE("sdk-plugin: a staging folder left by an interrupted install is never a candidate, and is cleaned up" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  // A complete drop inside a .staging- folder (copied, never renamed), and an older leftover.
  MakeDrop(sandbox.drops() / ".staging-x", kValidA, "ValidA", "1.0.0");
  MakeDrop(sandbox.drops() / ".staging-old", kValidA, "ValidA", "1.0.0");
  fs::last_write_time(sandbox.drops() / ".staging-old",
                      fs::file_time_type::clock::now() - std::chrono::hours(2));
  CHECK(SdkInfoRecords("TestValidA").empty());

  const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA2, "ValidA", "2.0.0");
  RUN_SDK_PLUGIN(install, {"install", drop.string(), "--policy", "off"});
  CHECK(install.exit_code == 0);
  CHECK(Contains(install.out, "removed " + (sandbox.drops() / ".staging-old").string() + ", left by an interrupted run"));
  // The young one may belong to an install still running: kept.
  CHECK(Names(sandbox.drops()) == std::vector<std::string>{".staging-x", "Test_ValidA_backend-2.0.0"});
  const std::vector<json> records = SdkInfoRecords("TestValidA");
  REQUIRE(records.size() == 1);
  CHECK(records[0].at("version") == "2.0.0");
  CHECK(records[0].at("verdict") == "registered");
}

TEST_CASE("sdk-plugin: installing a version that is there fails with 73 unless --force replaces it" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0");
  RUN_SDK_PLUGIN(first, {"install", drop.string(), "--policy", "off"});
  REQUIRE(first.exit_code == 0);
  const fs::path installed = sandbox.drops() / "Test_ValidA_backend-1.0.0";

  RUN_SDK_PLUGIN(again, {"install", drop.string(), "--policy", "off"});
  CHECK(again.exit_code == 73);
  CHECK(again.err == "sdk-plugin: TestValidA 1.0.0 is already installed in " + installed.string() +
                         "; use --force to replace it\n");

  RUN_SDK_PLUGIN(as_json, {"install", drop.string(), "--policy", "off", "--json"});
  CHECK(as_json.exit_code == 73);
  CHECK(ParseJson(as_json).at("status") == "cannot_create");

  // --force: a new folder replaces the old one (whose extra file goes with it); no .old- folder
  // is left.
  WriteFile(installed / "marker", "in the old copy only");
  RUN_SDK_PLUGIN(forced, {"install", drop.string(), "--policy", "off", "--force"});
  CHECK(forced.exit_code == 0);
  CHECK(Contains(forced.out, "replaced the copy of this version that was installed (--force)"));
  CHECK(Names(sandbox.drops()) == std::vector<std::string>{"Test_ValidA_backend-1.0.0"});
  CHECK_FALSE(fs::exists(installed / "marker"));
  CHECK(fs::exists(installed / "Test_ValidA_backend.json"));
}

TEST_CASE("sdk-plugin: two versions side by side, and removing the newer brings the older back" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  RUN_SDK_PLUGIN(old_version, {"install", MakeDrop(sandbox.root() / "v1", kValidA, "ValidA", "1.0.0").string(),
                               "--policy", "off"});
  REQUIRE(old_version.exit_code == 0);
  RUN_SDK_PLUGIN(new_version, {"install", MakeDrop(sandbox.root() / "v2", kValidA2, "ValidA", "2.0.0").string(),
                               "--policy", "off"});
  REQUIRE(new_version.exit_code == 0);
  CHECK(Names(sandbox.drops()) ==
        std::vector<std::string>{"Test_ValidA_backend-1.0.0", "Test_ValidA_backend-2.0.0"});
  {
    const std::vector<json> records = SdkInfoRecords("TestValidA");
    REQUIRE(records.size() == 2);
    for (const json& record : records) {
      CHECK(record.at("verdict") == (record.at("version") == "2.0.0" ? "registered" : "superseded"));
    }
  }

  RUN_SDK_PLUGIN(list, {"list", "--user", "--policy", "off"});
  CHECK(list.exit_code == 0);
  CHECK(Contains(list.out, "TestValidA 1.0.0  vendor Test  valid"));
  CHECK(Contains(list.out, "TestValidA 2.0.0  vendor Test  valid"));

  RUN_SDK_PLUGIN(remove_new, {"remove", "TestValidA", "--version", "2.0.0"});
  CHECK(remove_new.exit_code == 0);
  CHECK(remove_new.out == "removed TestValidA 2.0.0 (" + (sandbox.drops() / "Test_ValidA_backend-2.0.0").string() +
                              ")\n  still installed: TestValidA 1.0.0 (" +
                              (sandbox.drops() / "Test_ValidA_backend-1.0.0").string() + ")\n");
  CHECK(Names(sandbox.drops()) == std::vector<std::string>{"Test_ValidA_backend-1.0.0"});
  {
    const std::vector<json> records = SdkInfoRecords("TestValidA");
    REQUIRE(records.size() == 1);
    CHECK(records[0].at("version") == "1.0.0");
    CHECK(records[0].at("verdict") == "registered");
  }

  RUN_SDK_PLUGIN(remove_all, {"remove", "TestValidA", "--json"});
  CHECK(remove_all.exit_code == 0);
  const json removed = ParseJson(remove_all);
  REQUIRE(removed.at("removed").size() == 1);
  CHECK(removed.at("removed").at(0).at("version") == "1.0.0");
  CHECK(removed.at("remaining").empty());
  CHECK(Names(sandbox.drops()).empty());  // no .removing- leftover

  RUN_SDK_PLUGIN(none_left, {"remove", "TestValidA"});
  CHECK(none_left.exit_code == 66);
  CHECK(none_left.err == "sdk-plugin: no drop of TestValidA is installed in " + sandbox.drops().string() + " (user)\n");
}

TEST_CASE("sdk-plugin verify: a changed library, or an unsigned drop under require, fails with 1" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  RUN_SDK_PLUGIN(install, {"install", MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0").string(),
                           "--policy", "off"});
  REQUIRE(install.exit_code == 0);
  const fs::path installed = sandbox.drops() / "Test_ValidA_backend-1.0.0";

  RUN_SDK_PLUGIN(under_warn, {"verify", "--policy", "warn"});
  CHECK(under_warn.exit_code == 0);
  CHECK(Contains(under_warn.out, "signature: unsigned"));

  RUN_SDK_PLUGIN(under_require, {"verify", "--policy", "require"});
  CHECK(under_require.exit_code == 1);
  CHECK(Contains(under_require.out, "FAILED  TestValidA 1.0.0  " + installed.string()));
  CHECK(Contains(under_require.out, "signature_missing: "));
  CHECK(under_require.err == "sdk-plugin: 1 of 1 drop failed verification\n");

  {
    std::ofstream library(installed / (std::string("Test_ValidA_backend") + kLibrarySuffix),
                          std::ios::binary | std::ios::app);
    library << "tampered";
  }
  RUN_SDK_PLUGIN(tampered, {"verify", "--policy", "off", "--json"});
  CHECK(tampered.exit_code == 1);
  const json document = ParseJson(tampered);
  CHECK(document.at("command") == "verify");
  CHECK(document.at("status") == "rejected");
  CHECK(document.at("summary").at("failed") == 1);
  const json& drop = document.at("drops").at(0);
  CHECK(drop.at("valid") == false);
  CHECK(drop.at("problems").at(0).at("code") == "checksum_mismatch");

  RUN_SDK_PLUGIN(unknown, {"verify", "TestNoSuch"});
  CHECK(unknown.exit_code == 66);
  CHECK(Contains(unknown.err, "sdk-plugin: no drop of TestNoSuch is installed in " + sandbox.drops().string() +
                                  " (user)"));
}

// ---- archives -----------------------------------------------------------------------------------

// Packs the files of `folder` into the .tar.gz `archive` with the system's tar.
void Tar(const fs::path& archive, const fs::path& folder) {
  const ProcessResult tar = RunProcess("tar", {"-czf", archive.string(), "-C", folder.string(), "."});
  INFO("tar: " << tar.err);
  REQUIRE(tar.exit_code == 0);
}

TEST_CASE("sdk-plugin: a .tar.gz drop is unpacked, checked and installed" * doctest::skip(!kArchives)) {
  Sandbox sandbox;
  const fs::path key = MakeTrustedKey(sandbox);
  const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0");
  Sign(ManifestOf(drop, "ValidA"), key);
  WriteFile(drop / "README", "not part of the drop: not installed");
  const fs::path archive = sandbox.root() / "Test_ValidA-1.0.0.tar.gz";
  Tar(archive, drop);

  RUN_SDK_PLUGIN(install, {"install", archive.string(), "--policy", "require", "--json"});
  CHECK(install.exit_code == 0);
  const json document = ParseJson(install);
  CHECK(document.at("installed").at("folder") == (sandbox.drops() / "Test_ValidA_backend-1.0.0").string());
  CHECK(document.at("record").at("signature").at("status") == "verified");
  CHECK(Names(sandbox.drops() / "Test_ValidA_backend-1.0.0") ==
        std::vector<std::string>{"Test_ValidA_backend.json", "Test_ValidA_backend.json.sig",
                                 std::string("Test_ValidA_backend") + kLibrarySuffix});
}

#if !defined(_WIN32)
TEST_CASE("sdk-plugin: an archive holding a symlink is refused whole" * doctest::skip(!kArchives)) {
  Sandbox sandbox;
  const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0");
  fs::create_symlink("/etc/passwd", drop / "link");
  const fs::path archive = sandbox.root() / "drop.tgz";
  Tar(archive, drop);
  RUN_SDK_PLUGIN(install, {"install", archive.string(), "--policy", "off"});
  CHECK(install.exit_code == 1);
  CHECK(install.err == "sdk-plugin: " + archive.string() +
                           ": entry './link' is a symbolic link; a drop holds regular files only\n");
  CHECK(Names(sandbox.drops()).empty());
}
#endif

// ---- keys -----------------------------------------------------------------------------------------

TEST_CASE("sdk-plugin keys: list shows folders and keys, remove by publisher, errors name the file" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  MakeTrustedKey(sandbox);
  RUN_SDK_PLUGIN(list, {"keys", "list", "--json"});
  CHECK(list.exit_code == 0);
  const json document = ParseJson(list);
  CHECK(document.at("command") == "keys list");
  bool user_folder = false;
  for (const json& folder : document.at("folders")) {
    if (folder.at("source") == "user") {
      user_folder = true;
      CHECK(folder.at("path") == sandbox.keys().string());
      CHECK(folder.at("exists") == true);
    }
  }
  CHECK(user_folder);
  std::string key_id;
  for (const json& key : document.at("keys")) {
    if (key.at("source") == "user") {
      CHECK(key.at("publisher") == "Test Vendor");
      key_id = key.at("key_id");
    }
  }
  REQUIRE(key_id.size() == 16);

  RUN_SDK_PLUGIN(remove, {"keys", "remove", "Test Vendor"});
  CHECK(remove.exit_code == 0);
  CHECK(remove.out == "removed the key of Test Vendor (key " + key_id + ", " +
                          (sandbox.keys() / (key_id + ".json")).string() + ")\n");
  CHECK(Names(sandbox.keys()).empty());
  RUN_SDK_PLUGIN(again, {"keys", "remove", key_id});
  CHECK(again.exit_code == 66);
  CHECK(again.err == "sdk-plugin: no trusted key with key id or publisher '" + key_id + "' in " +
                         sandbox.keys().string() + " (user)\n");

  WriteFile(sandbox.root() / "bogus.json", "{\"key_format\": \"1.0\"}");
  RUN_SDK_PLUGIN(bogus, {"keys", "add", (sandbox.root() / "bogus.json").string()});
  CHECK(bogus.exit_code == 1);
  CHECK(Contains(bogus.err, "sdk-plugin: "));
  CHECK(Contains(bogus.err, "bogus.json"));
  RUN_SDK_PLUGIN(missing, {"keys", "add", (sandbox.root() / "missing.json").string()});
  CHECK(missing.exit_code == 66);
}

TEST_CASE("sdk-plugin keygen never overwrites a key, and sign needs a manifest with sha256" * doctest::skip(!kToolsReadEnvironment)) {
  Sandbox sandbox;
  const fs::path prefix = sandbox.root() / "vendor";
  RUN_SDK_PLUGIN(first, {"keygen", "--publisher", "Test Vendor", "--out", prefix.string()});
  REQUIRE(first.exit_code == 0);
  const std::string key = ReadAll(prefix.string() + ".key");
  RUN_SDK_PLUGIN(second, {"keygen", "--publisher", "Other", "--out", prefix.string()});
  CHECK(second.exit_code == 73);
  CHECK(second.err == "sdk-plugin: " + prefix.string() + ".key already exists; keygen never overwrites a key\n");
  CHECK(ReadAll(prefix.string() + ".key") == key);

  const fs::path drop = MakeDrop(sandbox.root() / "drop", kValidA, "ValidA", "1.0.0",
                                 [](json& manifest) { manifest.erase("sha256"); });
  RUN_SDK_PLUGIN(sign, {"sign", ManifestOf(drop, "ValidA").string(), "--key", prefix.string() + ".key"});
  CHECK(sign.exit_code == 1);
  CHECK(Contains(sign.err, "sha256"));
  CHECK_FALSE(fs::exists(ManifestOf(drop, "ValidA").string() + ".sig"));

  RUN_SDK_PLUGIN(no_key, {"sign", ManifestOf(drop, "ValidA").string(), "--key", (sandbox.root() / "none.key").string()});
  CHECK(no_key.exit_code == 66);
  CHECK(no_key.err == "sdk-plugin: no such key file: " + (sandbox.root() / "none.key").string() + "\n");
}

}  // namespace
}  // namespace backplane::e2e
