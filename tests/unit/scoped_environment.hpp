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

}  // namespace backplane::unit
