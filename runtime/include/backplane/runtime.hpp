// Runtime: discovers, loads and registers backends; the application's entry point.
#pragma once

#include <backplane/backend/backend.hpp>
#include <backplane/backend_id.hpp>
#include <backplane/discovery_report.hpp>
#include <backplane/exception.hpp>
#include <backplane/execution.hpp>
#include <backplane/network.hpp>
#include <backplane/optimized_network.hpp>
#include <backplane/runtime_export.hpp>
#include <backplane/runtime_options.hpp>
#include <backplane/version.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace backplane {

// Thrown by Runtime::Create when no backend could be registered. what() says where the runtime
// looked and why each candidate was rejected; report() holds the same as data.
class BACKPLANE_RUNTIME_API NoBackendsError : public Exception {
 public:
  NoBackendsError(const std::string& message, DiscoveryReport report);
  ~NoBackendsError() override;
  const DiscoveryReport& report() const noexcept { return report_; }

 private:
  DiscoveryReport report_;
};

// The result of ValidateManifestFile. Value type.
struct ManifestValidation {
  bool valid = false;                     // true when the runtime would go on to open the library
  std::vector<ManifestProblem> problems;  // every problem found, in the order they were checked
  std::vector<std::string> warnings;      // accepted with reservations (e.g. newer format minor)
  // What the manifest says: id and version when the manifest passed its checks (else ""), the
  // library (the manifest's folder / "library") whenever that field is a plain file name.
  std::string backend_id;
  std::string version;
  std::string library_path;
};

// Where backends live on this machine (BackendFolders), for installers and tools. Thread-safe.
BACKPLANE_RUNTIME_API BackendFolders GetBackendFolders();

// The search layers Runtime::Create would use with `options` (same rule, nothing scanned):
// every folder in search order with its source and whether it is usable. Thread-safe.
BACKPLANE_RUNTIME_API std::vector<SearchPath> ResolveBackendSearchPaths(const RuntimeOptions& options = {});

// Checks a manifest file the way Runtime::Create does before it opens the library: readable,
// JSON, format version, every field, library file name and presence, platform, ABI and sha256.
// Reports every problem, not only the first, for backend authors' CI. Never opens the library.
// Thread-safe; never throws for bad content.
BACKPLANE_RUNTIME_API ManifestValidation ValidateManifestFile(const std::string& path);

// Owns the libraries it loaded, the backends registered in it and their contexts. Several
// runtimes may exist at once over the same plugins; each opens them and creates its own
// backend instances. Destroying a runtime destroys its backend contexts first and closes its
// libraries last. Const methods are thread-safe.
class BACKPLANE_RUNTIME_API Runtime {
 public:
  // Discovers and registers backends (see README "How backends are found"). One bad plugin
  // never makes this fail: it is recorded in the report and skipped. Throws NoBackendsError
  // when nothing is registered (unless options.allow_no_backends), Exception (kInvalidArgument)
  // for a backend option a backend does not accept (see backend_options), and Exception for a
  // broken invariant. Does not keep `options` beyond the log sink and backend options.
  static std::unique_ptr<Runtime> Create(const RuntimeOptions& options = {});
  ~Runtime();

  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const DiscoveryReport& GetDiscoveryReport() const;
  // Registered backends in the default preference order, the order Optimize prefers them in
  // when the application names none (docs/backend-discovery.md §7): accelerators, then GPUs,
  // then CPU backends, reference implementations last; within each, the SDK's own backends and
  // the folders the application chose before drops; then by id. BackendInfo::preference says
  // why for each. Asks every backend for its devices and availability (the first time for
  // each), which may initialise devices: an application that only uses some backends asks
  // GetBackend for those.
  std::vector<BackendInfo> GetBackends() const;
  // One registered backend, as GetBackends describes it, asking only that one for its devices
  // and availability; nullopt when no backend has this id.
  std::optional<BackendInfo> GetBackend(const BackendId& id) const;
  bool HasBackend(const BackendId& id) const;
  // The context this runtime holds for `id`, or null if the backend made none.
  backend::IBackendContext* GetBackendContext(const BackendId& id) const;

  // Places every layer of `network` on the first backend of options.backends (default: all
  // registered, available ones) whose layer support accepts it, honouring pins and strict
  // mode, after the graph passes; then chooses a tensor-handle strategy for every edge.
  // Throws Exception (kInvalidArgument) naming the layer for an invalid network (unconnected
  // input, cycle, shapes that do not fit), and (kUnsupported) listing every layer that no
  // allowed backend accepts, with each backend's reason. Thread-safe; `network` is not kept.
  OptimizedNetwork Optimize(const Network& network, const OptimizeOptions& options = {}) const;

  // Compiles `network`: per backend a memory manager and a workload factory, every workload
  // created once (weights prepacked once), backend contexts notified before and after. Throws
  // Exception naming the backend and layer when a backend fails; nothing stays loaded then.
  // Thread-safe.
  NetworkId LoadNetwork(OptimizedNetwork network);
  // Waits for runs in progress, notifies backend contexts, releases memory managers. Later
  // runs of its contexts throw. Throws Exception (kNotFound) for an unknown id. Thread-safe.
  void UnloadNetwork(NetworkId id);
  NetworkSignature GetNetworkSignature(NetworkId id) const;
  // A new context with its own working memory. Thread-safe.
  std::unique_ptr<ExecutionContext> CreateExecutionContext(NetworkId id,
                                                           const ExecutionOptions& options = {}) const;

  struct Impl;

 private:
  friend struct detail::ImplAccess;  // the runtime's own code and tests (runtime/src/impl_access.hpp)

  explicit Runtime(std::unique_ptr<Impl> impl);
  // A new instance from the backend's factory; throws Exception (kNotFound) for an unknown id,
  // (kBackendFailure) when the factory fails. The instance must not outlive this runtime.
  std::unique_ptr<backend::IBackend> CreateBackend(const BackendId& id) const;

  std::unique_ptr<Impl> impl_;
};

}  // namespace backplane
