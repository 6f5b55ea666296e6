#include "discovery/semver.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace backplane::discovery {

namespace {

Semver V(const char* text) {
  const auto version = ParseSemver(text);
  REQUIRE_MESSAGE(version, text);
  return *version;
}

VersionRange Range(const char* text) {
  std::string why;
  const auto range = VersionRange::Parse(text, why);
  REQUIRE_MESSAGE(range, why);
  return *range;
}

std::string WhyNot(const std::string& text) {
  std::string why;
  CHECK_FALSE(VersionRange::Parse(text, why));
  return why;
}

constexpr const char* kHint = "; use 1.x, 1.2.x, >=1.0.0 <2.0.0 or an exact version";

}  // namespace

// ---- Semver ----------------------------------------------------------------------------------

TEST_CASE("semver: parses the core, the prerelease identifiers and the build") {
  const Semver v = V("1.22.333-alpha.1.x-y-z.--+build.007");
  CHECK(v.major == 1);
  CHECK(v.minor == 22);
  CHECK(v.patch == 333);
  CHECK((v.prerelease == std::vector<std::string>{"alpha", "1", "x-y-z", "--"}));
  CHECK(v.build == "build.007");

  const Semver release = V("0.0.0");
  CHECK(release.major == 0);
  CHECK(release.prerelease.empty());
  CHECK(release.build.empty());

  // semver.org's own examples, and identifiers that merely start with 0.
  for (const char* good : {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0.3.7", "1.0.0-x.7.z.92", "1.0.0-x-y-z.--",
                           "1.0.0-alpha+001", "1.0.0+20130313144700", "1.0.0-beta+exp.sha.5114f85",
                           "1.0.0+21AF26D3----117B344092BD", "1.0.0-0", "1.0.0-0alpha", "1.0.0-00a", "1.0.0+0.00"}) {
    CAPTURE(good);
    CHECK(ParseSemver(good));
  }
  CHECK(V("1.0.0-rc.1+a-b").build == "a-b");
  CHECK((V("1.0.0-rc-1").prerelease == std::vector<std::string>{"rc-1"}));
}

TEST_CASE("semver: rejects what Semantic Versioning 2.0.0 rejects") {
  for (const char* bad :
       {"", "1", "1.2", "1.2.3.4", "1..3", ".1.2.3", "1.2.3.", "v1.2.3", "=1.2.3", " 1.2.3", "1.2.3 ", "-1.2.3",
        "+1.2.3", "1.2.a", "1.2.x", "1.2.3-", "1.2.3+", "1.2.3-+b", "1.2.3-a..b", "1.2.3-.a", "1.2.3-a.",
        "1.2.3+a..b", "1.2.3+.a", "1.2.3-a_b", "1.2.3+a_b", "1.2.3+a+b", "1.2.3-a b", "1.2.3-\xc3\xa9"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseSemver(bad));
  }
}

TEST_CASE("semver: leading zeros are rejected in numbers, not in other identifiers") {
  for (const char* bad : {"01.2.3", "1.02.3", "1.2.03", "00.0.0", "1.2.3-01", "1.2.3-alpha.01", "1.2.3-00"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseSemver(bad));
  }
  CHECK((V("1.2.3-0a.01b").prerelease == std::vector<std::string>{"0a", "01b"}));
  CHECK(V("1.2.3+01").build == "01");
}

TEST_CASE("semver: numbers must fit in 64 bits") {
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  const Semver biggest = V("18446744073709551615.18446744073709551615.18446744073709551615-18446744073709551615");
  CHECK(biggest.major == kMax);
  CHECK(biggest.minor == kMax);
  CHECK(biggest.patch == kMax);
  for (const char* bad : {"18446744073709551616.0.0", "0.18446744073709551616.0", "0.0.18446744073709551616",
                          "0.0.99999999999999999999", "0.0.0-18446744073709551616", "0.0.0-a.100000000000000000000"}) {
    CAPTURE(bad);
    CHECK_FALSE(ParseSemver(bad));
  }
  // Build metadata is not a number to compare: any length.
  CHECK(ParseSemver("0.0.0+18446744073709551616"));
}

TEST_CASE("semver: precedence follows semver.org section 11") {
  const std::vector<const char*> ascending = {
      "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
      "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1", "2.10.0", "10.0.0"};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    for (std::size_t j = 0; j < ascending.size(); ++j) {
      CAPTURE(ascending[i]);
      CAPTURE(ascending[j]);
      const int expected = i < j ? -1 : i > j ? 1 : 0;
      CHECK(CompareSemver(V(ascending[i]), V(ascending[j])) == expected);
    }
  }
  // Numeric identifiers compare as numbers and below alphanumeric ones.
  CHECK(CompareSemver(V("1.0.0-2"), V("1.0.0-10")) < 0);
  CHECK(CompareSemver(V("1.0.0-9"), V("1.0.0-18446744073709551615")) < 0);
  CHECK(CompareSemver(V("1.0.0-999"), V("1.0.0-a")) < 0);
  CHECK(CompareSemver(V("1.0.0-a"), V("1.0.0-999")) > 0);
  // Alphanumeric identifiers in ASCII order: upper case before lower, '-' before digits.
  CHECK(CompareSemver(V("1.0.0-Beta"), V("1.0.0-alpha")) < 0);
  CHECK(CompareSemver(V("1.0.0--a"), V("1.0.0-0a")) < 0);
  // Hand-made values with leading zeros still compare by value.
  Semver padded = V("1.0.0-rc.7");
  padded.prerelease[1] = "007";
  CHECK(CompareSemver(padded, V("1.0.0-rc.7")) == 0);
  CHECK(CompareSemver(padded, V("1.0.0-rc.10")) < 0);
}

TEST_CASE("semver: build metadata is ignored in precedence") {
  CHECK(CompareSemver(V("1.0.0+a"), V("1.0.0+b")) == 0);
  CHECK(CompareSemver(V("1.0.0+20130313144700"), V("1.0.0")) == 0);
  CHECK(CompareSemver(V("1.0.0-rc.1+z"), V("1.0.0-rc.1")) == 0);
  CHECK(CompareSemver(V("1.0.0-rc.1+zzz"), V("1.0.0+aaa")) < 0);
  CHECK(CompareSemver(V("1.0.1+0"), V("1.0.0+999")) > 0);
}

TEST_CASE("semver: ToString writes the text ParseSemver reads") {
  for (const char* text : {"0.0.0", "1.2.3", "1.0.0-alpha.1", "1.0.0+exp.sha.5114f85", "1.0.0-x-y-z.--+001",
                           "18446744073709551615.0.1-0"}) {
    CHECK(ToString(V(text)) == text);
  }
  Semver made;
  made.major = 4;
  made.patch = 2;
  made.prerelease = {"rc", "3"};
  CHECK(ToString(made) == "4.0.2-rc.3");
  made.build = "b.1";
  CHECK(ToString(made) == "4.0.2-rc.3+b.1");
}

// ---- VersionRange ----------------------------------------------------------------------------

TEST_CASE("version range: an exact version, with or without =") {
  for (const char* text : {"1.2.3", "=1.2.3"}) {
    CAPTURE(text);
    const auto range = Range(text);
    CHECK(range.Text() == text);
    CHECK(range.Contains(V("1.2.3")));
    CHECK(range.Contains(V("1.2.3+build.9")));  // build metadata is not precedence
    CHECK_FALSE(range.Contains(V("1.2.3-rc.1")));
    CHECK_FALSE(range.Contains(V("1.2.4")));
    CHECK_FALSE(range.Contains(V("1.2.2")));
  }
  const auto prerelease = Range("=1.2.3-rc.1");
  CHECK(prerelease.Contains(V("1.2.3-rc.1")));
  CHECK_FALSE(prerelease.Contains(V("1.2.3")));
  CHECK_FALSE(prerelease.Contains(V("1.2.3-rc.2")));
  CHECK(Range("1.2.3-rc.x").Contains(V("1.2.3-rc.x")));  // "x" is a prerelease identifier here
}

TEST_CASE("version range: a wildcard holds for every version with those leading numbers") {
  for (const char* text : {"1.x", "1.*"}) {
    CAPTURE(text);
    const auto range = Range(text);
    CHECK(range.Contains(V("1.0.0")));
    CHECK(range.Contains(V("1.99.7")));
    CHECK(range.Contains(V("1.2.0-alpha")));
    CHECK_FALSE(range.Contains(V("2.0.0")));
    CHECK_FALSE(range.Contains(V("2.0.0-alpha")));
    CHECK_FALSE(range.Contains(V("0.9.9")));
  }
  for (const char* text : {"1.2.x", "1.2.*"}) {
    CAPTURE(text);
    const auto range = Range(text);
    CHECK(range.Contains(V("1.2.0")));
    CHECK(range.Contains(V("1.2.99")));
    CHECK(range.Contains(V("1.2.5-rc.1")));
    CHECK_FALSE(range.Contains(V("1.3.0")));
    CHECK_FALSE(range.Contains(V("1.1.9")));
    CHECK_FALSE(range.Contains(V("2.2.0")));
  }
  for (const char* text : {"x", "*"}) {
    CAPTURE(text);
    const auto range = Range(text);
    CHECK(range.Contains(V("0.0.0")));
    CHECK(range.Contains(V("99.1.2-alpha")));
  }
  const auto pinned = Range("0.1.x");  // CpuOneDnn=0.1.x
  CHECK(pinned.Contains(V("0.1.7")));
  CHECK_FALSE(pinned.Contains(V("0.2.0")));
  CHECK_FALSE(pinned.Contains(V("1.1.0")));
}

TEST_CASE("version range: comparisons by precedence") {
  const auto at_least = Range(">=1.0.0");
  CHECK(at_least.Contains(V("1.0.0")));
  CHECK(at_least.Contains(V("1.0.1")));
  CHECK_FALSE(at_least.Contains(V("1.0.0-rc.1")));
  CHECK_FALSE(at_least.Contains(V("0.9.9")));

  const auto above = Range(">1.0.0");
  CHECK_FALSE(above.Contains(V("1.0.0")));
  CHECK_FALSE(above.Contains(V("1.0.0+later")));
  CHECK(above.Contains(V("1.0.1-alpha")));

  const auto at_most = Range("<=2.0.0");
  CHECK(at_most.Contains(V("2.0.0")));
  CHECK(at_most.Contains(V("2.0.0-rc.1")));
  CHECK_FALSE(at_most.Contains(V("2.0.1")));

  const auto below = Range("<2.0.0");
  CHECK(below.Contains(V("1.99.99")));
  CHECK(below.Contains(V("2.0.0-rc.1")));  // precedes 2.0.0
  CHECK_FALSE(below.Contains(V("2.0.0")));

  CHECK(Range(">=1.0.0-beta.2").Contains(V("1.0.0-beta.11")));
  CHECK_FALSE(Range(">=1.0.0-beta.11").Contains(V("1.0.0-beta.2")));
}

TEST_CASE("version range: every part must hold, and the text is kept trimmed") {
  const auto range = Range(">=1.2.0 <2.0.0");
  CHECK(range.Contains(V("1.2.0")));
  CHECK(range.Contains(V("1.9.9")));
  CHECK_FALSE(range.Contains(V("1.1.9")));
  CHECK_FALSE(range.Contains(V("2.0.0")));

  const auto spaced = Range(" \t1.x   >=1.4.0\n");
  CHECK(spaced.Text() == "1.x   >=1.4.0");
  CHECK(spaced.Contains(V("1.4.0")));
  CHECK_FALSE(spaced.Contains(V("1.3.0")));
  CHECK_FALSE(spaced.Contains(V("2.4.0")));

  CHECK_FALSE(Range("<1.0.0 >2.0.0").Contains(V("1.5.0")));  // holds for nothing, but well-formed

  std::string why = "untouched";
  CHECK(VersionRange::Parse("1.x", why));
  CHECK(why == "untouched");
}

TEST_CASE("version range: a bad range says why, naming the text") {
  CHECK(WhyNot("1.x.3") == std::string("\"1.x.3\" is not a version range: a wildcard must be the last part") + kHint);
  CHECK(WhyNot("") == std::string("\"\" is not a version range: it is empty") + kHint);
  CHECK(WhyNot(" \t ") == std::string("\"\" is not a version range: it is empty") + kHint);
  CHECK(WhyNot("1.2") ==
        std::string("\"1.2\" is not a version range: a partial version needs a wildcard, as in 1.2.x") + kHint);
  CHECK(WhyNot(">=1.0.0 <2.0") ==
        std::string("\">=1.0.0 <2.0\" is not a version range: in \"<2.0\", an operator needs a full version "
                    "MAJOR.MINOR.PATCH") + kHint);
  CHECK(WhyNot(">= 1.0.0") ==
        std::string("\">= 1.0.0\" is not a version range: in \">=\", an operator must be followed by a version, "
                    "with no space between") + kHint);
  CHECK(WhyNot("^1.2.3") ==
        std::string("\"^1.2.3\" is not a version range: a part must be a version, a wildcard (x, *) or a "
                    "comparison (=, >=, >, <=, <) with a version") + kHint);

  struct Case {
    const char* text;
    const char* reason;
  };
  for (const Case& c : std::vector<Case>{
           {"1.x.x", "a wildcard must be the last part"},
           {"x.1", "a wildcard must be the last part"},
           {"1.2.3.x", "at most MAJOR.MINOR may come before a wildcard"},
           {"1.2.x-rc", "a wildcard cannot have a prerelease or build"},
           {">=1.x", "an operator needs a full version MAJOR.MINOR.PATCH, not a wildcard"},
           {"=1.2", "an operator needs a full version MAJOR.MINOR.PATCH"},
           {"<", "an operator must be followed by a version, with no space between"},
           {"01.x", "numbers must not have leading zeros"},
           {"01.2.3", "numbers must not have leading zeros"},
           {"1.2.3-01", "numbers must not have leading zeros"},
           {"18446744073709551616.x", "a number does not fit in 64 bits"},
           {">1.0.18446744073709551616", "a number does not fit in 64 bits"},
           {"1.X", "a number must be digits only"},
           {"1.2.3.4", "a version must be three numbers MAJOR.MINOR.PATCH"},
           {"1.2-rc", "a version must be three numbers MAJOR.MINOR.PATCH"},
           {"1.2.3-a_b", "identifiers may hold only letters, digits and '-'"},
           {"1.2.3-", "prerelease and build identifiers must not be empty"},
           {"~1.2", "a part must be a version, a wildcard (x, *) or a comparison (=, >=, >, <=, <) with a version"},
       }) {
    CAPTURE(c.text);
    CHECK(WhyNot(c.text) == "\"" + std::string(c.text) + "\" is not a version range: " + c.reason + kHint);
  }
  CHECK(WhyNot("1.2.3 || 2.0.0") ==
        std::string("\"1.2.3 || 2.0.0\" is not a version range: in \"||\", a part must be a version, a wildcard "
                    "(x, *) or a comparison (=, >=, >, <=, <) with a version") + kHint);

  // Hostile text is quoted bounded, control characters escaped.
  const std::string huge = std::string(100000, '9') + ".x";
  const std::string why = WhyNot(huge);
  CHECK(why.size() < 400);
  CHECK(why.find("(100002 bytes)") != std::string::npos);
  CHECK(WhyNot("1.x\x01") == std::string("\"1.x\\x01\" is not a version range: a number must be digits only") + kHint);
}

}  // namespace backplane::discovery
