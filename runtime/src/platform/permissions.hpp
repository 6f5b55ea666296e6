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

// Where someone else could replace what `path` leads to: `path` resolved (every symlink
// followed) when it is writable by every user (IsWritableByOthers), else the first folder above
// it, up to and including the first one owned by root or by the user running this process,
// that lets every user replace its entries (mode o+w; with the sticky bit only when the entry
// below it is not owned by root or that user), else empty. Empty too when `path` cannot be
// resolved (whoever reads it then finds nothing). Windows: only `path` resolved is checked
// (folder ownership is not read there). Never throws except std::bad_alloc.
std::filesystem::path ReplaceableByOthersAt(const std::filesystem::path& path);

}  // namespace backplane::platform
