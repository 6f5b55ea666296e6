// Backend API versioning (spec 001 "Dynamic backend versioning and ABI compatibility") and the
// version value types.
#include <backplane/version.hpp>

#include <doctest/doctest.h>

#include <string>

namespace backplane {
namespace {

// Spec 001 states the rule from the backend's point of view: "built with vX is (not)
// compatible with the Backend API vY". Each example is one test case.
TEST_CASE("spec 001 example: backend 2.4 is compatible with Backend API 2.4") {
  CHECK(IsBackendApiCompatible({2, 4}, {2, 4}));
}

TEST_CASE("spec 001 example: backend 2.1 is compatible with Backend API 2.4") {
  CHECK(IsBackendApiCompatible({2, 1}, {2, 4}));
}

TEST_CASE("spec 001 example: backend 2.5 is not compatible with Backend API 2.4") {
  CHECK_FALSE(IsBackendApiCompatible({2, 5}, {2, 4}));
}

TEST_CASE("spec 001 example: backend 2.0 is not compatible with Backend API 1.0") {
  CHECK_FALSE(IsBackendApiCompatible({2, 0}, {1, 0}));
}

TEST_CASE("spec 001 example: backend 2.0 is not compatible with Backend API 3.0") {
  CHECK_FALSE(IsBackendApiCompatible({2, 0}, {3, 0}));
}

TEST_CASE("compatibility is not symmetric: an older runtime minor refuses a newer backend") {
  CHECK(IsBackendApiCompatible({2, 1}, {2, 4}));
  CHECK_FALSE(IsBackendApiCompatible({2, 4}, {2, 1}));
  // The minor is compared only within one major.
  CHECK_FALSE(IsBackendApiCompatible({1, 0}, {2, 9}));
  CHECK_FALSE(IsBackendApiCompatible({3, 0}, {2, 9}));
}

TEST_CASE("a backend built with this SDK's headers is compatible with this SDK's runtime") {
  CHECK(IsBackendApiCompatible(kBackendApiVersion, kBackendApiVersion));
  CHECK_FALSE(IsBackendApiCompatible({kBackendApiVersion.major, kBackendApiVersion.minor + 1},
                                     kBackendApiVersion));
  CHECK_FALSE(IsBackendApiCompatible({kBackendApiVersion.major + 1, kBackendApiVersion.minor},
                                     kBackendApiVersion));
}

TEST_CASE("IsBackendApiCompatible is usable at compile time") {
  constexpr bool older_minor = IsBackendApiCompatible({2, 1}, {2, 4});
  constexpr bool newer_minor = IsBackendApiCompatible({2, 5}, {2, 4});
  static_assert(older_minor && !newer_minor);
  CHECK(older_minor);
  CHECK_FALSE(newer_minor);
}

TEST_CASE("BackendApiVersion equality compares major and minor") {
  CHECK(BackendApiVersion{2, 4} == BackendApiVersion{2, 4});
  CHECK_FALSE(BackendApiVersion{2, 4} != BackendApiVersion{2, 4});
  CHECK(BackendApiVersion{2, 4} != BackendApiVersion{2, 5});
  CHECK(BackendApiVersion{2, 4} != BackendApiVersion{3, 4});
}

TEST_CASE("ToString formats Backend API and SDK versions") {
  CHECK(ToString(BackendApiVersion{2, 4}) == "2.4");
  CHECK(ToString(BackendApiVersion{0, 0}) == "0.0");
  CHECK(ToString(BackendApiVersion{10, 27}) == "10.27");
  CHECK(ToString(BackendApiVersion{4294967295u, 1}) == "4294967295.1");
  CHECK(ToString(SdkVersion{0, 1, 0}) == "0.1.0");
  CHECK(ToString(SdkVersion{12, 3, 45}) == "12.3.45");
}

TEST_CASE("kSdkVersion is the project's version, and the loaded library reports the same") {
  CHECK(ToString(kSdkVersion) == BACKPLANE_PROJECT_VERSION);
  CHECK(LoadedSdkVersion() == kSdkVersion);
  CHECK(SdkVersion{0, 2, 1} != SdkVersion{0, 2, 0});
}

TEST_CASE("ParseBackendApiVersion accepts MAJOR.MINOR in decimal") {
  BackendApiVersion version{99, 99};
  REQUIRE(ParseBackendApiVersion("2.4", version));
  CHECK(version == BackendApiVersion{2, 4});
  REQUIRE(ParseBackendApiVersion("0.0", version));
  CHECK(version == BackendApiVersion{0, 0});
  REQUIRE(ParseBackendApiVersion("10.27", version));
  CHECK(version == BackendApiVersion{10, 27});
  REQUIRE(ParseBackendApiVersion("007.010", version));  // leading zeros are still decimal
  CHECK(version == BackendApiVersion{7, 10});
  REQUIRE(ParseBackendApiVersion("4294967295.4294967295", version));
  CHECK(version == BackendApiVersion{4294967295u, 4294967295u});
}

TEST_CASE("ParseBackendApiVersion round-trips ToString") {
  for (const BackendApiVersion original :
       {BackendApiVersion{0, 0}, BackendApiVersion{1, 0}, BackendApiVersion{2, 4},
        BackendApiVersion{123, 456}, kBackendApiVersion}) {
    BackendApiVersion parsed;
    INFO("version " << ToString(original));
    REQUIRE(ParseBackendApiVersion(ToString(original), parsed));
    CHECK(parsed == original);
  }
}

TEST_CASE("ParseBackendApiVersion rejects malformed text and leaves the output untouched") {
  const char* const malformed[] = {
      "",           // empty
      "2",          // no minor
      "2.",         // empty minor
      ".4",         // empty major
      ".",          // nothing at all
      "2.4.1",      // three fields
      "2..4",       // empty field
      "2,4",        // comma
      " 2.4",       // leading space
      "2.4 ",       // trailing space
      "2. 4",       // inner space
      "+2.4",       // sign
      "-2.4",       // negative major
      "2.-4",       // negative minor
      "2.+4",       // signed minor
      "a.b",        // not digits
      "2.4a",       // trailing garbage
      "0x2.4",      // hex
      "v2.4",       // prefix
      "4294967296.0",  // major overflows 32 bits
      "1.4294967296",  // minor overflows 32 bits
  };
  for (const char* text : malformed) {
    INFO("text \"" << std::string(text) << "\"");
    BackendApiVersion version{7, 9};
    CHECK_FALSE(ParseBackendApiVersion(text, version));
    CHECK(version == BackendApiVersion{7, 9});
  }
}

TEST_CASE("ParseBackendApiVersion rejects an embedded NUL") {
  BackendApiVersion version{7, 9};
  CHECK_FALSE(ParseBackendApiVersion(std::string("2.4\0", 4), version));
  CHECK_FALSE(ParseBackendApiVersion(std::string("2\0.4", 4), version));
  CHECK(version == BackendApiVersion{7, 9});
}

}  // namespace
}  // namespace backplane
