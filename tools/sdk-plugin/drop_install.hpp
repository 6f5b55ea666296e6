// `install`: a drop (a folder or an archive) is copied into a hidden staging folder of the drop
// folder, checked there by the runtime exactly as an application would check it (manifest,
// sha256, signature under the policy, the library loaded first in a child process), and only
// then renamed into its own folder <manifest stem>-<version>. Nothing is left behind when any
// step fails.
#pragma once

#include "command_line.hpp"
#include "drop_folders.hpp"
#include "exit_code.hpp"

#include <backplane/discovery_report.hpp>
#include <backplane/trust.hpp>

#include <optional>
#include <string>
#include <vector>

namespace backplane::sdk_plugin {

struct InstallRequest {
  std::string drop;  // absolute: a folder, or a .tar.gz/.tgz/.zip archive
  Scope scope = Scope::kUser;  // kUser or kSystem
  bool force = false;          // replace an installed drop of the same id and version
  TrustOptions trust;
  double timeout_seconds = 10;  // the isolation probe's time limit
};

struct InstallResult {
  ExitCode exit_code = ExitCode::kOk;  // kOk, or kRejected with `record` saying why
  std::string error;                   // kRejected: the whole message
  std::string drop;                    // as requested
  DropFolder destination;
  std::string folder;     // the installed drop's folder (kOk); where it would have gone otherwise
  std::string manifest;   // its file name
  std::vector<std::string> files;  // the file names installed
  std::string backend_id;
  std::string version;
  std::string vendor;
  bool replaced = false;  // --force replaced a drop of the same id and version
  std::vector<std::string> stale_removed;  // leftovers of interrupted runs removed first
  // The runtime's record for the staged drop (paths rewritten from the staging folder to the
  // drop); nullopt when it got no record (the drop was refused before it was checked).
  std::optional<DiscoveryRecord> record;
};

// Installs the drop. Returns kOk, or kRejected when the runtime did not register the staged
// drop (then nothing is installed). Throws ToolError for anything else: kInputMissing (no such
// drop), kRejected (no manifest or several, an archive entry that breaks the rules), kUsage (an
// archive without libarchive, a file that is not an archive), kCannotCreate (the drop is
// installed already and `force` is off; a folder that cannot be written), kPermissionDenied,
// kInternal (the runtime failed).
// Keeps no state. Two processes installing into one drop folder at once each work in their own
// staging folder; if both install the same version, the second rename fails (kCannotCreate)
// and its copy is removed. The drop's library is loaded into this process (after the probe),
// and closed again before the rename.
InstallResult InstallDrop(const InstallRequest& request);

}  // namespace backplane::sdk_plugin
