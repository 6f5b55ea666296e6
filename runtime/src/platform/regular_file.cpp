#include "platform/regular_file.hpp"

#include <system_error>
#include <utility>

#if defined(_WIN32)
#include "platform/windows_api.hpp"
#include "platform/windows_text.hpp"
#else
#include <array>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <link.h>
#include <sys/mman.h>
#endif
#endif

namespace backplane::platform {

namespace {

#if !defined(_WIN32)
std::string ErrorText(int code) { return std::generic_category().message(code); }

// What a non-regular file is, for messages.
const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "is a folder";
  if (S_ISFIFO(mode)) return "is a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "is a character device";
  if (S_ISBLK(mode)) return "is a block device";
  if (S_ISSOCK(mode)) return "is a socket";
  return "is not a regular file";
}
#endif

}  // namespace

#if defined(_WIN32)

std::optional<RegularFile> RegularFile::Open(const std::filesystem::path& path,
                                             OpenFailure& failure, std::string& why) {
  // FILE_FLAG_BACKUP_SEMANTICS lets a folder be opened too, so it is reported as a folder.
  // Shared for reading only: while the handle is open nobody may write, rename or delete the
  // file (what Pin relies on), and it does not open while someone holds it open for writing.
  HANDLE handle = ::CreateFileW(ExtendedLengthPath(path).c_str(), GENERIC_READ, FILE_SHARE_READ,
                                nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (handle == INVALID_HANDLE_VALUE) {
    const DWORD error = ::GetLastError();
    const bool missing = error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND;
    failure = error == ERROR_CANT_RESOLVE_FILENAME ? OpenFailure::kSymlinkLoop
              : missing                            ? OpenFailure::kMissing
                                                   : OpenFailure::kUnreadable;
    why = "cannot be opened: " + std::system_category().message(static_cast<int>(error));
    return std::nullopt;
  }
  RegularFile file;
  file.handle_ = handle;
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileType(handle) != FILE_TYPE_DISK || !::GetFileInformationByHandle(handle, &info)) {
    failure = OpenFailure::kNotRegular;
    why = "is not a regular file (a pipe or a device)";
    return std::nullopt;
  }
  if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
    failure = OpenFailure::kNotRegular;
    why = "is a folder";
    return std::nullopt;
  }
  file.size_ = (static_cast<std::uint64_t>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
  file.identity_ = {info.dwVolumeSerialNumber,
                    (static_cast<std::uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow};
  return std::optional<RegularFile>(std::move(file));
}

void RegularFile::Close() noexcept {
  if (handle_ != nullptr) ::CloseHandle(static_cast<HANDLE>(handle_));
  handle_ = nullptr;
}

RegularFile::RegularFile(RegularFile&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), size_(other.size_), identity_(other.identity_) {}

RegularFile& RegularFile::operator=(RegularFile&& other) noexcept {
  if (this != &other) {
    Close();
    handle_ = std::exchange(other.handle_, nullptr);
    size_ = other.size_;
    identity_ = other.identity_;
  }
  return *this;
}

std::optional<std::size_t> RegularFile::ReadAt(std::uint64_t offset, void* buffer,
                                               std::size_t count, std::string& why) const {
  std::size_t total = 0;
  while (total < count) {
    OVERLAPPED position{};
    const std::uint64_t at = offset + total;
    position.Offset = static_cast<DWORD>(at & 0xFFFFFFFFu);
    position.OffsetHigh = static_cast<DWORD>(at >> 32);
    const std::size_t left = count - total;
    const DWORD chunk = left > 0x40000000u ? 0x40000000u : static_cast<DWORD>(left);
    DWORD read = 0;
    if (!::ReadFile(static_cast<HANDLE>(handle_), static_cast<char*>(buffer) + total, chunk, &read,
                    &position)) {
      const DWORD error = ::GetLastError();
      if (error == ERROR_HANDLE_EOF) break;
      why = "cannot be read: " + std::system_category().message(static_cast<int>(error));
      return std::nullopt;
    }
    if (read == 0) break;
    total += read;
  }
  return total;
}

std::optional<PinnedImage> RegularFile::Pin(const std::filesystem::path& name, std::uint64_t /*max_bytes*/,
                                            std::string& why) const {
  HANDLE process = ::GetCurrentProcess();
  HANDLE copy = nullptr;
  if (!::DuplicateHandle(process, static_cast<HANDLE>(handle_), process, &copy, 0, FALSE, DUPLICATE_SAME_ACCESS)) {
    why = "cannot be held open: " + std::system_category().message(static_cast<int>(::GetLastError()));
    return std::nullopt;
  }
  RegularFile file;
  file.handle_ = copy;
  file.size_ = size_;
  file.identity_ = identity_;
  return PinnedImage{std::move(file), name};
}

std::optional<FileIdentity> IdentityOf(const std::filesystem::path& path) {
  HANDLE handle = ::CreateFileW(ExtendedLengthPath(path).c_str(), 0,
                                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                                FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (handle == INVALID_HANDLE_VALUE) return std::nullopt;
  BY_HANDLE_FILE_INFORMATION info{};
  const bool ok = ::GetFileInformationByHandle(handle, &info) != 0;
  ::CloseHandle(handle);
  if (!ok) return std::nullopt;
  return FileIdentity{info.dwVolumeSerialNumber,
                      (static_cast<std::uint64_t>(info.nFileIndexHigh) << 32) | info.nFileIndexLow};
}

std::string NameKey(const std::filesystem::path& path) {
  std::wstring name = std::filesystem::path(path).make_preferred().native();
  if (!name.empty()) {
    // Same length in and out: LCMAP_UPPERCASE maps each UTF-16 unit to one.
    ::LCMapStringEx(LOCALE_NAME_INVARIANT, LCMAP_UPPERCASE, name.data(), static_cast<int>(name.size()),
                    name.data(), static_cast<int>(name.size()), nullptr, nullptr, 0);
  }
  return Utf8FromWide(name);
}

#else  // POSIX

std::optional<RegularFile> RegularFile::Open(const std::filesystem::path& path,
                                             OpenFailure& failure, std::string& why) {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one, and
  // a device is not waited on. O_NOCTTY: a terminal never becomes our controlling terminal.
  // The handle is checked with fstat below and closed unless it is a regular file, so nothing
  // is ever read from anything else; for a regular file O_NONBLOCK has no effect on reads.
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    const int error = errno;
    failure = error == ELOOP                       ? OpenFailure::kSymlinkLoop
              : error == ENOENT || error == ENOTDIR ? OpenFailure::kMissing
                                                    : OpenFailure::kUnreadable;
    why = error == ELOOP ? "is a symlink loop" : "cannot be opened: " + ErrorText(error);
    return std::nullopt;
  }
  RegularFile file;
  file.fd_ = fd;
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    failure = OpenFailure::kUnreadable;
    why = "cannot be inspected: " + ErrorText(errno);
    return std::nullopt;
  }
  if (!S_ISREG(status.st_mode)) {
    failure = OpenFailure::kNotRegular;
    why = KindOf(status.st_mode);
    return std::nullopt;
  }
  file.size_ = static_cast<std::uint64_t>(status.st_size);
  file.identity_ = {static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino)};
  return std::optional<RegularFile>(std::move(file));
}

void RegularFile::Close() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

RegularFile::RegularFile(RegularFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_), identity_(other.identity_) {}

RegularFile& RegularFile::operator=(RegularFile&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    identity_ = other.identity_;
  }
  return *this;
}

std::optional<std::size_t> RegularFile::ReadAt(std::uint64_t offset, void* buffer,
                                               std::size_t count, std::string& why) const {
  std::size_t total = 0;
  while (total < count) {
    const ssize_t read = ::pread(fd_, static_cast<char*>(buffer) + total, count - total,
                                 static_cast<off_t>(offset + total));
    if (read < 0) {
      if (errno == EINTR) continue;
      why = "cannot be read: " + ErrorText(errno);
      return std::nullopt;
    }
    if (read == 0) break;
    total += static_cast<std::size_t>(read);
  }
  return total;
}

#if defined(__linux__)
namespace {

// Whether the loader holds an object under the name `name` (it returns such an object for a
// dlopen of that name instead of opening the file).
bool IsLoadedLibraryName(const std::string& name) {
  struct Search {
    const std::string* name;
    bool found;
  } search{&name, false};
  ::dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* wanted = static_cast<Search*>(data);
        if (info->dlpi_name != nullptr && *wanted->name == info->dlpi_name) wanted->found = true;
        return wanted->found ? 1 : 0;
      },
      &search);
  return search.found;
}

std::string FdPath(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

// Moves `fd` to a descriptor whose /proc/self/fd name no loaded library has (a library loaded
// from an earlier copy, closed since, keeps its name while the loader keeps it). Returns the
// descriptor (`fd` or a new one; the other is closed), or -1 with errno.
int UnusedLoaderName(int fd) {
  int lowest = fd + 1;
  while (IsLoadedLibraryName(FdPath(fd))) {
    const int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, lowest);
    const int error = errno;
    ::close(fd);
    if (moved < 0) {
      errno = error;
      return -1;
    }
    fd = moved;
    lowest = fd + 1;
  }
  return fd;
}

}  // namespace

std::optional<PinnedImage> RegularFile::Pin(const std::filesystem::path& /*name*/, std::uint64_t max_bytes,
                                            std::string& why) const {
  RegularFile copy;
  copy.fd_ = ::memfd_create("backplane-verified-library", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (copy.fd_ < 0) {
    why = "cannot be copied into a sealed memfd: memfd_create: " + ErrorText(errno);
    return std::nullopt;
  }
  std::array<char, 1 << 16> chunk;
  std::uint64_t offset = 0;
  for (;;) {
    const auto count = ReadAt(offset, chunk.data(), chunk.size(), why);
    if (!count) return std::nullopt;
    if (*count == 0) break;
    if (offset + *count > max_bytes) {
      why = "is larger than " + std::to_string(max_bytes) + " bytes, the most a library may have under this policy";
      return std::nullopt;
    }
    for (std::size_t written = 0; written < *count;) {
      const ssize_t result = ::write(copy.fd_, chunk.data() + written, *count - written);
      if (result < 0 && errno == EINTR) continue;
      if (result <= 0) {
        why = "cannot be copied into a sealed memfd: " + ErrorText(result < 0 ? errno : ENOSPC);
        return std::nullopt;
      }
      written += static_cast<std::size_t>(result);
    }
    offset += *count;
  }
  constexpr int kSeals = F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL;
  struct stat status {};
  if (::fcntl(copy.fd_, F_ADD_SEALS, kSeals) != 0 || ::fstat(copy.fd_, &status) != 0) {
    why = "cannot be sealed in a memfd: " + ErrorText(errno);
    return std::nullopt;
  }
  copy.fd_ = UnusedLoaderName(copy.fd_);
  if (copy.fd_ < 0) {
    why = "cannot be given a descriptor for the loader: " + ErrorText(errno);
    return std::nullopt;
  }
  copy.size_ = static_cast<std::uint64_t>(status.st_size);
  copy.identity_ = {static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino)};
  std::string loader_path = FdPath(copy.fd_);
  return PinnedImage{std::move(copy), std::move(loader_path)};
}
#else
std::optional<PinnedImage> RegularFile::Pin(const std::filesystem::path& /*name*/, std::uint64_t /*max_bytes*/,
                                            std::string& why) const {
  why = "cannot be pinned for the loader on this platform (no sealed memfd)";
  return std::nullopt;
}
#endif

std::optional<FileIdentity> IdentityOf(const std::filesystem::path& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return std::nullopt;
  return FileIdentity{static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino)};
}

std::string NameKey(const std::filesystem::path& path) { return path.native(); }

#endif

RegularFile::~RegularFile() { Close(); }

}  // namespace backplane::platform
