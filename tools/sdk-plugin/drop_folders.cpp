#include "drop_folders.hpp"

#include "drop_contents.hpp"
#include "exit_code.hpp"
#include "file_writes.hpp"
#include "staging_folder.hpp"

#include <backplane/folder_entries.hpp>
#include <backplane/path_text.hpp>

#include <algorithm>

namespace backplane::sdk_plugin {

namespace {

// The subfolders of `folder` that discovery scans (names not starting with '.'), in byte order.
std::vector<fs::path> DropSubfolders(const fs::path& folder) {
  std::vector<fs::path> subfolders;
  std::error_code error;
  for (const fs::path& entry : FolderEntries(folder, error)) {
    const std::string name = PathToUtf8(entry.filename());
    if (name.empty() || name.front() == '.') continue;
    if (fs::is_directory(entry, error)) subfolders.push_back(entry);
  }
  std::sort(subfolders.begin(), subfolders.end());
  return subfolders;
}

// The manifests in `folder` (regular files, or links to them, named like a manifest), sorted.
std::vector<fs::path> ManifestsIn(const fs::path& folder) {
  std::vector<fs::path> manifests;
  std::error_code error;
  for (const fs::path& entry : FolderEntries(folder, error)) {
    if (IsManifestFileName(PathToUtf8(entry.filename()))) manifests.push_back(entry);
  }
  std::sort(manifests.begin(), manifests.end());
  return manifests;
}

InstalledDrop Describe(const DropFolder& drop_folder, const fs::path& folder, const fs::path& manifest,
                       const TrustSettings* settings) {
  InstalledDrop drop;
  drop.source = drop_folder.source;
  drop.folder = folder;
  drop.manifest = manifest;
  drop.validation = ValidateManifestFile(PathToUtf8(manifest));
  // The runtime gives id and version only for a manifest without problems; a broken drop is
  // still listed (and removable) under what its manifest says.
  const ManifestFields fields = ReadManifestFields(PathToUtf8(manifest));
  drop.backend_id = !drop.validation.backend_id.empty() ? drop.validation.backend_id : fields.id;
  drop.version = !drop.validation.version.empty() ? drop.validation.version : fields.version;
  drop.vendor = fields.vendor;
  if (settings != nullptr) drop.trust = CheckManifestTrust(PathToUtf8(manifest), *settings);
  return drop;
}

// A subfolder with no manifest: listed, with the problem, so that it is not silently ignored.
InstalledDrop WithoutManifest(const DropFolder& drop_folder, const fs::path& folder) {
  InstalledDrop drop;
  drop.source = drop_folder.source;
  drop.folder = folder;
  drop.validation.valid = false;
  drop.validation.problems.push_back(
      {ReasonCode::kManifestUnreadable,
       PathToUtf8(folder) + " holds no backend manifest (<Vendor>_<Name>_backend.json)"});
  return drop;
}

}  // namespace

DropFolder DropFolderOf(Scope scope) {
  const BackendFolders folders = GetBackendFolders();
  if (scope == Scope::kSystem) {
    if (folders.system_drops.empty()) {
      throw ToolError(ExitCode::kCannotCreate, "this installation has no system drop folder "
                                               "(built with BACKPLANE_SYSTEM_DROP_DIR empty)");
    }
    return {"system", PathFromUtf8(folders.system_drops)};
  }
  if (folders.user_drops.empty()) {
    throw ToolError(ExitCode::kCannotCreate,
                    "no user drop folder is known here (neither XDG_DATA_HOME nor HOME is set, or this "
                    "is a set-uid process)");
  }
  return {"user", PathFromUtf8(folders.user_drops)};
}

std::vector<DropFolder> DropFoldersOf(Scope scope) {
  if (scope != Scope::kAll) return {DropFolderOf(scope)};
  const BackendFolders folders = GetBackendFolders();
  std::vector<DropFolder> all;
  if (!folders.user_drops.empty()) all.push_back({"user", PathFromUtf8(folders.user_drops)});
  if (!folders.system_drops.empty()) all.push_back({"system", PathFromUtf8(folders.system_drops)});
  return all;
}

std::vector<InstalledDrop> FindInstalledDrops(const std::vector<DropFolder>& folders,
                                              const TrustSettings* settings) {
  std::vector<InstalledDrop> drops;
  for (const DropFolder& drop_folder : folders) {
    for (const fs::path& folder : DropSubfolders(drop_folder.path)) {
      const std::vector<fs::path> manifests = ManifestsIn(folder);
      if (manifests.empty()) drops.push_back(WithoutManifest(drop_folder, folder));
      for (const fs::path& manifest : manifests) drops.push_back(Describe(drop_folder, folder, manifest, settings));
    }
  }
  return drops;
}

bool DropMatches(const InstalledDrop& drop, const std::string& id) {
  return (!drop.backend_id.empty() && drop.backend_id == id) || PathToUtf8(drop.folder.filename()) == id;
}

RemovalResult RemoveDrops(const std::string& id, const std::string& version, Scope scope) {
  RemovalResult result;
  result.drop_folder = DropFolderOf(scope);
  std::vector<fs::path> folders;
  for (InstalledDrop& drop : FindInstalledDrops({result.drop_folder}, nullptr)) {
    if (!DropMatches(drop, id)) continue;
    if (!version.empty() && drop.version != version) {
      result.remaining.push_back(std::move(drop));
      continue;
    }
    if (std::find(folders.begin(), folders.end(), drop.folder) == folders.end()) folders.push_back(drop.folder);
    result.removed.push_back(std::move(drop));
  }
  if (result.removed.empty()) {
    throw ToolError(ExitCode::kInputMissing,
                    "no drop of " + id + (version.empty() ? "" : " version " + version) + " is installed in " +
                        PathToUtf8(result.drop_folder.path) + " (" + result.drop_folder.source + ")");
  }
  for (const fs::path& folder : folders) {
    // Renamed first: from this moment on no runtime sees the drop, even if deleting it fails.
    const fs::path aside = MoveAside(folder, kRemovingPrefix);
    std::error_code error;
    if (!RemoveFolder(aside, error)) {
      throw FileSystemError("removed " + PathToUtf8(folder) + " from the drop folder, but could not delete " +
                                PathToUtf8(aside) + " (the next install removes it after an hour)",
                            error, ExitCode::kCannotCreate);
    }
  }
  return result;
}

}  // namespace backplane::sdk_plugin
