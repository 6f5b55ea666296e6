// Opening a plugin library and checking it, in the order of docs/backend-discovery.md:
// entry points, identity/ABI descriptor, backend id, API version, manifest cross-check.
#pragma once

#include "discovery/manifest.hpp"
#include "loading/shared_library.hpp"

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
  BackendFactoryFunction* factory = nullptr;           // points into `library`
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

// Opens `library_path` (absolute) and checks it against this runtime (`target`, `api`) and,
// when given, against its manifest. Calls GetBackendId and GetVersion only after the identity
// descriptor was accepted, and never BackendFactory. Never throws for a bad library.
PluginCheck OpenAndCheckPlugin(const std::filesystem::path& library_path,
                               const discovery::Manifest* manifest,
                               const discovery::TargetTags& target, BackendApiVersion api);

// Checks an identity descriptor (from a library or a static backend) against this runtime.
// Returns the rejection, or nullopt when acceptable.
std::optional<PluginRejection> CheckIdentity(const BackplanePluginIdentity* identity,
                                             const std::string& where,
                                             const discovery::TargetTags& target);

}  // namespace backplane::loading
