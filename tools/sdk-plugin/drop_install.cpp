#include "drop_install.hpp"

#include "drop_archive.hpp"
#include "drop_contents.hpp"
#include "file_writes.hpp"
#include "staging_folder.hpp"

#include <backplane/folder_entries.hpp>
#include <backplane/path_text.hpp>
#include <backplane/runtime.hpp>

#include <algorithm>
#include <fstream>
#include <memory>

namespace backplane::sdk_plugin {

namespace {

// Where the staging runtime keeps its isolation verdicts: inside the staging folder, so that
// checking a drop leaves nothing behind (and a dot-name, never a candidate).
constexpr const char* kVerdictFolder = ".verdicts";

void CopyFileInto(const fs::path& from, const fs::path& to, fs::perms mode) {
  std::ifstream in(from, std::ios::binary);
  if (!in) throw ToolError(ExitCode::kRejected, "cannot read " + PathToUtf8(from));
  NewFile out(to, mode);
  char buffer[64 * 1024];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    out.Write(buffer, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw ToolError(ExitCode::kRejected, "cannot read " + PathToUtf8(from));
  out.Close();
}

// The names of the regular files (or links to regular files) at the top of a folder drop.
std::vector<std::string> FolderFileNames(const fs::path& folder) {
  std::vector<std::string> names;
  std::error_code error;
  const std::vector<fs::path> entries = FolderEntries(folder, error);
  if (error) throw FileSystemError("cannot list the drop " + PathToUtf8(folder), error, ExitCode::kInputMissing);
  for (const fs::path& entry : entries) {
    if (fs::is_regular_file(entry, error)) names.push_back(PathToUtf8(entry.filename()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Copies the drop's files into `staging`: the manifest first (to learn which library it
// names), then its signature, the library and the library's .debug. Returns the manifest's name;
// `staged` gets every file name copied.
std::string Stage(const fs::path& drop, bool archive, const fs::path& staging, std::vector<std::string>& staged) {
  const std::vector<std::string> names = archive ? ListDropArchive(drop) : FolderFileNames(drop);
  const std::string manifest = FindTheManifest(names, PathToUtf8(drop));
  const auto present = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  const std::vector<DropFile> manifest_only = {{manifest, false}};
  if (archive) {
    ExtractFromDropArchive(drop, manifest_only, staging);
  } else {
    CopyFileInto(drop / PathFromUtf8(manifest), staging / PathFromUtf8(manifest), kFileMode);
  }
  staged.push_back(manifest);

  // Only a file the drop holds under exactly that name is copied, so a "library" that is not a
  // plain file name copies nothing (and the runtime's check says what is wrong with it).
  const std::string library = ReadManifestFields(PathToUtf8(staging / PathFromUtf8(manifest))).library;
  // Without a usable library name only the signature goes with the manifest.
  const std::vector<DropFile> candidates =
      library.empty() ? std::vector<DropFile>{{SignatureFileName(manifest), false}}
                      : DropFilesFor(manifest, library);
  std::vector<DropFile> rest;
  for (const DropFile& file : candidates) {
    if (file.name != manifest && present(file.name)) rest.push_back(file);
  }
  if (archive) {
    const std::vector<std::string> extracted = ExtractFromDropArchive(drop, rest, staging);
    staged.insert(staged.end(), extracted.begin(), extracted.end());
  } else {
    for (const DropFile& file : rest) {
      CopyFileInto(drop / PathFromUtf8(file.name), staging / PathFromUtf8(file.name),
                   file.executable ? kExecutableMode : kFileMode);
      staged.push_back(file.name);
    }
  }
  return manifest;
}

RuntimeOptions CheckOptions(const fs::path& staging, const InstallRequest& request) {
  RuntimeOptions options;
  options.backend_paths = {PathToUtf8(staging)};  // this folder only: no other layer
  options.enable_static_backends = false;      // the drop is judged on its own
  options.allow_no_backends = true;
  // The drop is checked, not chosen: the user's select/disable patterns (BACKPLANE_BACKENDS_SELECT
  // and _DISABLE, which apply when these lists are empty) decide what applications use, not
  // whether a drop is sound. "*" selects every id; no id has 65 characters, so the disable
  // pattern matches nothing.
  options.select_backends = {"*"};
  options.disable_backends = {std::string(65, '?')};
  options.trust = request.trust;
  options.isolation.enabled = true;
  options.isolation.reprobe = true;
  options.isolation.timeout_seconds = request.timeout_seconds;
  options.isolation.verdict_store = PathToUtf8(staging / kVerdictFolder);
  return options;
}

// The runtime's record for the staged manifest.
DiscoveryRecord CheckStagedDrop(const fs::path& staging, const std::string& manifest, const InstallRequest& request) {
  std::unique_ptr<Runtime> runtime;
  try {
    runtime = Runtime::Create(CheckOptions(staging, request));
  } catch (const Exception& error) {
    throw ToolError(ExitCode::kInternal,
                    std::string("the runtime failed (") + ToString(error.code()) + "): " + error.what());
  }
  const std::vector<DiscoveryRecord>& records = runtime->GetDiscoveryReport().records;
  for (const DiscoveryRecord& record : records) {
    if (PathFromUtf8(record.manifest_path).filename() == PathFromUtf8(manifest)) return record;
  }
  throw ToolError(ExitCode::kInternal, "the runtime reported no record for " +
                                           PathToUtf8(staging / PathFromUtf8(manifest)) + " (" +
                                           std::to_string(records.size()) + " other records)");
}

// Replaces each `from` in `text` with `to`, except where `from` is followed by `keep_after`.
void ReplaceAll(std::string& text, const std::string& from, const std::string& to, const std::string& keep_after) {
  if (from.empty()) return;
  std::size_t at = text.find(from);
  while (at != std::string::npos) {
    if (text.compare(at + from.size(), keep_after.size(), keep_after) == 0) {
      at = text.find(from, at + from.size());
      continue;
    }
    text.replace(at, from.size(), to);
    at = text.find(from, at + to.size());
  }
}

// The record with the staging folder's path replaced by `to`, so that it names files the user
// knows: the drop's (rejected), or the installed folder's (installed). The path of the probe's
// verdict (in the staging folder's own verdict store) is left as it is: that store was the
// staging folder's and went with it.
DiscoveryRecord Rewritten(DiscoveryRecord record, const fs::path& staging, const fs::path& to) {
  const std::string from = PathToUtf8(staging);
  const std::string verdicts = PathToUtf8(staging / kVerdictFolder).substr(from.size());  // "/.verdicts"
  for (std::string* text : {&record.manifest_path, &record.library_path, &record.message,
                            &record.signature.signature_path}) {
    ReplaceAll(*text, from, PathToUtf8(to), verdicts);
  }
  for (std::string& warning : record.warnings) ReplaceAll(warning, from, PathToUtf8(to), verdicts);
  return record;
}

ToolError AlreadyInstalled(const fs::path& folder, const std::string& id, const std::string& version) {
  return ToolError(ExitCode::kCannotCreate, (id.empty() ? std::string("this drop") : id + " " + version) +
                                                " is already installed in " + PathToUtf8(folder) +
                                                "; use --force to replace it");
}

}  // namespace

InstallResult InstallDrop(const InstallRequest& request) {
  InstallResult result;
  result.drop = request.drop;
  const fs::path drop = PathFromUtf8(request.drop);
  std::error_code error;
  const fs::file_status status = fs::status(drop, error);
  if (!fs::exists(status)) throw ToolError(ExitCode::kInputMissing, "no such drop: " + PathToUtf8(drop));
  const bool archive = !fs::is_directory(status);
  if (archive && (!fs::is_regular_file(status) || !IsArchiveName(drop))) {
    throw ToolError(ExitCode::kUsage, PathToUtf8(drop) + " is neither a folder nor a .tar.gz, .tgz or .zip archive");
  }
  if (archive && !ArchivesSupported()) ListDropArchive(drop);  // throws, saying why

  result.destination = DropFolderOf(request.scope);
  const fs::path destination = result.destination.path;
  CreateFolder(destination);
  result.stale_removed = RemoveStaleWorkFolders(destination);

  StagingFolder staging(destination);
  std::vector<std::string> staged;
  result.manifest = Stage(drop, archive, staging.path(), staged);
  result.files = staged;
  const ManifestFields fields = ReadManifestFields(PathToUtf8(staging.path() / PathFromUtf8(result.manifest)));
  result.vendor = fields.vendor;

  // Known before any library is loaded: an installed copy of this version is refused at once.
  // (A version that cannot name a folder is left to the runtime's check, which says why.)
  fs::path early_target;
  try {
    early_target = destination / PathFromUtf8(InstalledFolderName(result.manifest, fields.version));
  } catch (const ToolError&) {
  }
  if (!early_target.empty() && !request.force && fs::exists(fs::symlink_status(early_target, error))) {
    result.folder = PathToUtf8(early_target);
    throw AlreadyInstalled(early_target, fields.id, fields.version);
  }

  const DiscoveryRecord record = CheckStagedDrop(staging.path(), result.manifest, request);
  result.backend_id = record.backend_id.empty() ? fields.id : record.backend_id;
  result.version = record.version.empty() ? fields.version : record.version;
  if (record.verdict != Verdict::kRegistered) {
    result.exit_code = ExitCode::kRejected;
    result.record = Rewritten(record, staging.path(), drop);
    result.error = PathToUtf8(drop) + " was rejected (" + ToString(record.code) + "): " + result.record->message +
                   "; nothing was installed";
    return result;  // `staging` removes the copy
  }

  fs::remove_all(staging.path() / kVerdictFolder, error);
  const fs::path target = destination / PathFromUtf8(InstalledFolderName(result.manifest, result.version));
  result.folder = PathToUtf8(target);
  if (fs::exists(fs::symlink_status(target, error))) {
    if (!request.force) throw AlreadyInstalled(target, result.backend_id, result.version);
    const fs::path old = MoveAside(target, kOldPrefix);
    try {
      staging.MoveTo(target);
    } catch (...) {
      fs::rename(old, target, error);  // put the old one back; the new one is removed
      throw;
    }
    RemoveFolder(old, error);  // best effort: a leftover is removed by a later install
    result.replaced = true;
  } else {
    staging.MoveTo(target);
  }
  result.record = Rewritten(record, staging.path(), target);
  return result;
}

}  // namespace backplane::sdk_plugin
