// The hidden working folders of a drop folder. Discovery never scans a folder whose name starts
// with '.', so a drop is a candidate only once it is complete under its final name:
//   .staging-<random>   an install in progress (copied, then checked, then renamed)
//   .old-<random>       an installed drop being replaced (install --force)
//   .removing-<random>  an installed drop being removed
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace backplane::sdk_plugin {

namespace fs = std::filesystem;

inline constexpr const char* kStagingPrefix = ".staging-";
inline constexpr const char* kOldPrefix = ".old-";
inline constexpr const char* kRemovingPrefix = ".removing-";

// A new <parent>/.staging-<random> folder (mode 0755) that is removed with its contents when the
// object is destroyed, unless MoveTo() renamed it into place. Not copyable; not thread-safe.
class StagingFolder {
 public:
  // `parent` must exist. Throws ToolError (kCannotCreate, kPermissionDenied).
  explicit StagingFolder(const fs::path& parent);
  ~StagingFolder();  // best effort
  StagingFolder(const StagingFolder&) = delete;
  StagingFolder& operator=(const StagingFolder&) = delete;

  const fs::path& path() const { return path_; }

  // Renames the folder to `destination` in one step (std::filesystem::rename, same file
  // system). Throws ToolError: kCannotCreate when `destination` exists or the rename fails,
  // kPermissionDenied. Afterwards the destructor leaves it alone.
  void MoveTo(const fs::path& destination);

 private:
  fs::path path_;
  bool moved_ = false;
};

// Renames `folder` to <its parent>/<prefix><random> (so it stops being a candidate at once) and
// returns the new path. Throws ToolError (kCannotCreate, kPermissionDenied).
fs::path MoveAside(const fs::path& folder, const std::string& prefix);

// Removes `folder` and its contents; false (with `error` set) when some of it could not be.
bool RemoveFolder(const fs::path& folder, std::error_code& error);

// Removes the working folders (.staging-*, .old-*, .removing-*) in `parent` that were last
// changed more than `age` ago: what an interrupted sdk-plugin left behind. Younger ones may
// belong to a command still running and are left alone. Returns the folders removed; errors
// are ignored (the next run tries again).
std::vector<std::string> RemoveStaleWorkFolders(const fs::path& parent,
                                                std::chrono::seconds age = std::chrono::hours(1));

}  // namespace backplane::sdk_plugin
