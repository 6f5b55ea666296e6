#include "discovery/semver.hpp"

#include "platform/message_text.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace backplane::discovery {

namespace {

constexpr std::string_view kRangeHint = "use 1.x, 1.2.x, >=1.0.0 <2.0.0 or an exact version";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsIdentifierChar(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool IsDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// `text` cut at every `separator`, empty pieces kept ("a..b" is three pieces).
std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  for (;;) {
    const auto at = text.find(separator);
    pieces.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return pieces;
    text.remove_prefix(at + 1);
  }
}

// A numeric identifier: nullptr with `out` set, or what is wrong.
const char* ParseNumber(std::string_view text, std::uint64_t& out) {
  if (text.empty()) return "a number is missing";
  if (!IsDigits(text)) return "a number must be digits only";
  if (text.size() > 1 && text[0] == '0') return "numbers must not have leading zeros";
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t value = 0;
  for (char c : text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (kMax - digit) / 10) return "a number does not fit in 64 bits";
    value = value * 10 + digit;
  }
  out = value;
  return nullptr;
}

// Dot-separated identifiers after '-' or '+': nullptr, or what is wrong.
const char* CheckIdentifiers(const std::vector<std::string_view>& identifiers, bool numbers_checked) {
  for (const auto identifier : identifiers) {
    if (identifier.empty()) return "prerelease and build identifiers must not be empty";
    for (char c : identifier) {
      if (!IsIdentifierChar(c)) return "identifiers may hold only letters, digits and '-'";
    }
    if (numbers_checked && IsDigits(identifier)) {
      std::uint64_t ignored = 0;
      if (const char* why = ParseNumber(identifier, ignored)) return why;
    }
  }
  return nullptr;
}

// The one Semantic Versioning 2.0.0 reader: nullptr with `out` set, or what is wrong.
const char* ParseSemverInto(std::string_view text, Semver& out) {
  Semver version;
  const auto plus = text.find('+');
  if (plus != std::string_view::npos) {
    const auto build = text.substr(plus + 1);
    if (const char* why = CheckIdentifiers(Split(build, '.'), false)) return why;
    version.build = std::string(build);
    text = text.substr(0, plus);
  }
  const auto dash = text.find('-');
  if (dash != std::string_view::npos) {
    const auto identifiers = Split(text.substr(dash + 1), '.');
    if (const char* why = CheckIdentifiers(identifiers, true)) return why;
    version.prerelease.assign(identifiers.begin(), identifiers.end());
    text = text.substr(0, dash);
  }
  const auto core = Split(text, '.');
  if (core.size() != 3) return "a version must be three numbers MAJOR.MINOR.PATCH";
  std::uint64_t* const numbers[] = {&version.major, &version.minor, &version.patch};
  for (std::size_t i = 0; i < 3; ++i) {
    if (const char* why = ParseNumber(core[i], *numbers[i])) return why;
  }
  out = std::move(version);
  return nullptr;
}

int Sign(int value) { return value < 0 ? -1 : value > 0 ? 1 : 0; }

int CompareNumbers(std::uint64_t a, std::uint64_t b) { return a < b ? -1 : a > b ? 1 : 0; }

// Numeric identifiers by value (any length: by digit count once leading zeros are gone, which
// hand-made values may have), below alphanumeric ones, which compare in ASCII order.
int CompareIdentifiers(std::string_view a, std::string_view b) {
  const bool a_numeric = IsDigits(a);
  const bool b_numeric = IsDigits(b);
  if (a_numeric && b_numeric) {
    a.remove_prefix(std::min(a.find_first_not_of('0'), a.size()));
    b.remove_prefix(std::min(b.find_first_not_of('0'), b.size()));
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    return Sign(a.compare(b));
  }
  if (a_numeric) return -1;
  if (b_numeric) return 1;
  return Sign(a.compare(b));
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> SplitOnSpace(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && IsSpace(text[i])) ++i;
    const auto begin = i;
    while (i < text.size() && !IsSpace(text[i])) ++i;
    if (i > begin) parts.push_back(text.substr(begin, i - begin));
  }
  return parts;
}

}  // namespace

std::optional<Semver> ParseSemver(std::string_view text) {
  Semver version;
  if (ParseSemverInto(text, version) != nullptr) return std::nullopt;
  return version;
}

int CompareSemver(const Semver& a, const Semver& b) {
  if (const int c = CompareNumbers(a.major, b.major)) return c;
  if (const int c = CompareNumbers(a.minor, b.minor)) return c;
  if (const int c = CompareNumbers(a.patch, b.patch)) return c;
  // A release is higher than any of its prereleases.
  if (a.prerelease.empty() || b.prerelease.empty()) {
    return a.prerelease.empty() == b.prerelease.empty() ? 0 : a.prerelease.empty() ? 1 : -1;
  }
  const auto common = std::min(a.prerelease.size(), b.prerelease.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (const int c = CompareIdentifiers(a.prerelease[i], b.prerelease[i])) return c;
  }
  return CompareNumbers(a.prerelease.size(), b.prerelease.size());
}

std::string ToString(const Semver& v) {
  std::string text = std::to_string(v.major) + '.' + std::to_string(v.minor) + '.' + std::to_string(v.patch);
  for (std::size_t i = 0; i < v.prerelease.size(); ++i) {
    text += i == 0 ? '-' : '.';
    text += v.prerelease[i];
  }
  if (!v.build.empty()) text += '+' + v.build;
  return text;
}

std::optional<VersionRange> VersionRange::Parse(std::string_view text, std::string& why) {
  const auto trimmed = Trim(text);
  const auto parts = SplitOnSpace(trimmed);
  const auto fail = [&](std::string_view part, const std::string& reason) {
    why = platform::Quoted(trimmed) + " is not a version range: ";
    if (parts.size() > 1) why += "in " + platform::Quoted(part) + ", ";
    why += reason;
    why += "; ";
    why += kRangeHint;
    return std::nullopt;
  };
  if (parts.empty()) return fail(trimmed, "it is empty");

  // What is wrong with one part, or empty with `out` set.
  const auto parse_part = [](std::string_view part, Part& out) -> std::string {
    static constexpr std::pair<std::string_view, Op> kOperators[] = {
        {">=", Op::kGreaterEqual}, {"<=", Op::kLessEqual}, {">", Op::kGreater},
        {"<", Op::kLess},          {"=", Op::kEqual},
    };
    std::string_view rest = part;
    bool has_operator = false;
    out.op = Op::kEqual;
    for (const auto& [spelling, op] : kOperators) {
      if (rest.substr(0, spelling.size()) == spelling) {
        rest.remove_prefix(spelling.size());
        out.op = op;
        has_operator = true;
        break;
      }
    }
    if (has_operator && rest.empty()) return "an operator must be followed by a version, with no space between";

    // Wildcards stand only in the numeric core, before any -prerelease or +build.
    const auto core = rest.substr(0, rest.find_first_of("-+"));
    const auto pieces = Split(core, '.');
    std::size_t wildcard = 0;
    while (wildcard < pieces.size() && pieces[wildcard] != "x" && pieces[wildcard] != "*") ++wildcard;
    if (wildcard < pieces.size()) {
      if (has_operator) return "an operator needs a full version MAJOR.MINOR.PATCH, not a wildcard";
      if (wildcard + 1 != pieces.size()) return "a wildcard must be the last part";
      if (core.size() != rest.size()) return "a wildcard cannot have a prerelease or build";
      if (wildcard > 2) return "at most MAJOR.MINOR may come before a wildcard";
      std::uint64_t* const numbers[] = {&out.version.major, &out.version.minor};
      for (std::size_t i = 0; i < wildcard; ++i) {
        if (const char* why = ParseNumber(pieces[i], *numbers[i])) return why;
      }
      out.op = Op::kLeading;
      out.leading = wildcard;
      return {};
    }

    if (!has_operator && !IsDigit(rest[0])) {
      return "a part must be a version, a wildcard (x, *) or a comparison (=, >=, >, <=, <) with a version";
    }
    const char* why = ParseSemverInto(rest, out.version);
    if (why == nullptr) return {};
    if (pieces.size() < 3) {
      bool numbers = true;
      for (const auto piece : pieces) {
        std::uint64_t ignored = 0;
        if (const char* number_why = ParseNumber(piece, ignored)) {
          numbers = false;
          why = number_why;
          break;
        }
      }
      if (numbers && has_operator) return "an operator needs a full version MAJOR.MINOR.PATCH";
      if (numbers && core.size() == rest.size()) {
        return "a partial version needs a wildcard, as in " + std::string(rest) + ".x";
      }
    }
    return why;
  };

  VersionRange range;
  range.text_ = std::string(trimmed);
  for (const auto part : parts) {
    Part parsed;
    const std::string reason = parse_part(part, parsed);
    if (!reason.empty()) return fail(part, reason);
    range.parts_.push_back(std::move(parsed));
  }
  return range;
}

bool VersionRange::Contains(const Semver& version) const {
  for (const auto& part : parts_) {
    bool holds = false;
    switch (part.op) {
      case Op::kEqual: holds = CompareSemver(version, part.version) == 0; break;
      case Op::kGreaterEqual: holds = CompareSemver(version, part.version) >= 0; break;
      case Op::kGreater: holds = CompareSemver(version, part.version) > 0; break;
      case Op::kLessEqual: holds = CompareSemver(version, part.version) <= 0; break;
      case Op::kLess: holds = CompareSemver(version, part.version) < 0; break;
      case Op::kLeading:
        holds = (part.leading < 1 || version.major == part.version.major) &&
                (part.leading < 2 || version.minor == part.version.minor);
        break;
    }
    if (!holds) return false;
  }
  return true;
}

}  // namespace backplane::discovery
