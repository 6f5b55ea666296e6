#include <backplane/runtime.hpp>

#include "discovery/backend_filter.hpp"
#include "discovery/discovery.hpp"
#include "discovery/preference_order.hpp"
#include "discovery/search_paths.hpp"
#include "discovery/trust_check.hpp"
#include "execution/compiled_network.hpp"
#include "graph/optimizer.hpp"
#include "impl_access.hpp"
#include "isolation/plugin_isolator.hpp"
#include "loading/backend_options.hpp"
#include "loading/backend_registry.hpp"
#include "log.hpp"
#include "platform/environment.hpp"

#include <backplane/path_text.hpp>

#include <boost/dll/runtime_symbol_info.hpp>

#include <filesystem>
#include <mutex>
#include <optional>

// The install layout, given to this file alone by runtime/CMakeLists.txt.
#if !defined(BACKPLANE_DYNAMIC_BACKEND_PATHS) || !defined(BACKPLANE_DEFAULT_BACKEND_SUBDIR) ||      \
    !defined(BACKPLANE_DEFAULT_TRUSTED_KEYS_SUBDIR) || !defined(BACKPLANE_SYSTEM_DROP_DIR) || \
    !defined(BACKPLANE_SYSTEM_CONFIG_DIR)
#error "runtime/CMakeLists.txt compiles the install layout into runtime.cpp; this build did not"
#endif

namespace backplane {

namespace fs = std::filesystem;

struct Runtime::Impl {
  DiscoveryReport report;
  std::shared_ptr<ILogSink> log;
  // Declared after the log so it is destroyed before it: contexts and libraries go first.
  loading::BackendRegistry registry;
  // Loaded networks; unloaded (and their contexts notified) before the registry goes.
  mutable std::mutex networks_mutex;
  std::map<NetworkId, std::shared_ptr<execution::CompiledNetwork>> networks;
  NetworkId next_network_id = 1;
  std::shared_ptr<std::mutex> context_mutex = std::make_shared<std::mutex>();

  std::shared_ptr<execution::CompiledNetwork> FindNetwork(NetworkId id) const {
    std::lock_guard<std::mutex> lock(networks_mutex);
    const auto it = networks.find(id);
    if (it == networks.end()) {
      throw Exception(ErrorCode::kNotFound, "no network " + std::to_string(id) + " is loaded in this runtime");
    }
    return it->second;
  }
};

namespace {

// <folder of the runtime library>/backplane/backends: follows the library when an install
// tree is moved. Empty when the location cannot be determined.
std::string DefaultBackendFolder() {
  std::error_code error;
  const fs::path self = boost::dll::this_line_location(error);
  if (error || self.empty()) return {};
  return PathToUtf8((self.parent_path() / BACKPLANE_DEFAULT_BACKEND_SUBDIR).lexically_normal());
}

// <libbackplane's folder>/backplane/trusted-keys: the installation's own keys (the build key).
std::string DefaultTrustedKeysFolder() {
  std::error_code error;
  const fs::path self = boost::dll::this_line_location(error);
  if (error || self.empty()) return {};
  return PathToUtf8((self.parent_path() / BACKPLANE_DEFAULT_TRUSTED_KEYS_SUBDIR).lexically_normal());
}

// The layers' inputs for `options`: what Create and ResolveBackendSearchPaths read.
discovery::SearchPathSources SourcesFor(const RuntimeOptions& options) {
  const BackendFolders folders = GetBackendFolders();
  discovery::SearchPathSources sources;
  sources.option = options.backend_paths;
  sources.environment = platform::SecureGetEnv(kBackendPathsEnvVar);
  sources.added_option = options.add_backend_paths;
  sources.added = platform::SecureGetEnv(kAddBackendPathsEnvVar);
  sources.user_folder = folders.user_drops;
  sources.system_folder = folders.system_drops;
  sources.compiled_in = BACKPLANE_DYNAMIC_BACKEND_PATHS;
  sources.default_folder = folders.installed;
  return sources;
}

std::string DescribeNoBackends(const DiscoveryReport& report) {
  std::string text = "no backend could be registered.";
  if (!report.dynamic_loading_enabled) {
    text += " Dynamic backend loading is disabled and no static backend is linked in.";
  } else if (report.search_paths.empty()) {
    text += " No folder to search for plugins was given.";
  } else {
    text += " Searched:";
    for (const auto& path : report.search_paths) {
      text += "\n  " + path.path + " (" + path.source + ")" +
              (path.valid ? "" : ": skipped, " + path.reason);
    }
  }
  if (report.records.empty()) {
    text += "\nNo plugin candidate was found (manifests are named <Vendor>_<Name>_backend.json).";
  }
  for (const auto& record : report.records) {
    text += "\n  " + std::string(ToString(record.verdict)) + " [" + ToString(record.code) + "]: " +
            record.message;
  }
  return text;
}

// Backplane's own folder under the user's and the machine's data and configuration folders.
#if defined(_WIN32)
constexpr const char* kOwnFolder = "Backplane";
#else
constexpr const char* kOwnFolder = "backplane";
#endif

}  // namespace

BackendFolders GetBackendFolders() {
  BackendFolders folders;
  folders.installed = DefaultBackendFolder();
  if (const fs::path user = platform::UserBaseFolder(platform::UserFolderKind::kData); !user.empty()) {
    folders.user_drops = PathToUtf8(user / kOwnFolder / "backends");
  }
  if (const fs::path machine = platform::MachineDataFolder(); !machine.empty()) {
    folders.system_drops = PathToUtf8(machine / kOwnFolder / "backends");
  } else {
    folders.system_drops = BACKPLANE_SYSTEM_DROP_DIR;
  }
  return folders;
}

std::vector<SearchPath> ResolveBackendSearchPaths(const RuntimeOptions& options) {
  return discovery::ResolveSearchPaths(SourcesFor(options), platform::PathListSeparator());
}

TrustSettings ResolveTrustSettings(const TrustOptions& options) {
  discovery::TrustSources sources;
  sources.option = options.policy;
  sources.environment = platform::SecureGetEnv(kTrustPolicyEnvVar);
  sources.option_folders = options.key_folders;
  if (const fs::path user = platform::UserBaseFolder(platform::UserFolderKind::kConfig); !user.empty()) {
    sources.user_folder = PathToUtf8(user / kOwnFolder / "trusted-keys");
  }
  const fs::path machine = platform::MachineDataFolder();
  const fs::path config = machine.empty() ? fs::path(BACKPLANE_SYSTEM_CONFIG_DIR) : machine / kOwnFolder;
  sources.system_folder = PathToUtf8(config / "trusted-keys");
  sources.system_config = options.system_config.empty() ? PathToUtf8(config / "runtime.json") : options.system_config;
  sources.installation_folder = DefaultTrustedKeysFolder();
  return discovery::ResolveTrust(sources);
}

ManifestValidation ValidateManifestFile(const std::string& path) {
  const fs::path file = PathFromUtf8(path);
  discovery::ManifestCheck check = discovery::CheckManifestFile(file, loading::RuntimeTargetTags());
  ManifestValidation result;
  result.problems = std::move(check.problems);
  result.warnings = std::move(check.warnings);
  if (check.manifest) {
    result.backend_id = check.manifest->id;
    result.version = check.manifest->version;
  }
  if (check.library_path) result.library_path = PathToUtf8(*check.library_path);
  if (check.library_path && check.sha256) {
    if (auto problem = discovery::CheckLibraryChecksum(*check.library_path, *check.sha256, file)) {
      result.problems.push_back(std::move(*problem));
    }
  }
  result.valid = result.problems.empty();
  return result;
}

NoBackendsError::NoBackendsError(const std::string& message, DiscoveryReport report)
    : Exception(ErrorCode::kNoBackends, message), report_(std::move(report)) {}
NoBackendsError::~NoBackendsError() = default;

Runtime::Runtime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Runtime::~Runtime() {
  std::map<NetworkId, std::shared_ptr<execution::CompiledNetwork>> networks;
  {
    std::lock_guard<std::mutex> lock(impl_->networks_mutex);
    networks.swap(impl_->networks);
  }
  for (auto& [id, network] : networks) network->Unload();
}

std::unique_ptr<Runtime> Runtime::Create(const RuntimeOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->log = options.log_sink ? options.log_sink : DefaultLogSink();
  impl->report.dynamic_loading_enabled = options.enable_dynamic_backends;

  const TrustSettings trust = options.enable_dynamic_backends ? ResolveTrustSettings(options.trust) : TrustSettings{};
  for (const auto& problem : trust.problems) Log(*impl->log, LogLevel::kWarning, LogCategory::kDiscovery, problem);
  // With isolation, the application's filter goes first, then the probe (or stored verdict),
  // which runs under the same trust settings.
  std::optional<isolation::PluginIsolator> isolator;
  std::function<std::string(const DiscoveryRecord&)> filter = options.library_filter;
  if (options.isolation.enabled && options.enable_dynamic_backends) {
    isolator.emplace(options.isolation, trust, *impl->log);
    filter = [&isolator, &options](const DiscoveryRecord& candidate) {
      if (options.library_filter) {
        std::string refusal = options.library_filter(candidate);
        if (!refusal.empty()) return refusal;
      }
      return isolator->Check(candidate);
    };
  }
  const discovery::BackendFilter backend_filter = discovery::BackendFilter::FromOptions(options);
  discovery::DiscoveryContext context{loading::RuntimeTargetTags(), kBackendApiVersion,
                                      options.backend_options, *impl->log, impl->log, impl->registry,
                                      impl->report.records, filter, backend_filter, trust};
  if (options.enable_static_backends) discovery::RegisterStaticBackends(context);

  if (options.enable_dynamic_backends) {
    impl->report.search_paths = ResolveBackendSearchPaths(options);
    for (const auto& path : impl->report.search_paths) {
      if (path.valid) continue;
      Log(*impl->log, path.normally_absent ? LogLevel::kDebug : LogLevel::kWarning, LogCategory::kDiscovery,
          "backend folder " + path.path + " (" + path.source + ") is skipped: " + path.reason);
    }
    discovery::DiscoverDynamicBackends(impl->report.search_paths, context);
  }
  discovery::ApplyDefaultPreferenceOrder(impl->registry);

  // Options for every backend must each be taken by some backend (own entries were checked at
  // registration). With nothing registered, the missing backends are the problem to report.
  if (const auto all = options.backend_options.find(BackendId(kAllBackends));
      all != options.backend_options.end() && !impl->registry.Empty()) {
    std::vector<BackendInfo> infos;
    for (const auto& backend : impl->registry.All()) infos.push_back(backend.info);
    loading::CheckAllBackendsOptions(all->second, infos);
  }

  if (impl->registry.Empty() && !options.allow_no_backends) {
    throw NoBackendsError(DescribeNoBackends(impl->report), impl->report);
  }
  return std::unique_ptr<Runtime>(new Runtime(std::move(impl)));
}

const DiscoveryReport& Runtime::GetDiscoveryReport() const { return impl_->report; }

std::vector<BackendInfo> Runtime::GetBackends() const {
  std::vector<BackendInfo> infos;
  for (const auto& backend : impl_->registry.All()) infos.push_back(loading::BackendRegistry::Describe(backend));
  return infos;
}

std::optional<BackendInfo> Runtime::GetBackend(const BackendId& id) const {
  const auto* backend = impl_->registry.Find(id);
  if (!backend) return std::nullopt;
  return loading::BackendRegistry::Describe(*backend);
}

bool Runtime::HasBackend(const BackendId& id) const { return impl_->registry.Find(id) != nullptr; }

std::unique_ptr<backend::IBackend> Runtime::CreateBackend(const BackendId& id) const {
  const auto* backend = impl_->registry.Find(id);
  if (!backend) {
    std::string known;
    for (const auto& entry : impl_->registry.All()) {
      known += (known.empty() ? "" : ", ") + entry.info.id.Get();
    }
    throw Exception(ErrorCode::kNotFound, "no backend \"" + id.Get() + "\" is registered (registered: " +
                                              (known.empty() ? "none" : known) + ")");
  }
  return backend->factory();
}

backend::IBackendContext* Runtime::GetBackendContext(const BackendId& id) const {
  const auto* backend = impl_->registry.Find(id);
  return backend ? backend->context.get() : nullptr;
}

OptimizedNetwork Runtime::Optimize(const Network& network, const OptimizeOptions& options) const {
  std::vector<BackendId> ids = options.backends;
  if (ids.empty()) {
    for (const auto& backend : impl_->registry.All()) {
      if (loading::BackendRegistry::Describe(backend).available) ids.push_back(backend.info.id);
    }
  }
  std::vector<graph::PlacementBackend> backends;
  auto describe = [&](const BackendId& id) {
    for (const auto& backend : backends) {
      if (backend.id == id) return;
    }
    if (!impl_->registry.Find(id)) {
      std::string known;
      for (const auto& entry : impl_->registry.All()) known += (known.empty() ? "" : ", ") + entry.info.id.Get();
      throw Exception(ErrorCode::kNotFound, "backend " + id.Get() + " is not registered (registered: " +
                                                (known.empty() ? "none" : known) + ")");
    }
    const BackendInfo info = loading::BackendRegistry::Describe(*impl_->registry.Find(id));
    backends.push_back(graph::DescribeBackend(id, CreateBackend(id), info.available, info.unavailable_reason));
    if (info.available && !backends.back().available) {
      Log(*impl_->log, LogLevel::kWarning, LogCategory::kOptimize,
          "backend " + id.Get() + " takes no layers in this optimization: " + backends.back().unavailable_reason);
    }
  };
  for (const auto& id : ids) describe(id);
  // Pinned backends take part even when not preferred.
  for (const auto& [layer, id] : options.pins) describe(id);
  for (const auto& layer : detail::ImplAccess::Of(network).graph.Layers()) {
    if (!layer.pin.IsEmpty()) describe(layer.pin);
  }
  // Pins were described after the preferences: keep preference order for the preferred ones.
  std::vector<graph::PlacementBackend> ordered;
  for (const auto& id : ids) {
    for (auto& backend : backends) {
      if (backend.id == id && backend.instance) ordered.push_back(std::move(backend));
    }
  }
  for (auto& backend : backends) {
    if (backend.instance) ordered.push_back(std::move(backend));
  }
  OptimizeOptions effective = options;
  effective.backends = ids;
  std::unique_ptr<OptimizedNetwork::Impl> placed =
      graph::Optimize(detail::ImplAccess::Of(network), effective, ordered, *impl_->log);
  for (const auto& backend : ordered) {
    if (const auto* entry = impl_->registry.Find(backend.id); entry && entry->library) {
      placed->libraries.push_back(entry->library);
    }
  }
  return detail::ImplAccess::Wrap(std::move(placed));
}

NetworkId Runtime::LoadNetwork(OptimizedNetwork network) {
  std::unique_ptr<OptimizedNetwork::Impl> placed;
  detail::ImplAccess::Release(network, placed);
  if (!placed) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "LoadNetwork was given a moved-from OptimizedNetwork; each can be loaded once");
  }
  if (placed->outputs.empty()) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "LoadNetwork was given an empty OptimizedNetwork; get one from Runtime::Optimize");
  }
  // The reports were the application's to read before loading; the loaded network keeps the
  // graph only (a network's size in records, ~0.3 KB per layer).
  std::vector<LayerPlacement>().swap(placed->placement);
  std::vector<EdgeReport>().swap(placed->edges);
  std::vector<std::string>().swap(placed->pass_log);
  std::map<BackendId, execution::LoadBackend> backends;
  for (const auto& backend : impl_->registry.All()) {
    backends[backend.info.id] = {backend.factory, backend.context.get(), backend.library};
  }
  NetworkId id;
  {
    std::lock_guard<std::mutex> lock(impl_->networks_mutex);
    id = impl_->next_network_id++;
  }
  auto compiled = execution::CompiledNetwork::Load(id, std::move(placed), backends, impl_->context_mutex,
                                                   *impl_->log);
  std::lock_guard<std::mutex> lock(impl_->networks_mutex);
  impl_->networks[id] = std::move(compiled);
  return id;
}

void Runtime::UnloadNetwork(NetworkId id) {
  std::shared_ptr<execution::CompiledNetwork> network;
  {
    std::lock_guard<std::mutex> lock(impl_->networks_mutex);
    const auto it = impl_->networks.find(id);
    if (it == impl_->networks.end()) {
      throw Exception(ErrorCode::kNotFound, "no network " + std::to_string(id) + " is loaded in this runtime");
    }
    network = std::move(it->second);
    impl_->networks.erase(it);
  }
  network->Unload();
}

NetworkSignature Runtime::GetNetworkSignature(NetworkId id) const {
  return impl_->FindNetwork(id)->GetSignature();
}

std::unique_ptr<ExecutionContext> Runtime::CreateExecutionContext(NetworkId id,
                                                                  const ExecutionOptions& options) const {
  return execution::MakeExecutionContext(impl_->FindNetwork(id), options);
}

}  // namespace backplane
