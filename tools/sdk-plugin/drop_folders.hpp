// The drop folders (GetBackendFolders: the user's and the machine's) and the drops installed in
// them: every subfolder whose name does not start with '.', holding one manifest (normally; a
// subfolder with several gets one entry per manifest, one with none an entry saying so).
// Listing reads manifests and signatures only; it never opens a library.
#pragma once

#include "command_line.hpp"

#include <backplane/runtime.hpp>
#include <backplane/trust.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace backplane::sdk_plugin {

namespace fs = std::filesystem;

// A drop folder and its source ("user" or "system").
struct DropFolder {
  std::string source;
  fs::path path;
};

// The drop folder of `scope` (kUser or kSystem). Throws ToolError (kCannotCreate) when this
// machine has none (no HOME in a set-uid process, or a build without a system drop folder).
DropFolder DropFolderOf(Scope scope);
// The drop folders of `scope`, user first for kAll; those that are unknown are left out.
std::vector<DropFolder> DropFoldersOf(Scope scope);

// One installed drop, as its files say.
struct InstalledDrop {
  std::string source;  // the drop folder's: "user", "system"
  fs::path folder;     // <drop folder>/<stem>-<version>
  fs::path manifest;   // "" when the folder holds none
  std::string backend_id;  // from the manifest; "" when it cannot say
  std::string version;
  std::string vendor;
  ManifestValidation validation;  // ValidateManifestFile (checks the library's sha256)
  // CheckManifestTrust under the settings given; nullopt when listed without them.
  std::optional<TrustCheck> trust;

  // ValidateManifestFile found no problem, and the policy does not refuse it.
  bool Passes() const { return validation.valid && (!trust || !trust->rejection); }
};

// The drops in `folders`, folder by folder, subfolders in byte order of their names. With
// `settings`, each drop's signature is checked too. Never throws for a bad drop (it is listed
// with its problems); a drop folder that does not exist holds no drop.
// `settings` is only read during the call. Thread-safe.
std::vector<InstalledDrop> FindInstalledDrops(const std::vector<DropFolder>& folders,
                                              const TrustSettings* settings);

// True when `drop` is what `id` names: its backend id, or its folder's name.
bool DropMatches(const InstalledDrop& drop, const std::string& id);

// What `remove` did.
struct RemovalResult {
  DropFolder drop_folder;
  std::vector<InstalledDrop> removed;
  // The drops of the same id left in that folder (the runtime registers the highest of them).
  std::vector<InstalledDrop> remaining;
};

// Removes the drops of `id` (DropMatches) in the drop folder of `scope`, of version `version`
// only when it is not "": each folder is renamed to .removing-<random> first (so it stops being
// a candidate at once), then deleted. Throws ToolError: kInputMissing when nothing matches
// (naming the id and the folder), kPermissionDenied / kCannotCreate when a folder cannot be
// renamed. A folder that cannot be deleted after its rename is reported (kCannotCreate); a later
// install removes it once it is an hour old.
RemovalResult RemoveDrops(const std::string& id, const std::string& version, Scope scope);

}  // namespace backplane::sdk_plugin
