// An open handle on a regular file, checked on the handle itself (not on the name), for the
// files discovery reads, hashes or hands to the OS loader: manifests and plugin libraries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace backplane::platform {

// Which file a handle or name refers to (POSIX st_dev + st_ino; Windows volume serial number +
// file index). Equal identities mean the same file, whatever name reached it.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t file = 0;
  bool operator==(const FileIdentity& other) const {
    return device == other.device && file == other.file;
  }
  bool operator!=(const FileIdentity& other) const { return !(*this == other); }
  bool operator<(const FileIdentity& other) const {
    return device != other.device ? device < other.device : file < other.file;
  }
};

// Why a file could not be opened as a regular file.
enum class OpenFailure {
  kMissing,      // nothing there (or a symlink that resolves to nothing)
  kSymlinkLoop,  // symlinks that lead to each other
  kNotRegular,   // a folder, FIFO, socket, device, ...: `why` says which
  kUnreadable,   // there, but the OS refused to open it (permissions, too many open files, ...)
};

class RegularFile;

// A library's bytes in a form nobody can change while `file` is open, and the name the OS
// loader is to open them by: what the trust policy require maps (docs/backend-discovery.md §8).
// Move-only, through `file`.
struct PinnedImage;

// Owns one OS file handle, opened read-only. Move-only; closes in the destructor. One object
// must not be used from two threads at once (reads carry their own offset, so two objects on
// the same file are independent).
class RegularFile {
 public:
  // Opens `path` (following symlinks) without ever blocking: POSIX opens with O_NONBLOCK (a
  // FIFO with no writer or a device would otherwise block in open or read), then fstat()s the
  // HANDLE, so what is checked is what was opened, not whatever the name points to a moment
  // later. Returns the file, or nullopt with `failure` and `why` set ("is a FIFO (named pipe)",
  // "is a folder", "cannot be opened: Permission denied"); `why` does not repeat the path.
  // Never throws except std::bad_alloc.
  static std::optional<RegularFile> Open(const std::filesystem::path& path, OpenFailure& failure,
                                         std::string& why);

  RegularFile(RegularFile&& other) noexcept;
  RegularFile& operator=(RegularFile&& other) noexcept;
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  ~RegularFile();

  // The size the handle had when it was opened (bytes).
  std::uint64_t Size() const { return size_; }
  FileIdentity Identity() const { return identity_; }

  // The bytes of this file, pinned for the OS loader (PinnedImage), read through this handle:
  // - Linux: copied into a new memfd sealed against every change (F_SEAL_WRITE, F_SEAL_GROW,
  //   F_SEAL_SHRINK, F_SEAL_SEAL), so not even its owner can change it; `loader_path` is
  //   /proc/self/fd/N, with an N that names no library the loader holds (it matches by name).
  //   At most `max_bytes` are copied (a file that grows while it is copied cannot take memory
  //   without bound); the copy lives in memory until `file` is closed.
  // - Windows: this same file, on a second handle: Open shares it for reading only, so while a
  //   handle is open nobody can write, rename or delete it (or rename a folder above it);
  //   `loader_path` is `name`, the name it was opened by.
  // - elsewhere: nullopt (no way to pin bytes for the loader).
  // Returns nullopt with `why` ("is larger than ...", "cannot be copied into a sealed memfd: ...")
  // when it cannot. Never throws except std::bad_alloc. Not thread-safe on one object.
  std::optional<PinnedImage> Pin(const std::filesystem::path& name, std::uint64_t max_bytes,
                                 std::string& why) const;

  // Reads up to `count` bytes at `offset` into `buffer`; returns how many were read (fewer at
  // the end of the file, 0 past it). Returns nullopt with `why` on an I/O error. Does not move
  // any shared file position.
  std::optional<std::size_t> ReadAt(std::uint64_t offset, void* buffer, std::size_t count,
                                    std::string& why) const;

 private:
  RegularFile() = default;
  void Close() noexcept;

#if defined(_WIN32)
  void* handle_ = nullptr;  // HANDLE; INVALID_HANDLE_VALUE is never stored
#else
  int fd_ = -1;
#endif
  std::uint64_t size_ = 0;
  FileIdentity identity_;
};

struct PinnedImage {
  RegularFile file;                   // what is hashed and checked; open until the load is done
  std::filesystem::path loader_path;  // what the OS loader opens: names `file` while it is open
};

// The identity of the file `path` names now (following symlinks), or nullopt when it names
// nothing that can be inspected. Does not open the file (no blocking on FIFOs). Never throws
// except std::bad_alloc.
std::optional<FileIdentity> IdentityOf(const std::filesystem::path& path);

// Whether this platform's file names ignore letter case (Windows: NTFS, and Wine's view of a
// POSIX file system), the rule NameKey follows.
#if defined(_WIN32)
inline constexpr bool kFileNamesIgnoreCase = true;
#else
inline constexpr bool kFileNamesIgnoreCase = false;
#endif

// A key under which two names that the file system takes for one name compare equal, without
// touching the disk: on Windows the name with '\\' separators, upper-cased as NTFS compares names
// (ordinal, case-insensitive: "C:/Plugins/a.DLL" and "c:\\plugins\\A.dll" have one key); elsewhere
// the name's bytes. For names of files that may not exist; for files that do, IdentityOf is exact
// (hard links, symlinks, 8.3 short names, another path to the same volume). Never throws except
// std::bad_alloc.
std::string NameKey(const std::filesystem::path& path);

}  // namespace backplane::platform
