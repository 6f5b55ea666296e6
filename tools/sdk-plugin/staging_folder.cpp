#include "staging_folder.hpp"

#include "exit_code.hpp"
#include "file_writes.hpp"

#include <backplane/folder_entries.hpp>
#include <backplane/path_text.hpp>

namespace backplane::sdk_plugin {

namespace {

bool StartsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

StagingFolder::StagingFolder(const fs::path& parent) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path candidate = parent / PathFromUtf8(kStagingPrefix + RandomSuffix());
    std::error_code error;
    if (fs::create_directory(candidate, error)) {
      fs::permissions(candidate, kExecutableMode, fs::perm_options::replace, error);
      path_ = candidate;
      if (error) {
        RemoveFolder(path_, error);
        throw FileSystemError("cannot set the mode of " + PathToUtf8(candidate), error, ExitCode::kCannotCreate);
      }
      return;
    }
    if (error) throw FileSystemError("cannot create a staging folder in " + PathToUtf8(parent), error,
                                     ExitCode::kCannotCreate);
  }
  throw ToolError(ExitCode::kCannotCreate, "cannot create a staging folder in " + PathToUtf8(parent));
}

StagingFolder::~StagingFolder() {
  if (moved_ || path_.empty()) return;
  std::error_code ignored;
  RemoveFolder(path_, ignored);
}

void StagingFolder::MoveTo(const fs::path& destination) {
  std::error_code error;
  if (fs::exists(fs::symlink_status(destination, error))) {
    throw ToolError(ExitCode::kCannotCreate, PathToUtf8(destination) + " already exists");
  }
  fs::rename(path_, destination, error);
  if (error) {
    if (error == std::errc::directory_not_empty || error == std::errc::file_exists) {
      throw ToolError(ExitCode::kCannotCreate, PathToUtf8(destination) + " already exists");
    }
    throw FileSystemError("cannot rename " + PathToUtf8(path_) + " to " + PathToUtf8(destination), error,
                          ExitCode::kCannotCreate);
  }
  moved_ = true;
}

fs::path MoveAside(const fs::path& folder, const std::string& prefix) {
  std::error_code error;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path aside = folder.parent_path() / PathFromUtf8(prefix + RandomSuffix());
    if (fs::exists(fs::symlink_status(aside, error))) continue;
    fs::rename(folder, aside, error);
    if (!error) return aside;
    throw FileSystemError("cannot rename " + PathToUtf8(folder) + " to " + PathToUtf8(aside), error,
                          ExitCode::kCannotCreate);
  }
  throw ToolError(ExitCode::kCannotCreate, "cannot find a free name to move " + PathToUtf8(folder) + " aside");
}

bool RemoveFolder(const fs::path& folder, std::error_code& error) {
  error.clear();
  fs::remove_all(folder, error);
  return !error;
}

std::vector<std::string> RemoveStaleWorkFolders(const fs::path& parent, std::chrono::seconds age) {
  std::vector<std::string> removed;
  std::error_code error;
  const std::vector<fs::path> entries = FolderEntries(parent, error);
  if (error) return removed;
  const fs::file_time_type now = fs::file_time_type::clock::now();
  std::vector<fs::path> stale;
  for (const fs::path& entry : entries) {
    const std::string name = PathToUtf8(entry.filename());
    if (!StartsWith(name, kStagingPrefix) && !StartsWith(name, kOldPrefix) && !StartsWith(name, kRemovingPrefix)) {
      continue;
    }
    if (!fs::is_directory(fs::symlink_status(entry, error))) continue;  // a folder, not a link to one
    const fs::file_time_type changed = fs::last_write_time(entry, error);
    if (error || now - changed < age) continue;
    stale.push_back(entry);
  }
  for (const fs::path& folder : stale) {
    if (RemoveFolder(folder, error)) removed.push_back(PathToUtf8(folder));
  }
  return removed;
}

}  // namespace backplane::sdk_plugin
