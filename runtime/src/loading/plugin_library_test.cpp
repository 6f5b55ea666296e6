#include "loading/plugin_library.hpp"

#include <backplane/plugin.hpp>

#include <doctest/doctest.h>

#include <string>

#if defined(__linux__)
#include "platform/regular_file.hpp"

#include <boost/dll/runtime_symbol_info.hpp>
#include <openssl/evp.h>

#include <filesystem>
#include <random>
#endif

namespace backplane::loading {
namespace {

const TargetTags kTarget{"linux-x86_64", "c", BackendApiVersion{2, 0}};

const char* NoError() { return ""; }

BackplanePluginIdentity Identity(std::uint32_t major, std::uint32_t minor, const char* abi) {
  return {BACKPLANE_PLUGIN_MAGIC, sizeof(BackplanePluginIdentity), "Backplane", major, minor, "linux-x86_64",
          abi, "CpuOld", "Acme", "1.0.0", &NoError};
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_CASE("plugin library: a Backend API 1.x identity is refused for its version, not only its ABI tag") {
  const BackplanePluginIdentity old = Identity(1, 1, "itanium-libstdc++-cxx11");
  const auto rejection = CheckIdentity(&old, "/plugins/Acme_Old_backend.so", kTarget, kTarget.api);
  REQUIRE(rejection);
  CHECK(rejection->stage == DiscoveryStage::kIdentity);
  CHECK(rejection->code == ReasonCode::kApiVersionIncompatible);
  CHECK(Contains(rejection->message, "/plugins/Acme_Old_backend.so: built for Backend API 1.1, but this runtime "
                                     "implements 2.0: Backend API 2.0 replaced the C++ interfaces of 1.x with a C "
                                     "boundary; rebuild the plugin against Backplane SDK"));
}

TEST_CASE("plugin library: a newer minor passes the identity (GetVersion's check), another ABI tag does not") {
  const BackplanePluginIdentity newer = Identity(2, 1, "c");
  CHECK_FALSE(CheckIdentity(&newer, "x", kTarget, kTarget.api));
  const BackplanePluginIdentity other_abi = Identity(2, 0, "msvc-debug");
  const auto rejection = CheckIdentity(&other_abi, "x", kTarget, kTarget.api);
  REQUIRE(rejection);
  CHECK(rejection->code == ReasonCode::kAbiMismatch);
  const BackplanePluginIdentity current = Identity(2, 0, "c");
  CHECK_FALSE(CheckIdentity(&current, "x", kTarget, kTarget.api));
}

#if defined(__linux__)
// The check after opening is of what the loader mapped, not of what a name leads to (issue 41):
// here a link re-pointed after the load. libcrypto serves as the library: this process has it
// loaded already, so opening it again runs nothing.
TEST_CASE("plugin library: the file the loader mapped must be the one that was checked") {
  namespace fs = std::filesystem;
  boost::dll::fs::error_code error;
  const fs::path crypto = boost::dll::symbol_location_ptr(&EVP_sha256, error).string();
  REQUIRE_FALSE(error);
  const fs::path folder = fs::temp_directory_path() / ("backplane-mapped-test-" + std::to_string(std::random_device{}()));
  fs::create_directories(folder);
  const fs::path link = folder / "libplugin.so";
  fs::create_symlink(crypto, link);
  const auto checked = platform::IdentityOf(crypto);
  REQUIRE(checked);

  const auto library = SharedLibrary::Open(link);
  CHECK(library->MappedFile() == checked);
  fs::remove(link);
  fs::create_symlink("/proc/self/exe", link);  // the name now leads elsewhere; the mapping does not
  CHECK(library->MappedFile() == checked);
  CHECK(platform::IdentityOf(link) != checked);

  // Checked against another file's identity: rejected before anything of it is looked up.
  const PluginCheck other = OpenAndCheckPlugin({crypto, {}, platform::IdentityOf("/proc/self/exe")}, kTarget, kTarget.api);
  REQUIRE_FALSE(other.plugin);
  CHECK(other.rejection.code == ReasonCode::kOpenFailed);
  CHECK(Contains(other.rejection.message, crypto.string() + ": the loader mapped another file than the one checked"));
  // Against its own: that check passes (libcrypto then has no entry points).
  const PluginCheck same = OpenAndCheckPlugin({crypto, {}, checked}, kTarget, kTarget.api);
  CHECK(same.rejection.code == ReasonCode::kEntryPointMissing);
  fs::remove_all(folder);
}
#endif

}  // namespace
}  // namespace backplane::loading
