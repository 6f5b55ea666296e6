// What the OS loader actually mapped for a library it opened: the check behind "the identity
// compared after opening is of the mapped object" (docs/backend-discovery.md §8).
#pragma once

#include "platform/regular_file.hpp"

#include <optional>

namespace backplane::platform {

// The identity of the file the loader mapped for the library whose native handle is `handle`
// (POSIX: dlopen's handle; Windows: the HMODULE). Linux: the file behind the mapping that holds
// the library's dynamic section, from /proc/self/maps (so a name re-pointed after the load does
// not matter); Windows: the file of the module's path, which the loader keeps from being
// written, renamed or deleted while it is loaded. nullopt where this cannot be told (no /proc,
// another platform). Never throws except std::bad_alloc. Thread-safe.
std::optional<FileIdentity> MappedFileIdentity(void* handle);

}  // namespace backplane::platform
