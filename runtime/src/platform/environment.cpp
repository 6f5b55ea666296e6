#include "platform/environment.hpp"

#include <cstdlib>

#if defined(_WIN32)
#include <stdlib.h>
#elif defined(__GLIBC__)
#include <stdlib.h>  // secure_getenv
#else
#include <unistd.h>  // getuid, geteuid, getgid, getegid
#endif

namespace backplane::platform {

std::optional<std::string> SecureGetEnv(const char* name) {
#if defined(_WIN32)
  // Windows has no set-uid; an elevated process started from a user's shell inherits the
  // user's environment the same way, which is accepted practice there.
  char* value = nullptr;
  std::size_t length = 0;
  if (_dupenv_s(&value, &length, name) != 0 || value == nullptr) return std::nullopt;
  std::string result(value);
  std::free(value);
  return result;
#elif defined(__GLIBC__)
  const char* value = ::secure_getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
#else
  if (::getuid() != ::geteuid() || ::getgid() != ::getegid()) return std::nullopt;
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
#endif
}

char PathListSeparator() {
#if defined(_WIN32)
  return ';';
#else
  return ':';
#endif
}

std::filesystem::path UserBaseFolder(UserFolderKind kind) {
  namespace fs = std::filesystem;
#if defined(_WIN32)
  (void)kind;
  const auto base = SecureGetEnv("LOCALAPPDATA");
  if (!base || !fs::path(*base).is_absolute()) return {};
  return fs::path(*base);
#else
  struct Base {
    const char* variable;
    const char* under_home;
  };
  const Base base = kind == UserFolderKind::kCache  ? Base{"XDG_CACHE_HOME", ".cache"}
                    : kind == UserFolderKind::kData ? Base{"XDG_DATA_HOME", ".local/share"}
                                                    : Base{"XDG_CONFIG_HOME", ".config"};
  if (const auto xdg = SecureGetEnv(base.variable); xdg && fs::path(*xdg).is_absolute()) {
    return fs::path(*xdg);
  }
  const auto home = SecureGetEnv("HOME");
  if (!home || !fs::path(*home).is_absolute()) return {};
  return (fs::path(*home) / base.under_home).lexically_normal();
#endif
}

std::filesystem::path MachineDataFolder() {
#if defined(_WIN32)
  const auto base = SecureGetEnv("ProgramData");
  if (!base || !std::filesystem::path(*base).is_absolute()) return {};
  return std::filesystem::path(*base);
#else
  return {};
#endif
}

const char* SharedLibrarySuffix() {
#if defined(_WIN32)
  return ".dll";
#elif defined(__APPLE__)
  return ".dylib";
#else
  return ".so";
#endif
}

}  // namespace backplane::platform
