// Trust in drops (docs/backend-discovery.md §8): signatures over manifests, trusted keys, the
// three policies, permissions, naming-scheme libraries, and drops installed one per subfolder
// of a drop folder. Each test signs with keys it generates.
#include "capturing_log_sink.hpp"
#include "platform_gaps.hpp"
#include "discovery_records.hpp"
#include "plugin_trace.hpp"
#include "scoped_environment.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/runtime.hpp>
#include <backplane/trust.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

namespace backplane::unit {

namespace {

using nlohmann::json;

// A vendor's key: the private key in a file, the public key trusted or not.
struct VendorKey {
  explicit VendorKey(const TestFolder& folder, const std::string& publisher = "Test Vendor")
      : key(GenerateSigningKey(publisher)) {
    private_key = folder.WriteFile("vendor-" + key.public_key.key_id + ".key", key.private_key_pem).string();
  }
  // Puts the public key into `keys` (a trust folder).
  void TrustIn(const TestFolder& keys) const {
    keys.WriteFile(key.public_key.key_id + ".json", TrustedKeyFileText(key.public_key));
  }
  // Signs claiming the key's own publisher name.
  SignatureInfo Sign(const fs::path& manifest) const {
    return SignManifestFile(manifest.string(), private_key, key.public_key.publisher);
  }

  SigningKey key;
  std::string private_key;
};

// Options over `folders` with `policy` and `keys` as the only trust folder.
RuntimeOptions TrustOptionsFor(const std::vector<fs::path>& folders, TrustPolicy policy, const TestFolder& keys) {
  RuntimeOptions options = OptionsFor(folders);
  options.trust.policy = policy;
  options.trust.key_folders = {keys.path().string()};
  return options;
}

// The manifest with sha256, as published drops have it.
fs::path AddSignablePlugin(const TestFolder& folder, const TestPlugin& plugin, const std::string& name) {
  const std::string library = LibraryFileName("Test", name);
  return folder.AddPluginWithManifest(plugin, "Test", name, [&](json& manifest) {
    manifest["sha256"] = Sha256OfFile(plugin.path);
    (void)library;
  });
}

std::string ReadFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A drop of TestValidA in `drops`, signed by a key trusted in `keys`, and in `originals` an
// impostor with the same id and version: its library and an unsigned manifest that matches it.
struct SignedDropAndImpostor {
  SignedDropAndImpostor(const TestFolder& drops, const TestFolder& keys, const TestFolder& secrets,
                        const TestFolder& originals)
      : vendor(secrets),
        manifest(AddSignablePlugin(drops, test_plugins::valid_a, "ValidA")),
        library(drops / LibraryFileName("Test", "ValidA")),
        bad_library(originals.AddLibrary(test_plugins::impostor_a, "bad.lib")) {
    vendor.TrustIn(keys);
    vendor.Sign(manifest);
    json impostor = json::parse(ReadFile(manifest));
    impostor["sha256"] = Sha256OfFile(bad_library);
    bad_manifest = originals.WriteFile("bad.json", impostor.dump());
  }

  VendorKey vendor;
  fs::path manifest, library, bad_library, bad_manifest;
};

void Append(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary | std::ios::app) << text;
}

}  // namespace

TEST_CASE("trust: a drop signed by a trusted key is verified under require, with the key's publisher") {
  TestFolder drops, keys, secrets;
  const VendorKey vendor(secrets, "Test Vendor Ltd");
  vendor.TrustIn(keys);
  const fs::path manifest = AddSignablePlugin(drops, test_plugins::valid_a, "ValidA");
  const SignatureInfo signed_info = vendor.Sign(manifest);
  CHECK(signed_info.key_id == vendor.key.public_key.key_id);
  CHECK(fs::exists(manifest.string() + ".sig"));

  auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kRequire, keys));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(runtime->GetBackends().size() == 1);
  const SignatureInfo signature = runtime->GetBackends()[0].signature;
  CHECK(signature.status == SignatureStatus::kVerified);
  CHECK(signature.publisher == "Test Vendor Ltd");
  CHECK(signature.key_id == vendor.key.public_key.key_id);
  CHECK(signature.signature_path == manifest.string() + ".sig");
  CHECK(signature.trusted_key_path == (keys / (vendor.key.public_key.key_id + ".json")).string());
  CHECK(RecordFor(report, manifest.filename().string())->signature.status == SignatureStatus::kVerified);
}

TEST_CASE("trust: require rejects unsigned drops before opening them, warn loads them, marked") {
  PluginTrace trace;
  TestFolder drops, keys;
  const fs::path manifest = AddSignablePlugin(drops, test_plugins::valid_a, "ValidA");
  {
    auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kRequire, keys));
    const DiscoveryReport& report = runtime->GetDiscoveryReport();
    INFO(Describe(report));
    CHECK(runtime->GetBackends().empty());
    CHECK(Mismatch(RecordFor(report, manifest.filename().string()),
                   {Verdict::kRejected, ReasonCode::kSignatureMissing, DiscoveryStage::kManifestChecked,
                    FoundBy::kManifest,
                    {manifest.string(), "has no signature (Test_ValidA_backend.json.sig)",
                     "policy require (option) loads only signed drops"}}) == "");
    CHECK(trace.Count("loaded TestValidA") == 0);
  }
  auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kWarn, keys));
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(runtime->GetBackends()[0].signature.status == SignatureStatus::kUnsigned);
  CHECK(runtime->GetBackends()[0].signature.publisher.empty());
}

TEST_CASE("trust: a valid signature by an unknown key is untrusted: marked under warn, rejected under require") {
  TestFolder drops, keys, secrets;
  const VendorKey stranger(secrets, "Someone Else");
  const fs::path manifest = AddSignablePlugin(drops, test_plugins::valid_a, "ValidA");
  stranger.Sign(manifest);
  {
    auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kWarn, keys));
    REQUIRE(runtime->GetBackends().size() == 1);
    const SignatureInfo signature = runtime->GetBackends()[0].signature;
    CHECK(signature.status == SignatureStatus::kUntrusted);
    CHECK(signature.publisher == "Someone Else");  // as claimed
    CHECK(signature.trusted_key_path.empty());
  }
  auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kRequire, keys));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(Mismatch(RecordFor(report, manifest.filename().string()),
                 {Verdict::kRejected, ReasonCode::kPublisherUntrusted, DiscoveryStage::kManifestChecked,
                  FoundBy::kManifest,
                  {manifest.string(), "signed by key " + stranger.key.public_key.key_id,
                   "claims publisher \"Someone Else\"", "in no trust folder (" + keys.path().string() + ")",
                   "sdk-plugin keys add"}}) == "");
}

TEST_CASE("trust: a manifest edited after signing, or a tampered library with its sha256 rewritten, is rejected under warn and require") {
  PluginTrace trace;
  TestFolder drops, keys, secrets;
  const VendorKey vendor(secrets);
  vendor.TrustIn(keys);
  const fs::path manifest = AddSignablePlugin(drops, test_plugins::valid_a, "ValidA");
  vendor.Sign(manifest);

  SUBCASE("the manifest edited") {
    Append(manifest, "\n");  // one byte more: still valid JSON, no longer what was signed
  }
  SUBCASE("the library tampered with and the sha256 rewritten to match") {
    const fs::path library = drops / LibraryFileName("Test", "ValidA");
    Append(library, "tampered");
    json edited = json::parse(std::ifstream(manifest));
    edited["sha256"] = Sha256OfFile(library);
    drops.WriteManifest(manifest.filename(), edited);
  }
  SUBCASE("the sha256 removed") {
    json edited = json::parse(std::ifstream(manifest));
    edited.erase("sha256");
    drops.WriteManifest(manifest.filename(), edited);
  }
  for (TrustPolicy policy : {TrustPolicy::kWarn, TrustPolicy::kRequire}) {
    CAPTURE(ToString(policy));
    auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, policy, keys));
    const DiscoveryReport& report = runtime->GetDiscoveryReport();
    INFO(Describe(report));
    CHECK(runtime->GetBackends().empty());
    CHECK(Mismatch(RecordFor(report, manifest.filename().string()),
                   {Verdict::kRejected, ReasonCode::kSignatureInvalid, DiscoveryStage::kManifestChecked,
                    FoundBy::kManifest,
                    {manifest.string() + ".sig", "by key " + vendor.key.public_key.key_id, "does not verify over",
                     "changed after it was signed"}}) == "");
    CHECK(RecordFor(report, manifest.filename().string())->signature.status == SignatureStatus::kInvalid);
  }
  CHECK(trace.Count("loaded TestValidA") == 0);
}

TEST_CASE("trust: a malformed signature file is invalid and names the field") {
  TestFolder drops, keys, secrets;
  const VendorKey vendor(secrets);
  const fs::path manifest = AddSignablePlugin(drops, test_plugins::valid_a, "ValidA");
  vendor.Sign(manifest);
  json signature = json::parse(std::ifstream(manifest.string() + ".sig"));
  std::string expected;
  SUBCASE("not JSON") {
    drops.WriteFile(manifest.filename().string() + ".sig", "garbage");
    expected = "is not a JSON object";
  }
  SUBCASE("a signature of the wrong size") {
    signature["signature"] = "AAAA";
    drops.WriteFile(manifest.filename().string() + ".sig", signature.dump());
    expected = "field \"signature\" is not base64 of 64 bytes";
  }
  SUBCASE("another algorithm") {
    signature["algorithm"] = "rsa";
    drops.WriteFile(manifest.filename().string() + ".sig", signature.dump());
    expected = "algorithm \"rsa\" is not supported";
  }
  SUBCASE("a key id that is not the key's") {
    signature["key_id"] = "0000000000000000";
    drops.WriteFile(manifest.filename().string() + ".sig", signature.dump());
    expected = "field \"key_id\" is \"0000000000000000\" but the public key's id is " + vendor.key.public_key.key_id;
  }
  auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kWarn, keys));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(Mismatch(RecordFor(report, manifest.filename().string()),
                 {Verdict::kRejected, ReasonCode::kSignatureInvalid, DiscoveryStage::kManifestChecked,
                  FoundBy::kManifest, {manifest.string() + ".sig", expected}}) == "");
}

TEST_CASE("trust: policy off checks nothing, not even a broken signature") {
  TestFolder drops, keys;
  const fs::path manifest = AddSignablePlugin(drops, test_plugins::valid_a, "ValidA");
  drops.WriteFile(manifest.filename().string() + ".sig", "garbage");
  auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kOff, keys));
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(runtime->GetBackends()[0].signature.status == SignatureStatus::kNotChecked);
}

TEST_CASE("trust: a library without a manifest (naming scheme) is refused under require, before it is opened") {
  PluginTrace trace;
  TestFolder drops, keys;
  const fs::path library = drops.AddLibrary(test_plugins::valid_a, LibraryFileName("Test", "ValidA"));
  {
    auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kRequire, keys));
    const DiscoveryReport& report = runtime->GetDiscoveryReport();
    INFO(Describe(report));
    CHECK(Mismatch(RecordFor(report, library.filename().string()),
                   {Verdict::kRejected, ReasonCode::kSignatureMissing, DiscoveryStage::kLibraryVerified,
                    FoundBy::kNamingScheme,
                    {library.string(), "has no manifest, so nothing about it is signed", "policy require"}}) == "");
    CHECK(trace.Count("loaded TestValidA") == 0);
  }
  auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kWarn, keys));
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(runtime->GetBackends()[0].signature.status == SignatureStatus::kUnsigned);
}

TEST_CASE("trust: under require, an untrusted newer version gives way to the older trusted one") {
  TestFolder older, newer, keys, secrets;
  const VendorKey vendor(secrets), stranger(secrets, "Stranger");
  vendor.TrustIn(keys);
  vendor.Sign(AddSignablePlugin(older, test_plugins::valid_a, "ValidA"));             // 1.0.0
  const fs::path rogue = AddSignablePlugin(newer, test_plugins::valid_a_2_0, "ValidA");  // 2.0.0
  stranger.Sign(rogue);
  auto runtime = Runtime::Create(TrustOptionsFor({newer.path(), older.path()}, TrustPolicy::kRequire, keys));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(runtime->GetBackends()[0].version == "1.0.0");
  CHECK(runtime->GetBackends()[0].signature.status == SignatureStatus::kVerified);
  CHECK(CodeOf(report, rogue.filename().string()) == "<no record>");  // two records share the name
  const auto records = RecordsFor(report, rogue.filename().string());
  REQUIRE(records.size() == 2);
  CHECK(records[0]->code == ReasonCode::kPublisherUntrusted);
}

TEST_CASE("trust: a drop folder writable by other users is refused under require and reported under warn") {
  TestFolder drops, keys, secrets;
  const VendorKey vendor(secrets);
  vendor.TrustIn(keys);
  const fs::path manifest = AddSignablePlugin(drops, test_plugins::valid_a, "ValidA");
  vendor.Sign(manifest);
  MakeWritableByEveryone(drops.path());
  {
    auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kRequire, keys));
    const DiscoveryReport& report = runtime->GetDiscoveryReport();
    INFO(Describe(report));
    CHECK(Mismatch(RecordFor(report, manifest.filename().string()),
                   {Verdict::kRejected, ReasonCode::kInsecurePermissions, DiscoveryStage::kManifestChecked,
                    FoundBy::kManifest,
                    {drops.path().string() + " writable by other users", "refused under policy require"}}) == "");
  }
  auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kWarn, keys));
  REQUIRE(runtime->GetBackends().size() == 1);
  const DiscoveryRecord* record = RecordFor(runtime->GetDiscoveryReport(), manifest.filename().string());
  REQUIRE(record);
  REQUIRE(record->warnings.size() == 1);
  CHECK(Contains(record->warnings[0], drops.path().string() + " writable by other users"));
}

TEST_CASE("trust: keys in a folder or file writable by other users are not trusted") {
  TestFolder drops, keys, secrets;
  const VendorKey vendor(secrets);
  vendor.TrustIn(keys);
  vendor.Sign(AddSignablePlugin(drops, test_plugins::valid_a, "ValidA"));
  const fs::path key_file = keys / (vendor.key.public_key.key_id + ".json");
  std::string expected;
  SUBCASE("the folder") {
    MakeWritableByEveryone(keys.path());
    expected = "trusted-key folder " + keys.path().string() + " is writable by other users";
  }
  SUBCASE("the file") {
    MakeWritableByEveryone(key_file);
    expected = "key file " + key_file.string() + " is writable by other users";
  }
  TrustOptions options;
  options.key_folders = {keys.path().string()};
  const TrustSettings settings = ResolveTrustSettings(options);
  CHECK(settings.keys.empty());
  REQUIRE(settings.problems.size() == 1);
  CHECK(Contains(settings.problems[0], expected));
  auto runtime = Runtime::Create(TrustOptionsFor({drops.path()}, TrustPolicy::kWarn, keys));
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(runtime->GetBackends()[0].signature.status == SignatureStatus::kUntrusted);
}

#if !defined(_WIN32)  // symlinks and the folders above are read on POSIX only (platform/permissions.hpp)
TEST_CASE("trust: a key reached through a link, or a key folder, that others could replace is not trusted") {
  TestFolder drops, keys, secrets, open_parent;
  const VendorKey vendor(secrets);
  vendor.Sign(AddSignablePlugin(drops, test_plugins::valid_a, "ValidA"));
  fs::path key_folder = keys.path();
  std::string expected;
  SUBCASE("a key file that links into a folder writable by everyone") {
    const fs::path elsewhere = open_parent.MakeFolder("anyone");
    vendor.TrustIn(open_parent);
    fs::rename(open_parent / (vendor.key.public_key.key_id + ".json"), elsewhere / "key.json");
    MakeWritableByEveryone(elsewhere);
    const fs::path link = keys.Symlink(vendor.key.public_key.key_id + ".json", elsewhere / "key.json");
    expected = "key file " + link.string() + " (a link to " + (elsewhere / "key.json").string() + ") is under " +
               elsewhere.string() + ", which lets other users replace what it holds; not trusted";
  }
  SUBCASE("a key folder whose parent is writable by everyone") {
    key_folder = open_parent.MakeFolder("keys");
    vendor.TrustIn(open_parent);
    fs::rename(open_parent / (vendor.key.public_key.key_id + ".json"), key_folder / "key.json");
    MakeWritableByEveryone(open_parent.path());
    expected = "trusted-key folder " + key_folder.string() + " is under " + open_parent.path().string() +
               ", which lets other users replace what it holds; none of its keys is trusted";
  }
  TrustOptions options;
  options.key_folders = {key_folder.string()};
  const TrustSettings settings = ResolveTrustSettings(options);
  CHECK(settings.keys.empty());
  REQUIRE(settings.problems.size() == 1);
  CHECK(settings.problems[0] == expected);
  RuntimeOptions runtime_options = OptionsFor({drops.path()});
  runtime_options.trust.policy = TrustPolicy::kRequire;
  runtime_options.trust.key_folders = {key_folder.string()};
  auto runtime = Runtime::Create(runtime_options);
  INFO(Describe(runtime->GetDiscoveryReport()));
  CHECK(runtime->GetBackends().empty());
  CHECK(CodeOf(runtime->GetDiscoveryReport(), "Test_ValidA_backend.json") == "publisher_untrusted");
}

TEST_CASE("trust: a key folder in a sticky folder writable by everyone (/tmp) is trusted when its owner is the user") {
  TestFolder keys, secrets;
  const VendorKey vendor(secrets);
  vendor.TrustIn(keys);
  TrustOptions options;
  options.key_folders = {keys.path().string()};
  const TrustSettings settings = ResolveTrustSettings(options);
  CHECK(settings.problems.empty());
  CHECK(settings.keys.size() == 1);
}
#endif

#if !defined(_WIN32)  // Windows pins by share modes (platform/regular_file.hpp); this race runs on Linux
// The race of issue 41: a thread swaps the library (and the manifest) between the signed build and
// an impostor with the same id and version while discovery runs under require. Loading from a
// pinned image of the verified bytes means the impostor's constructor never runs, in any round.
TEST_CASE("trust: under require, a library and manifest swapped while discovery runs never run unverified code") {
  PluginTrace trace;
  TestFolder drops, keys, secrets, originals;
  const SignedDropAndImpostor files(drops, keys, secrets, originals);
  const fs::path &manifest = files.manifest, &library = files.library;
  const fs::path &bad_library = files.bad_library, &bad_manifest = files.bad_manifest;
  // The two versions of each file, to be renamed into place in turn (each rename is atomic).
  const fs::path good_library = originals.AddLibrary(test_plugins::valid_a, "good.lib");
  const fs::path good_manifest = originals.WriteFile("good.json", ReadFile(manifest));
  bool in_place = false;
  SUBCASE("renamed into place") {}
  SUBCASE("written in place") { in_place = true; }
  CAPTURE(in_place);

  std::atomic<bool> stop{false};
  std::thread swapper([&] {
    const std::string good_bytes = ReadFile(good_library), bad_bytes = ReadFile(bad_library);
    for (unsigned round = 0; !stop.load(); ++round) {
      const bool bad = round % 2 == 0;
      std::error_code ignored;  // Windows refuses to replace a file discovery holds open
      if (in_place) {  // the same file (inode), truncated and rewritten
        std::ofstream(library, std::ios::binary) << (bad ? bad_bytes : good_bytes);
      } else {
        fs::copy_file(bad ? bad_library : good_library, drops / "next.lib", fs::copy_options::overwrite_existing,
                      ignored);
        fs::rename(drops / "next.lib", library, ignored);
      }
      if (round % 3 == 0) {
        fs::copy_file(bad ? bad_manifest : good_manifest, originals / "next.json",
                      fs::copy_options::overwrite_existing, ignored);
        fs::rename(originals / "next.json", manifest, ignored);
      }
    }
  });
  RuntimeOptions options = TrustOptionsFor({drops.path()}, TrustPolicy::kRequire, keys);
  options.log_sink = std::make_shared<CapturingLogSink>();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);  // bounded under sanitizers
  int rounds = 0, registered = 0;
  for (; rounds < 300 && std::chrono::steady_clock::now() < deadline; ++rounds) {
    auto runtime = Runtime::Create(options);
    for (const BackendInfo& backend : runtime->GetBackends()) {
      CHECK(backend.signature.status == SignatureStatus::kVerified);
      ++registered;
    }
    if (trace.Count("impostor loaded TestValidA") != 0) break;
  }
  stop = true;
  swapper.join();
  MESSAGE(rounds << " discoveries, " << registered << " registered the signed build");
  CHECK(trace.Count("impostor loaded TestValidA") == 0);
}
#endif

#if !defined(_WIN32)  // the files are replaced while discovery holds them, which Windows refuses
// Issue 41: an --isolate probe runs under the runtime's own trust settings, even when they come
// from TrustOptions alone (not the environment or the system configuration the child would read):
// a library and manifest replaced after the runtime verified them (here by the application's
// library filter, which runs just before the probe) are refused in the child as well, so the
// impostor's constructor runs nowhere, and the runtime registers the build it verified.
TEST_CASE("trust: under require from TrustOptions alone, the isolation probe loads only what was verified") {
  PluginTrace trace;
  ScopedEnvironmentVariable no_policy(kTrustPolicyEnvVar, std::nullopt);
  TestFolder drops, keys, secrets, originals, store;
  const SignedDropAndImpostor files(drops, keys, secrets, originals);
  const fs::path &manifest = files.manifest, &library = files.library;
  const fs::path &bad_library = files.bad_library, &bad_manifest = files.bad_manifest;

  RuntimeOptions options = TrustOptionsFor({drops.path()}, TrustPolicy::kRequire, keys);
  options.isolation.enabled = true;
  options.isolation.verdict_store = store.path().string();
  int swaps = 0;
  options.library_filter = [&](const DiscoveryRecord&) {
    std::error_code error;  // an unsigned impostor, consistent with its manifest
    fs::rename(bad_library, library, error);
    if (!error) fs::rename(bad_manifest, manifest, error);
    if (!error && fs::remove(manifest.string() + kSignatureSuffix, error)) ++swaps;
    return std::string();
  };
  auto runtime = Runtime::Create(options);
  INFO(Describe(runtime->GetDiscoveryReport()));
  INFO(trace.Text());
  REQUIRE(swaps == 1);
  CHECK(trace.Count("impostor loaded TestValidA") == 0);
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(runtime->GetBackends()[0].signature.status == SignatureStatus::kVerified);
}
#endif

TEST_CASE("trust: the policy comes from the option, else the environment, else the system configuration") {
  TestFolder config, keys;
  const fs::path file = config.WriteFile("runtime.json", R"({"trust_policy": "require"})");
  TrustOptions options;
  options.system_config = file.string();
  options.key_folders = {keys.path().string()};
  {
    ScopedEnvironmentVariable unset(kTrustPolicyEnvVar, std::nullopt);
    const TrustSettings settings = ResolveTrustSettings(options);
    CHECK(settings.policy == TrustPolicy::kRequire);
    CHECK(settings.policy_source == "system config " + file.string());
  }
  {
    ScopedEnvironmentVariable environment(kTrustPolicyEnvVar, "off");
    const TrustSettings settings = ResolveTrustSettings(options);
    if (EnvironmentHonoured()) {
      CHECK(settings.policy == TrustPolicy::kOff);
      CHECK(settings.policy_source == "environment (BACKPLANE_TRUST_POLICY)");
    } else {  // set-uid, or elevated on Windows: the system configuration still decides
      CHECK(settings.policy == TrustPolicy::kRequire);
    }
    options.policy = TrustPolicy::kWarn;
    CHECK(ResolveTrustSettings(options).policy == TrustPolicy::kWarn);
    CHECK(ResolveTrustSettings(options).policy_source == "option");
  }
  options.policy.reset();
  ScopedEnvironmentVariable unset(kTrustPolicyEnvVar, std::nullopt);
  SUBCASE("no configuration file: warn") {
    options.system_config = (config / "absent.json").string();
    CHECK(ResolveTrustSettings(options).policy == TrustPolicy::kWarn);
    CHECK(ResolveTrustSettings(options).policy_source == "default");
    CHECK(ResolveTrustSettings(options).problems.empty());
  }
  SUBCASE("a configuration that does not parse, or names no policy we know, means require") {
    for (const char* text : {"{not json", R"({"trust_policy": "sometimes"})", R"({"trust_policy": 1})"}) {
      CAPTURE(text);
      config.WriteFile("runtime.json", text);
      const TrustSettings settings = ResolveTrustSettings(options);
      CHECK(settings.policy == TrustPolicy::kRequire);
      REQUIRE(settings.problems.size() == 1);
      CHECK(Contains(settings.problems[0], "using"));
      CHECK(Contains(settings.problems[0], file.string()));
    }
  }
}

TEST_CASE("trust: an unknown policy in the environment means require, never less") {
  ScopedEnvironmentVariable environment(kTrustPolicyEnvVar, "relaxed");
  TestFolder empty;
  TrustOptions options;
  options.key_folders = {empty.path().string()};
  options.system_config = (empty / "absent.json").string();
  const TrustSettings settings = ResolveTrustSettings(options);
  if (!EnvironmentHonoured()) {  // set-uid, or elevated on Windows: the default, not the variable
    CHECK(settings.policy == TrustPolicy::kWarn);
    CHECK(settings.problems.empty());
    return;
  }
  CHECK(settings.policy == TrustPolicy::kRequire);
  REQUIRE(settings.problems.size() == 1);
  CHECK(Contains(settings.problems[0], "gives trust policy \"relaxed\", which is not off, warn or require; using require"));
}

// Windows gap (issue 42): under Wine the drop in the user's drop folder the test sets is not found
// (as above); the case never ran before 6b7115d (its name held a ';').
TEST_CASE("trust: drops installed one per subfolder of the user's drop folder are found, dot-folders never are" * doctest::skip(backplane::test_support::kWindowsGap)) {
  TestFolder home, keys, secrets;
  const VendorKey vendor(secrets);
  vendor.TrustIn(keys);
  ScopedEnvironmentVariable data_home("XDG_DATA_HOME", home.path().string());
  ScopedEnvironmentVariable paths(kBackendPathsEnvVar, std::nullopt);
  ScopedEnvironmentVariable added(kAddBackendPathsEnvVar, std::nullopt);
  const fs::path drops = home.MakeFolder("backplane/backends");
  TestFolder staging_source;
  const fs::path manifest = AddSignablePlugin(staging_source, test_plugins::valid_a, "ValidA");
  vendor.Sign(manifest);
  for (const char* folder : {"Test_ValidA_backend-1.0.0", ".staging-1234"}) {
    fs::create_directories(drops / folder);
    for (const auto& entry : fs::directory_iterator(staging_source.path())) {
      fs::copy_file(entry.path(), drops / folder / entry.path().filename());
    }
  }
  RuntimeOptions options;
  options.enable_static_backends = false;
  options.allow_no_backends = true;
  options.log_sink = std::make_shared<CapturingLogSink>();
  options.trust.policy = TrustPolicy::kRequire;
  options.trust.key_folders = {keys.path().string()};
  options.select_backends = {"TestValidA"};
  auto runtime = Runtime::Create(options);
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(runtime->GetBackends()[0].layer == "user");
  CHECK(fs::path(runtime->GetBackends()[0].manifest_path).parent_path() == drops / "Test_ValidA_backend-1.0.0");
  for (const auto& record : report.records) CHECK(!Contains(record.manifest_path, ".staging"));
}

}  // namespace backplane::unit
