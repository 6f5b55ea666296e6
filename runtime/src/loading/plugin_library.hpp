// Opening a plugin library and checking it, in the order of docs/backend-discovery.md:
// entry points, identity/ABI descriptor, backend id, API version. (The manifest cross-check
// that follows is discovery's: discovery/manifest.hpp, ManifestMismatches.)
#pragma once

#include "loading/shared_library.hpp"
#include "loading/target_tags.hpp"
#include "platform/regular_file.hpp"

#include <backplane/discovery_report.hpp>
#include <backplane/plugin.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace backplane::loading {

// A library that passed every check up to (not including) registration.
struct CheckedPlugin {
  std::shared_ptr<SharedLibrary> library;
  const BackplanePluginIdentity* identity = nullptr;  // points into `library`
  BackendId id;
  BackendApiVersion api_version;
  BpBackendFactoryFunction factory = nullptr;           // points into `library`
};

struct PluginRejection {
  DiscoveryStage stage;
  ReasonCode code;
  std::string message;
};

// The outcome: `plugin` on success, else `rejection` (and the library is closed again).
struct PluginCheck {
  std::optional<CheckedPlugin> plugin;
  PluginRejection rejection{DiscoveryStage::kFound, ReasonCode::kOk, {}};
};

// Opens `library_path` (absolute) and checks it against this runtime (`target`, `api`). Calls GetBackendId and GetVersion only after the identity
// descriptor was accepted, and never BackendFactory; whatever they throw (a std::exception or
// anything else) becomes an entry_point_failed rejection naming the library and the function.
// Never throws for a bad library.
//
// `checked_file`: the identity of the file the caller opened as a regular file and whose
// header it checked (library_header.hpp). The OS loader opens the library again by name, so
// after it did, the name must still lead to that same file, else the candidate is rejected.
// (Loading through the checked handle itself, /proc/self/fd/N on Linux, would close the gap
// entirely but makes the loader see "/proc/self/fd" as the library's $ORIGIN, so a plugin
// could no longer find libraries beside it, and names it so in backtraces and dladdr.) What is
// left is a file swapped in and back during the load: that takes someone who may write the
// plugin folder, and such a one can put any code there anyway; the checks are against
// accidents (a half-copied file, a stray FIFO), not against the folder's owner.
PluginCheck OpenAndCheckPlugin(const std::filesystem::path& library_path,
                               const TargetTags& target, BackendApiVersion api,
                               const std::optional<platform::FileIdentity>& checked_file = std::nullopt);

// Checks an identity descriptor (from a library or a static backend) against this runtime
// (`target`, `api`): magic, size and SDK name, then its Backend API major (another major is
// another boundary: refused before platform and ABI, so a 1.x plugin is told what to do, not
// only that its ABI tag differs), then platform and ABI. A newer minor of the same major is left
// to the caller (OpenAndCheckPlugin: GetVersion; static backends: their own check). Returns the
// rejection, or nullopt when acceptable.
std::optional<PluginRejection> CheckIdentity(const BackplanePluginIdentity* identity,
                                             const std::string& where,
                                             const TargetTags& target, BackendApiVersion api);

}  // namespace backplane::loading
