#include "isolation/probe_report.hpp"

#include <backplane/path_text.hpp>

#include <doctest/doctest.h>

#include <filesystem>

namespace backplane::isolation {

namespace {
// An absolute path on this platform.
std::string Absolute(const std::string& name) {
  return PathToUtf8(std::filesystem::temp_directory_path() / PathFromUtf8(name));
}
}  // namespace

TEST_CASE("probe arguments: the runtime's trust settings and the library cross to the probe unchanged") {
  ProbeRequest sent;
  sent.library = Absolute("Acme_Fast_backend.so");
  sent.policy = TrustPolicy::kRequire;
  sent.key_folders = {Absolute("keys one"), Absolute("--trusted-keys")};
  std::string error;
  const std::optional<ProbeRequest> read = ParseProbeArguments(ProbeArguments(sent), error);
  REQUIRE_MESSAGE(read, error);
  CHECK(read->library == sent.library);
  CHECK(read->policy == TrustPolicy::kRequire);
  CHECK(read->key_folders == sent.key_folders);
}

TEST_CASE("probe arguments: anything else is refused, saying what") {
  const std::string library = Absolute("lib.so");
  std::string error;
  CHECK_FALSE(ParseProbeArguments({}, error));
  CHECK(error == "the last argument must be the library, as an absolute path");
  CHECK_FALSE(ParseProbeArguments({"relative.so"}, error));
  CHECK_FALSE(ParseProbeArguments({"--trust-policy", "require"}, error));
  CHECK_FALSE(ParseProbeArguments({"--trust-policy", "sometimes", library}, error));
  CHECK(error == "--trust-policy 'sometimes' is not off, warn or require");
  CHECK_FALSE(ParseProbeArguments({"--verbose", "1", library}, error));
  CHECK(error == "unexpected argument '--verbose'");
  CHECK_FALSE(ParseProbeArguments({"--trusted-keys", library}, error));
  const std::optional<ProbeRequest> plain = ParseProbeArguments({library}, error);
  REQUIRE(plain);
  CHECK(plain->policy == TrustPolicy::kWarn);
  CHECK(plain->key_folders.empty());
}

}  // namespace backplane::isolation
