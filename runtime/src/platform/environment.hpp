// The one place for operating-system calls the standard library and Boost.DLL do not cover.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace backplane::platform {

// The value of environment variable `name`, or nullopt when unset. Returns nullopt in a
// set-uid/set-gid process (secure_getenv semantics), so such a process cannot be made to load
// plugins from a folder chosen by whoever started it. Thread-safe as long as nobody calls
// setenv concurrently.
std::optional<std::string> SecureGetEnv(const char* name);

// ':' on POSIX, ';' on Windows: the separator of folder lists in environment variables.
char PathListSeparator();

// Shared-library file suffix of this platform: ".so", ".dll" or ".dylib".
const char* SharedLibrarySuffix();

// The current user's base folders, from the environment (SecureGetEnv: none in a set-uid
// process): kCache is $XDG_CACHE_HOME, else ~/.cache; kData is $XDG_DATA_HOME, else
// ~/.local/share; kConfig is $XDG_CONFIG_HOME, else ~/.config; on Windows all are
// %LOCALAPPDATA%. A relative XDG value is ignored, as the XDG spec says. Empty when none can be
// found. Thread-safe as SecureGetEnv is.
enum class UserFolderKind { kCache, kData, kConfig };
std::filesystem::path UserBaseFolder(UserFolderKind kind);

// The machine-wide data folder for drops on Windows (%ProgramData%); empty elsewhere and when
// unset.
std::filesystem::path MachineDataFolder();

}  // namespace backplane::platform
