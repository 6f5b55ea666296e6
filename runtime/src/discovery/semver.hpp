// Plugin versions (Semantic Versioning 2.0.0) and the version ranges an application pins a
// backend id to. The one place that says what a plugin version is and how two compare:
// manifests validate with ParseSemver, discovery picks the highest compatible candidate with
// CompareSemver and VersionRange.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace backplane::discovery {

// A parsed semantic version. A value type; ParseSemver only makes well-formed ones.
struct Semver {
  std::uint64_t major = 0, minor = 0, patch = 0;
  std::vector<std::string> prerelease;  // dot-separated identifiers, empty for a release
  std::string build;                    // after '+', ignored in precedence
};

// `text` as Semantic Versioning 2.0.0 says, exactly: MAJOR.MINOR.PATCH, an optional
// -prerelease and an optional +build, each a dot-separated list of non-empty [0-9A-Za-z-]+
// identifiers; numbers (the three core parts and numeric prerelease identifiers) have no
// leading zeros and fit in 64 bits. No surrounding whitespace, no "v" prefix. nullopt
// otherwise. Pure and thread-safe; never throws except std::bad_alloc.
std::optional<Semver> ParseSemver(std::string_view text);

// Semantic Versioning 2.0.0 precedence (§11): negative when `a` is lower, 0 when equal,
// positive when higher. Build metadata is ignored; a prerelease is lower than its release;
// numeric identifiers compare numerically and below alphanumeric ones, which compare in ASCII
// order; a shorter prerelease list is lower when all identifiers before are equal. Pure and
// thread-safe; never throws.
int CompareSemver(const Semver& a, const Semver& b);

// "1.2.3-rc.1+build.7": the text ParseSemver reads back to an equal value. Never throws except
// std::bad_alloc.
std::string ToString(const Semver& v);

// A version range an application pins a backend to. Whitespace-separated parts, all must hold:
//   "1.2.3" or "=1.2.3"                    exactly that version by precedence (prerelease
//                                          compared, build metadata ignored)
//   "1.x" "1.2.x" "1.*" "1.2.*" "x" "*"    every version whose leading numbers are those,
//                                          prereleases included
//   ">=1.0.0" ">1.0.0" "<=2.0.0" "<2.0.0"  comparisons by precedence; note "<2.0.0" holds for
//                                          2.0.0-rc.1, which precedes 2.0.0
// e.g. ">=1.2.0 <2.0.0". Anything else (an empty text included) is an error. A value type;
// thread-safe to share once made.
class VersionRange {
 public:
  // The range `text` (surrounding whitespace ignored) describes, or nullopt with `why` set to
  // a message that quotes the text (bounded) and names what is wrong, e.g. "\"1.x.3\" is not a
  // version range: a wildcard must be the last part; use 1.x, 1.2.x, >=1.0.0 <2.0.0 or an
  // exact version". `why` is left alone on success. Never throws except std::bad_alloc.
  static std::optional<VersionRange> Parse(std::string_view text, std::string& why);

  // True when every part of the range holds for `version`. Never throws.
  bool Contains(const Semver& version) const;

  // The range as given, trimmed of surrounding whitespace.
  const std::string& Text() const { return text_; }

 private:
  enum class Op { kEqual, kGreaterEqual, kGreater, kLessEqual, kLess, kLeading };
  struct Part {
    Op op = Op::kEqual;
    Semver version;              // for kLeading, only the first `leading` numbers count
    std::size_t leading = 0;     // kLeading: 0 ("x"), 1 ("1.x") or 2 ("1.2.x")
  };

  VersionRange() = default;

  std::string text_;
  std::vector<Part> parts_;
};

}  // namespace backplane::discovery
