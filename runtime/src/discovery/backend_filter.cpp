#include "discovery/backend_filter.hpp"

#include "platform/environment.hpp"
#include "platform/message_text.hpp"

#include <backplane/exception.hpp>

#include <cctype>

namespace backplane::discovery {

namespace {

std::string Joined(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ",") + item;
  return text;
}

// Comma-separated, surrounding blanks trimmed, empty items dropped.
std::vector<std::string> SplitPatterns(const std::string& list) {
  std::vector<std::string> patterns;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(',', begin);
    if (end == std::string::npos) end = list.size();
    std::size_t first = begin, last = end;
    while (first < last && std::isspace(static_cast<unsigned char>(list[first]))) ++first;
    while (last > first && std::isspace(static_cast<unsigned char>(list[last - 1]))) --last;
    if (last > first) patterns.push_back(list.substr(first, last - first));
    begin = end + 1;
  }
  return patterns;
}

void CheckPatterns(const BackendFilter::Patterns& patterns) {
  for (const auto& pattern : patterns.patterns) {
    for (const char c : pattern) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '*' && c != '?') {
        throw Exception(ErrorCode::kInvalidArgument,
                        "backend id pattern '" + platform::Bounded(pattern, 80) + "' of " + patterns.source +
                            " has a character that is not a letter, a digit, '*' or '?'");
      }
    }
  }
}

BackendFilter::Patterns PatternsFrom(const std::vector<std::string>& option, const char* option_name,
                                     const char* variable) {
  if (!option.empty()) return {option, std::string("RuntimeOptions::") + option_name};
  const auto value = platform::SecureGetEnv(variable);
  if (!value) return {{}, variable};
  return {SplitPatterns(*value), variable};
}

}  // namespace

bool MatchesIdPattern(std::string_view pattern, std::string_view id) {
  // Iterative glob matching with one backtrack point (the last '*'): linear in practice.
  std::size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < id.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == id[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

BackendFilter::BackendFilter(Patterns select, Patterns disable, const std::map<BackendId, std::string>& versions)
    : select_(std::move(select)), disable_(std::move(disable)) {
  CheckPatterns(select_);
  CheckPatterns(disable_);
  for (const auto& [id, text] : versions) {
    std::string why;
    auto range = VersionRange::Parse(text, why);
    if (!range) {
      throw Exception(ErrorCode::kInvalidArgument,
                      "the version range pinned for backend " + id.Get() + " (RuntimeOptions::backend_versions) " +
                          "is not valid: " + why);
    }
    versions_.emplace(id.Get(), std::move(*range));
  }
}

BackendFilter BackendFilter::FromOptions(const RuntimeOptions& options) {
  return BackendFilter(PatternsFrom(options.select_backends, "select_backends", kSelectBackendsEnvVar),
                       PatternsFrom(options.disable_backends, "disable_backends", kDisableBackendsEnvVar),
                       options.backend_versions);
}

std::string BackendFilter::IdRefusal(const std::string& id) const {
  for (const auto& pattern : disable_.patterns) {
    if (MatchesIdPattern(pattern, id)) {
      return "backend " + id + " is disabled by pattern '" + pattern + "' of " + disable_.source;
    }
  }
  if (select_.patterns.empty()) return {};
  for (const auto& pattern : select_.patterns) {
    if (MatchesIdPattern(pattern, id)) return {};
  }
  return "backend " + id + " is not selected (" + select_.source + ": " + Joined(select_.patterns) + ")";
}

std::string BackendFilter::VersionRefusal(const std::string& id, const std::string& version) const {
  const auto range = versions_.find(id);
  if (range == versions_.end()) return {};
  const auto parsed = ParseSemver(version);
  if (parsed && range->second.Contains(*parsed)) return {};
  return id + " " + platform::Bounded(version, 80) + " is outside the version range '" + range->second.Text() +
         "' pinned for it (RuntimeOptions::backend_versions)";
}

}  // namespace backplane::discovery
