// Writing files and folders with the modes sdk-plugin promises, and turning file-system errors
// into the tool's exit codes.
#pragma once

#include "exit_code.hpp"

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

namespace backplane::sdk_plugin {

namespace fs = std::filesystem;

// A ToolError for a failed file-system operation: kPermissionDenied when the system refused
// access (EACCES, EPERM), `otherwise` for anything else. The message is `what` followed by the
// system's text.
ToolError FileSystemError(const std::string& what, const std::error_code& error, ExitCode otherwise);

// A regular file being created. The constructor creates `path` exclusively (it fails when
// anything is there already, a symlink included) and gives it `permissions` before a byte is
// written, so a private key is never readable by others. The destructor closes the file and,
// unless Close() succeeded, removes it. Not copyable; not thread-safe.
class NewFile {
 public:
  // Throws ToolError: kCannotCreate (exists, or cannot be made), kPermissionDenied.
  NewFile(fs::path path, fs::perms permissions);
  ~NewFile();
  NewFile(const NewFile&) = delete;
  NewFile& operator=(const NewFile&) = delete;

  // Throws ToolError (kCannotCreate) when the bytes cannot be written (disk full).
  void Write(const void* data, std::size_t size);
  // Flushes and closes; throws ToolError (kCannotCreate) when that fails.
  void Close();

 private:
  fs::path path_;
  std::FILE* file_ = nullptr;
  bool closed_ = false;
};

// Creates `path` with `bytes` and `permissions`; fails (kCannotCreate) when it exists.
void WriteNewFile(const fs::path& path, std::string_view bytes, fs::perms permissions);

// Writes `bytes` to a hidden temporary file beside `path`, gives it `permissions`, and renames it
// over `path`: readers see the old file or the new one, never half of one.
void ReplaceFile(const fs::path& path, std::string_view bytes, fs::perms permissions);

// Creates `folder` and its missing parents; a folder this creates gets mode 0755. Nothing
// happens when it exists as a folder. Throws ToolError (kCannotCreate, kPermissionDenied).
void CreateFolder(const fs::path& folder);

// 16 random hex digits, for hidden working names (.staging-<random>). Thread-safe.
std::string RandomSuffix();

// The mode of installed files: 0644, and 0755 for libraries and folders.
inline constexpr fs::perms kFileMode = fs::perms::owner_read | fs::perms::owner_write |
                                       fs::perms::group_read | fs::perms::others_read;
inline constexpr fs::perms kExecutableMode = kFileMode | fs::perms::owner_exec | fs::perms::group_exec |
                                             fs::perms::others_exec;
inline constexpr fs::perms kPrivateMode = fs::perms::owner_read | fs::perms::owner_write;

}  // namespace backplane::sdk_plugin
