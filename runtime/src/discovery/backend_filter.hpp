// Which backend ids and plugin versions discovery considers: the application's or the user's
// select and disable patterns and version pins (RuntimeOptions::select_backends,
// disable_backends, backend_versions, or the BACKPLANE_BACKENDS_SELECT / _DISABLE variables).
// One owner for those rules and for how a refusal reads.
#pragma once

#include "discovery/semver.hpp"

#include <backplane/runtime_options.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace backplane::discovery {

// True when `id` matches `pattern` ('*' any run of characters, '?' exactly one; everything
// else literally, case-sensitive). Pure; thread-safe.
bool MatchesIdPattern(std::string_view pattern, std::string_view id);

// Immutable once made; thread-safe to read.
class BackendFilter {
 public:
  // Patterns with where they came from ("RuntimeOptions::select_backends" or
  // "BACKPLANE_BACKENDS_SELECT"), for the messages.
  struct Patterns {
    std::vector<std::string> patterns;
    std::string source;
  };

  // No filtering: every id and version is considered.
  BackendFilter() = default;
  // Throws Exception (kInvalidArgument) naming the pattern or range, its backend and its
  // source when a pattern has other characters than letters, digits, '*' and '?', or a range
  // does not parse (VersionRange::Parse).
  BackendFilter(Patterns select, Patterns disable, const std::map<BackendId, std::string>& versions);

  // The options' patterns, else those of the environment variables (read with SecureGetEnv,
  // comma-separated), and the options' version pins. Throws as the constructor does.
  static BackendFilter FromOptions(const RuntimeOptions& options);

  // "" when backend `id` is considered, else why not: "backend X is not selected
  // (BACKPLANE_BACKENDS_SELECT=Cpu*,Gpu*)" or "backend X is disabled by pattern 'X*' of
  // RuntimeOptions::disable_backends".
  std::string IdRefusal(const std::string& id) const;

  // "" when `version` of backend `id` may be registered (no pin for the id, or the version is
  // in its range), else why not: "CpuOneDnn 2.0.0 is outside the version range 0.1.x pinned
  // for it (RuntimeOptions::backend_versions)". A version that is not semver is outside every
  // range.
  std::string VersionRefusal(const std::string& id, const std::string& version) const;

 private:
  Patterns select_;
  Patterns disable_;
  std::map<std::string, VersionRange> versions_;
};

}  // namespace backplane::discovery
