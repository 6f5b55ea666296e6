// Who may change a file: the check behind "a drop writable by other users is not trusted"
// (docs/backend-discovery.md §8), as ssh does for its keys.
#pragma once

#include <filesystem>

namespace backplane::platform {

// True when `path` (following symlinks) is writable by every user. POSIX: mode o+w (a sticky
// folder such as /tmp too, since anyone may add files to it). Windows: its DACL lets Everyone,
// Authenticated Users, BUILTIN\Users or Interactive write or append data (add files, in a
// folder), delete a folder's files, or change the ACL or owner, or it has no DACL at all. False
// when it cannot be inspected. Never throws.
bool IsWritableByOthers(const std::filesystem::path& path) noexcept;

}  // namespace backplane::platform
