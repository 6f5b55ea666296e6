#include "discovery/backend_filter.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

namespace backplane::discovery {

namespace {
BackendFilter::Patterns Select(std::vector<std::string> patterns) {
  return {std::move(patterns), "RuntimeOptions::select_backends"};
}
BackendFilter::Patterns Disable(std::vector<std::string> patterns) {
  return {std::move(patterns), "RuntimeOptions::disable_backends"};
}
}  // namespace

TEST_CASE("backend filter: id patterns match whole ids with * and ?") {
  CHECK(MatchesIdPattern("CpuRef", "CpuRef"));
  CHECK_FALSE(MatchesIdPattern("CpuRef", "CpuRefX"));
  CHECK_FALSE(MatchesIdPattern("cpuref", "CpuRef"));  // case-sensitive, as ids are
  CHECK(MatchesIdPattern("Cpu*", "CpuOneDnn"));
  CHECK(MatchesIdPattern("Cpu*", "Cpu"));
  CHECK(MatchesIdPattern("*Dnn", "CpuOneDnn"));
  CHECK(MatchesIdPattern("*One*", "CpuOneDnn"));
  CHECK_FALSE(MatchesIdPattern("*One*", "CpuRef"));
  CHECK(MatchesIdPattern("Gpu?pen*", "GpuOpenCl"));
  CHECK_FALSE(MatchesIdPattern("Gpu?", "GpuOpenCl"));
  CHECK(MatchesIdPattern("*", "Anything1"));
  CHECK(MatchesIdPattern("a*b*c", "aXbYbZc"));
  CHECK_FALSE(MatchesIdPattern("a*b*c", "aXbYbZ"));
}

TEST_CASE("backend filter: select keeps only matching ids, disable wins, each refusal names pattern and source") {
  const BackendFilter none;
  CHECK(none.IdRefusal("CpuRef").empty());

  const BackendFilter select(Select({"Cpu*", "GpuOpenCl"}), Disable({}), {});
  CHECK(select.IdRefusal("CpuRef").empty());
  CHECK(select.IdRefusal("GpuOpenCl").empty());
  CHECK(select.IdRefusal("AcmeNpu") ==
        "backend AcmeNpu is not selected (RuntimeOptions::select_backends: Cpu*,GpuOpenCl)");

  const BackendFilter both(Select({"Cpu*"}), Disable({"*Ref"}), {});
  CHECK(both.IdRefusal("CpuOneDnn").empty());
  CHECK(both.IdRefusal("CpuRef") == "backend CpuRef is disabled by pattern '*Ref' of RuntimeOptions::disable_backends");
}

TEST_CASE("backend filter: a pattern with other characters is the application's error") {
  CHECK_THROWS_WITH_AS(BackendFilter(Select({"Cpu-Ref"}), Disable({}), {}),
                       "backend id pattern 'Cpu-Ref' of RuntimeOptions::select_backends has a character that is not "
                       "a letter, a digit, '*' or '?'",
                       Exception);
  CHECK_THROWS_AS(BackendFilter(Select({}), Disable({"a b"}), {}), Exception);
}

TEST_CASE("backend filter: version pins allow only versions in their id's range") {
  const BackendFilter pinned(Select({}), Disable({}), {{BackendId("CpuOneDnn"), "0.1.x"}});
  CHECK(pinned.VersionRefusal("CpuOneDnn", "0.1.7").empty());
  CHECK(pinned.VersionRefusal("CpuRef", "9.0.0").empty());  // no pin for it
  CHECK(pinned.VersionRefusal("CpuOneDnn", "0.2.0") ==
        "CpuOneDnn 0.2.0 is outside the version range '0.1.x' pinned for it (RuntimeOptions::backend_versions)");
  CHECK_FALSE(pinned.VersionRefusal("CpuOneDnn", "not-a-version").empty());

  try {
    BackendFilter(Select({}), Disable({}), {{BackendId("CpuOneDnn"), "0.x.1"}});
    FAIL("a bad range was accepted");
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    CHECK(std::string(error.what()).find("the version range pinned for backend CpuOneDnn") != std::string::npos);
  }
}

}  // namespace backplane::discovery
