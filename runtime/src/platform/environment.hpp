// The one place for operating-system calls the standard library and Boost.DLL do not cover.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace backplane::platform {

// Whether this process must not be steered by its environment: a set-uid/set-gid process on
// POSIX (glibc's AT_SECURE), an elevated one on Windows (Wine runs every program elevated).
// Thread-safe.
bool EnvironmentIgnored();

// The value of environment variable `name` (UTF-8), or nullopt when unset or when
// EnvironmentIgnored(), so such a process cannot be made to load plugins from a folder chosen by
// whoever started it. Thread-safe as long as nobody calls setenv concurrently.
std::optional<std::string> SecureGetEnv(const char* name);

// ':' on POSIX, ';' on Windows: the separator of folder lists in environment variables.
char PathListSeparator();

// Shared-library file suffix of this platform: ".so", ".dll" or ".dylib".
const char* SharedLibrarySuffix();

// The current user's base folders, from the environment (SecureGetEnv: none in a set-uid
// process): kCache is $XDG_CACHE_HOME, else ~/.cache; kData is $XDG_DATA_HOME, else
// ~/.local/share; kConfig is $XDG_CONFIG_HOME, else ~/.config. On Windows all are the user's
// Local AppData folder, from the user's profile (also in an elevated process). A relative XDG value is ignored, as the XDG spec says. Empty when none can be
// found. Thread-safe as SecureGetEnv is.
enum class UserFolderKind { kCache, kData, kConfig };
std::filesystem::path UserBaseFolder(UserFolderKind kind);

// The machine-wide data folder for drops on Windows (ProgramData, from the system, not the
// environment); empty elsewhere.
std::filesystem::path MachineDataFolder();

}  // namespace backplane::platform
