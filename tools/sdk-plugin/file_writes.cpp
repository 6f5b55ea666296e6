#include "file_writes.hpp"

#include <backplane/path_text.hpp>

#include <cerrno>
#include <random>
#include <sstream>

#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#endif

namespace backplane::sdk_plugin {

ToolError FileSystemError(const std::string& what, const std::error_code& error, ExitCode otherwise) {
  const bool refused = error == std::errc::permission_denied || error == std::errc::operation_not_permitted;
  return ToolError(refused ? ExitCode::kPermissionDenied : otherwise, what + ": " + error.message());
}

namespace {

// Creates `path` exclusively, never opening what is already there (nor following a symlink);
// nullptr with errno set when it cannot.
std::FILE* CreateExclusively(const fs::path& path) {
  errno = 0;
#if defined(_WIN32)
  // msvcrt's fopen has no "x"; _O_EXCL is the same promise.
  const int descriptor = ::_wopen(path.c_str(), _O_CREAT | _O_EXCL | _O_WRONLY | _O_BINARY, _S_IREAD | _S_IWRITE);
  if (descriptor < 0) return nullptr;
  std::FILE* file = ::_fdopen(descriptor, "wb");
  if (file == nullptr) ::_close(descriptor);
  return file;
#else
  return std::fopen(path.c_str(), "wbx");  // C11's "x"
#endif
}

}  // namespace

NewFile::NewFile(fs::path path, fs::perms permissions) : path_(std::move(path)) {
  file_ = CreateExclusively(path_);
  if (file_ == nullptr) {
    const int error = errno;
    if (error == EEXIST) throw ToolError(ExitCode::kCannotCreate, PathToUtf8(path_) + " already exists");
    throw FileSystemError("cannot create " + PathToUtf8(path_), std::error_code(error, std::generic_category()),
                          ExitCode::kCannotCreate);
  }
  std::error_code error;
  fs::permissions(path_, permissions, fs::perm_options::replace, error);
  if (error) {
    std::fclose(file_);
    file_ = nullptr;
    fs::remove(path_, error);
    throw FileSystemError("cannot set the mode of " + PathToUtf8(path_), error, ExitCode::kCannotCreate);
  }
}

NewFile::~NewFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!closed_) {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
}

void NewFile::Write(const void* data, std::size_t size) {
  if (size == 0) return;
  if (std::fwrite(data, 1, size, file_) != size) {
    throw ToolError(ExitCode::kCannotCreate, "cannot write " + PathToUtf8(path_) + " (is the disk full?)");
  }
}

void NewFile::Close() {
  const bool flushed = std::fflush(file_) == 0;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) {
    throw ToolError(ExitCode::kCannotCreate, "cannot write " + PathToUtf8(path_) + " (is the disk full?)");
  }
  closed_ = true;
}

void WriteNewFile(const fs::path& path, std::string_view bytes, fs::perms permissions) {
  NewFile file(path, permissions);
  file.Write(bytes.data(), bytes.size());
  file.Close();
}

void ReplaceFile(const fs::path& path, std::string_view bytes, fs::perms permissions) {
  const fs::path temporary =
      path.parent_path() / PathFromUtf8("." + PathToUtf8(path.filename()) + ".tmp-" + RandomSuffix());
  WriteNewFile(temporary, bytes, permissions);
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw FileSystemError("cannot write " + PathToUtf8(path), error, ExitCode::kCannotCreate);
  }
}

void CreateFolder(const fs::path& folder) {
  std::error_code error;
  if (fs::is_directory(folder, error)) return;
  // Parents first, so that each folder made here can be given its mode.
  if (folder.has_parent_path() && folder.parent_path() != folder) CreateFolder(folder.parent_path());
  if (fs::create_directory(folder, error)) {
    fs::permissions(folder, kExecutableMode, fs::perm_options::replace, error);
  }
  if (error) throw FileSystemError("cannot create the folder " + PathToUtf8(folder), error, ExitCode::kCannotCreate);
  if (!fs::is_directory(folder, error)) {
    throw ToolError(ExitCode::kCannotCreate, PathToUtf8(folder) + " exists and is not a folder");
  }
}

std::string RandomSuffix() {
  thread_local std::mt19937_64 generator{std::random_device{}()};
  std::ostringstream text;
  text << std::hex;
  text.width(16);
  text.fill('0');
  text << generator();
  return text.str();
}

}  // namespace backplane::sdk_plugin
