#include "loading/plugin_library.hpp"

#include <backplane/plugin.hpp>

#include <doctest/doctest.h>

#include <string>

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

}  // namespace
}  // namespace backplane::loading
