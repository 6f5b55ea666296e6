#include "platform/environment.hpp"

#include <doctest/doctest.h>

#include <cstdlib>

namespace backplane::platform {

TEST_CASE("environment: SecureGetEnv reads set variables and reports unset ones") {
#if !defined(_WIN32)
  ::setenv("BACKPLANE_ENVIRONMENT_TEST", "/some/folder", 1);
  CHECK(SecureGetEnv("BACKPLANE_ENVIRONMENT_TEST") == std::optional<std::string>("/some/folder"));
  ::unsetenv("BACKPLANE_ENVIRONMENT_TEST");
#endif
  CHECK_FALSE(SecureGetEnv("BACKPLANE_ENVIRONMENT_TEST").has_value());
}

TEST_CASE("environment: platform constants") {
#if defined(_WIN32)
  CHECK(PathListSeparator() == ';');
  CHECK(std::string(SharedLibrarySuffix()) == ".dll");
#elif defined(__APPLE__)
  CHECK(PathListSeparator() == ':');
  CHECK(std::string(SharedLibrarySuffix()) == ".dylib");
#else
  CHECK(PathListSeparator() == ':');
  CHECK(std::string(SharedLibrarySuffix()) == ".so");
#endif
}

}  // namespace backplane::platform
