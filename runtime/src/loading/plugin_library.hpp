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

// The library OpenAndCheckPlugin opens.
struct LibraryToOpen {
  std::filesystem::path path;  // absolute: its name in messages, and where it was found
  // What the OS loader opens, when not `path`: the name of a pinned image of its verified bytes
  // (platform::PinnedImage, under the trust policy require).
  std::filesystem::path loader_path;
  // The identity of the file the caller opened as a regular file, hashed and whose header it
  // checked (library_header.hpp); the file the loader mapped must be that one, else the
  // candidate is rejected. nullopt: not checked.
  std::optional<platform::FileIdentity> checked_file;
};

// Opens `library` and checks it against this runtime (`target`, `api`). Calls GetBackendId and
// GetVersion only after the identity descriptor was accepted, and never BackendFactory; whatever
// they throw (a std::exception or anything else) becomes an entry_point_failed rejection naming
// the library and the function. Never throws for a bad library.
//
// The check of `checked_file` is of what the loader mapped (SharedLibrary::MappedFile), where
// the platform can tell, else of what `loader_path` names after the load. Loaded by its name
// (`loader_path` empty), a file swapped in while the loader opens it has run its constructors
// before this check rejects it: only a pinned image (trust policy require) keeps every byte
// that was not verified from being mapped at all (docs/backend-discovery.md §8).
PluginCheck OpenAndCheckPlugin(const LibraryToOpen& library, const TargetTags& target, BackendApiVersion api);

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
