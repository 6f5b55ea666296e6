// The one place for operating-system calls the standard library and Boost.DLL do not cover.
#pragma once

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

}  // namespace backplane::platform
