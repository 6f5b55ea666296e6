// Sets (or removes) one environment variable for the lifetime of an object and restores the
// previous value afterwards, so a test cannot leak its environment into the next one.
#pragma once

#include <optional>
#include <string>

namespace backplane::unit {

// Not thread-safe (nor is the process environment): use from the test's own thread only.
class ScopedEnvironmentVariable {
 public:
  // `value` empty-optional: the variable is removed for the object's lifetime.
  ScopedEnvironmentVariable(std::string name, std::optional<std::string> value);
  ~ScopedEnvironmentVariable();
  ScopedEnvironmentVariable(const ScopedEnvironmentVariable&) = delete;
  ScopedEnvironmentVariable& operator=(const ScopedEnvironmentVariable&) = delete;

 private:
  std::string name_;
  std::optional<std::string> previous_;
};

// Whether the runtime reads its environment variables in this process: not in a set-uid one, nor
// in an elevated one on Windows (Wine runs every program elevated). Asked of the runtime itself
// (ResolveBackendSearchPaths with BACKPLANE_BACKEND_PATHS set), so the rule has one owner.
// Tests of an environment variable check that it is ignored where this is false.
bool EnvironmentHonoured();

}  // namespace backplane::unit
