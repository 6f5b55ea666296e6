#include "scoped_environment.hpp"

#include <backplane/runtime.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace backplane::unit {

namespace {

std::optional<std::string> Get(const std::string& name) {
  if (const char* value = std::getenv(name.c_str())) return std::string(value);
  return std::nullopt;
}

void Set(const std::string& name, const std::optional<std::string>& value) {
#if defined(_WIN32)
  // _putenv_s with an empty value removes the variable.
  const int result = _putenv_s(name.c_str(), value ? value->c_str() : "");
#else
  const int result = value ? setenv(name.c_str(), value->c_str(), 1) : unsetenv(name.c_str());
#endif
  if (result != 0) throw std::runtime_error("cannot set environment variable " + name);
}

}  // namespace

ScopedEnvironmentVariable::ScopedEnvironmentVariable(std::string name,
                                                     std::optional<std::string> value)
    : name_(std::move(name)), previous_(Get(name_)) {
  Set(name_, value);
}

ScopedEnvironmentVariable::~ScopedEnvironmentVariable() {
  try {
    Set(name_, previous_);
  } catch (...) {
    // Nothing sensible to do in a destructor; the next test sets what it needs.
  }
}

bool EnvironmentHonoured() {
  const ScopedEnvironmentVariable paths(kBackendPathsEnvVar, std::filesystem::temp_directory_path().string());
  const std::vector<SearchPath> resolved = ResolveBackendSearchPaths(RuntimeOptions{});
  return std::any_of(resolved.begin(), resolved.end(),
                     [](const SearchPath& path) { return path.source == "environment"; });
}

}  // namespace backplane::unit
