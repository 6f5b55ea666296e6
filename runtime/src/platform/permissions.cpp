#include "platform/permissions.hpp"

#include <optional>
#include <system_error>

#if defined(_WIN32)
#include "platform/windows_api.hpp"
#include "platform/windows_text.hpp"

#include <aclapi.h>
#else
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace backplane::platform {

#if defined(_WIN32)

namespace {

// The groups that stand for every user of the machine: Everyone, Authenticated Users,
// BUILTIN\Users, and whoever logs on interactively.
bool IsEveryUser(PSID sid) {
  for (const WELL_KNOWN_SID_TYPE type : {WinWorldSid, WinAuthenticatedUserSid, WinBuiltinUsersSid, WinInteractiveSid}) {
    BYTE known[SECURITY_MAX_SID_SIZE];
    DWORD size = sizeof(known);
    if (::CreateWellKnownSid(type, nullptr, known, &size) && ::EqualSid(sid, known)) return true;
  }
  return false;
}

// The rights that let a user change a file or what a folder holds, as POSIX o+w does: write or
// append data (in a folder: add files or subfolders), delete what a folder holds, change the
// ACL or the owner, and the generic rights that include them.
constexpr ACCESS_MASK kChangeRights = FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_DELETE_CHILD | WRITE_DAC |
                                      WRITE_OWNER | GENERIC_WRITE | GENERIC_ALL;

}  // namespace

bool IsWritableByOthers(const std::filesystem::path& path) noexcept {
  // The DACL, read in order as Windows does: a right denied to every user before it is allowed
  // stays denied. A NULL DACL grants everyone everything.
  PACL dacl = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  std::wstring name;
  try {
    name = ExtendedLengthPath(path);
  } catch (...) {
    return false;
  }
  if (::GetNamedSecurityInfoW(name.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr, &dacl,
                              nullptr, &descriptor) != ERROR_SUCCESS) {
    return false;
  }
  bool writable = dacl == nullptr;
  ACCESS_MASK denied = 0;
  for (DWORD i = 0; dacl && !writable && i < dacl->AceCount; ++i) {
    void* entry = nullptr;
    if (!::GetAce(dacl, i, &entry)) break;
    const auto* header = static_cast<const ACE_HEADER*>(entry);
    if (header->AceFlags & INHERIT_ONLY_ACE) continue;  // for what the folder will hold, not itself
    if (header->AceType == ACCESS_DENIED_ACE_TYPE) {
      auto* ace = static_cast<ACCESS_DENIED_ACE*>(entry);
      if (IsEveryUser(&ace->SidStart)) denied |= ace->Mask;
    } else if (header->AceType == ACCESS_ALLOWED_ACE_TYPE) {
      auto* ace = static_cast<ACCESS_ALLOWED_ACE*>(entry);
      writable = IsEveryUser(&ace->SidStart) && (ace->Mask & kChangeRights & ~denied) != 0;
    }
  }
  ::LocalFree(descriptor);
  return writable;
}

#else

bool IsWritableByOthers(const std::filesystem::path& path) noexcept {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) return false;
  return (status.permissions() & fs::perms::others_write) != fs::perms::none;
}

namespace {

// The owner of `path` (not following a last symlink), or nullopt when it cannot be read.
std::optional<uid_t> OwnerOf(const std::filesystem::path& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return std::nullopt;
  return status.st_uid;
}

bool IsOwnedByRootOrUser(const std::filesystem::path& path) {
  const std::optional<uid_t> owner = OwnerOf(path);
  return owner && (*owner == 0 || *owner == ::geteuid());
}

// Whether every user may rename or delete `entry`, an entry of `folder`.
bool OthersMayReplaceEntry(const std::filesystem::path& folder, const std::filesystem::path& entry) {
  struct stat status {};
  if (::stat(folder.c_str(), &status) != 0 || (status.st_mode & S_IWOTH) == 0) return false;
  return (status.st_mode & S_ISVTX) == 0 || !IsOwnedByRootOrUser(entry);
}

}  // namespace

#endif

std::filesystem::path ReplaceableByOthersAt(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path resolved = fs::canonical(path, error);
  if (error) return {};
  if (IsWritableByOthers(resolved)) return resolved;
#if !defined(_WIN32)
  for (fs::path entry = resolved, folder = resolved.parent_path(); folder != entry;
       entry = folder, folder = folder.parent_path()) {
    if (OthersMayReplaceEntry(folder, entry)) return folder;
    if (IsOwnedByRootOrUser(folder)) break;
  }
#endif
  return {};
}

}  // namespace backplane::platform
