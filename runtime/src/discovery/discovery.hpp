// The discovery pipeline: folders -> candidates -> checks -> registration, one record each.
#pragma once

#include "discovery/backend_filter.hpp"
#include "discovery/manifest.hpp"
#include "loading/backend_registry.hpp"

#include <backplane/discovery_report.hpp>
#include <backplane/logging.hpp>
#include <backplane/runtime_options.hpp>
#include <backplane/trust.hpp>

#include <functional>
#include <string>
#include <vector>

namespace backplane::discovery {

// The layer (DiscoveryRecord::layer, BackendInfo::layer) of a backend linked into the runtime.
inline constexpr const char* kStaticLayer = "static";

// Everything one scan needs; owned by the caller for the duration of the scan.
struct DiscoveryContext {
  loading::TargetTags target;
  BackendApiVersion api;
  const std::map<BackendId, backend::BackendOptions>& backend_options;
  ILogSink& log;
  // The same sink, shared with the log channels of the backends registered (BackendConfig::log).
  std::shared_ptr<ILogSink> backend_log;
  loading::BackendRegistry& registry;       // receives the registered backends
  std::vector<DiscoveryRecord>& records;    // receives one record per candidate
  // RuntimeOptions::library_filter: asked before each plugin library is opened; may be null.
  const std::function<std::string(const DiscoveryRecord&)>& library_filter;
  // Which ids and versions are considered (select, disable, version pins).
  const BackendFilter& filter;
  // The trust policy and keys (trust_check.hpp): which signatures candidates need.
  const TrustSettings& trust;
};

// Registers the backends linked into the runtime (plugin.hpp's static form). Throws
// loading::OptionError for a backend option the backend does not accept.
void RegisterStaticBackends(DiscoveryContext& context);

// Scans the valid folders of `paths` (and, in drop layers, each of their subfolders whose name
// does not start with '.': one installed drop each): every manifest first (each id's candidates compete on
// version before any library is opened: the highest compatible version in the pinned range
// wins, ties to the earlier layer), then the naming-scheme fallback (see
// docs/backend-discovery.md). One bad candidate never stops the scan; only a broken invariant
// (e.g. std::bad_alloc) and loading::OptionError (a backend option the backend does not accept)
// propagate.
void DiscoverDynamicBackends(const std::vector<SearchPath>& paths, DiscoveryContext& context);

}  // namespace backplane::discovery
