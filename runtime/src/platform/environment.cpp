#include "platform/environment.hpp"

#include <backplane/path_text.hpp>

#include <cstdlib>

#if defined(_WIN32)
#include "platform/windows_api.hpp"

#include <shlobj.h>  // SHGetKnownFolderPath

#include "platform/windows_text.hpp"
#elif defined(__GLIBC__)
#include <stdlib.h>     // secure_getenv
#include <sys/auxv.h>   // getauxval(AT_SECURE)
#else
#include <unistd.h>  // getuid, geteuid, getgid, getegid
#endif

namespace backplane::platform {

#if defined(_WIN32)
namespace {

// Whether this process runs elevated (as an administrator past UAC); true when that cannot be
// told, so a failure never lets the environment in.
bool ProcessIsElevated() {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token)) return true;
  TOKEN_ELEVATION elevation{};
  DWORD size = 0;
  const BOOL known =
      ::GetTokenInformation(token, TokenElevation, &elevation, sizeof elevation, &size);
  ::CloseHandle(token);
  return !known || elevation.TokenIsElevated != 0;
}

// The folder Windows knows as `id` (from the user's profile, not from the environment); empty
// when it has none.
std::filesystem::path KnownFolder(REFKNOWNFOLDERID id) {
  wchar_t* path = nullptr;
  std::filesystem::path folder;
  if (SUCCEEDED(::SHGetKnownFolderPath(id, KF_FLAG_DONT_VERIFY, nullptr, &path)) && path != nullptr) {
    folder = std::filesystem::path(path);
  }
  ::CoTaskMemFree(path);
  return folder.is_absolute() ? folder : std::filesystem::path();
}

}  // namespace
#endif

bool EnvironmentIgnored() {
#if defined(_WIN32)
  // Windows has no set-uid; its counterpart is an elevated process, which a user's shell can
  // start with the user's environment.
  return ProcessIsElevated();
#elif defined(__GLIBC__)
  return ::getauxval(AT_SECURE) != 0;  // what secure_getenv asks
#else
  return ::getuid() != ::geteuid() || ::getgid() != ::getegid();
#endif
}

std::optional<std::string> SecureGetEnv(const char* name) {
#if defined(_WIN32)
  // Read as UTF-16 and returned as UTF-8, whatever the process's code page.
  if (EnvironmentIgnored()) return std::nullopt;
  const std::wstring wide_name = WideFromUtf8(name);
  std::wstring value(64, L'\0');
  for (;;) {
    ::SetLastError(ERROR_SUCCESS);
    const DWORD length =
        ::GetEnvironmentVariableW(wide_name.c_str(), value.data(), static_cast<DWORD>(value.size()));
    if (length == 0) {
      if (::GetLastError() == ERROR_ENVVAR_NOT_FOUND) return std::nullopt;
      return std::string();
    }
    if (length < value.size()) {
      value.resize(length);
      return Utf8FromWide(value);
    }
    value.resize(length);  // the size it needs, terminator included
  }
#elif defined(__GLIBC__)
  const char* value = ::secure_getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
#else
  if (EnvironmentIgnored()) return std::nullopt;
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
  return KnownFolder(FOLDERID_LocalAppData);
#else
  struct Base {
    const char* variable;
    const char* under_home;
  };
  const Base base = kind == UserFolderKind::kCache  ? Base{"XDG_CACHE_HOME", ".cache"}
                    : kind == UserFolderKind::kData ? Base{"XDG_DATA_HOME", ".local/share"}
                                                    : Base{"XDG_CONFIG_HOME", ".config"};
  if (const auto xdg = SecureGetEnv(base.variable); xdg && PathFromUtf8(*xdg).is_absolute()) {
    return PathFromUtf8(*xdg);
  }
  const auto home = SecureGetEnv("HOME");
  if (!home || !PathFromUtf8(*home).is_absolute()) return {};
  return (PathFromUtf8(*home) / base.under_home).lexically_normal();
#endif
}

std::filesystem::path MachineDataFolder() {
#if defined(_WIN32)
  return KnownFolder(FOLDERID_ProgramData);
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
