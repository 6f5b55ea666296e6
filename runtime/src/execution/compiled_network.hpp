// A loaded network: immutable workloads, the tensor table and memory plan, and what keeps the
// backends' code alive. Shared by the runtime and every execution context of the network.
#pragma once

#include "graph/optimizer.hpp"
#include "loading/shared_library.hpp"

#include <backplane/backend/backend.hpp>
#include <backplane/execution.hpp>
#include <backplane/logging.hpp>
#include <backplane/version.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

namespace backplane::execution {

// What loading needs of one registered backend.
struct LoadBackend {
  std::function<std::unique_ptr<backend::IBackend>()> factory;
  backend::IBackendContext* context = nullptr;  // owned by the runtime; may be null
  std::shared_ptr<loading::SharedLibrary> library;  // null for static backends
};

// One tensor of the network.
struct TensorSlot {
  enum class Kind {
    kArena,     // host memory at `offset` in the context's arena
    kConstant,  // host memory of a Constant layer (read-only)
    kInput,     // bound to the user's input `binding` at each run
    kOutput,    // bound to the user's output `binding` at each run
    kDevice,    // a handle from `factory` (not host), one per context
  };
  TensorInfo info;
  Kind kind = Kind::kArena;
  std::size_t offset = 0;
  const void* constant = nullptr;
  std::size_t binding = 0;
  const backend::ITensorHandleFactory* factory = nullptr;
};

// One thing a run does, in order.
struct Step {
  enum class Kind {
    kWorkload,  // run `workload` on `inputs` -> `outputs`
    kCopy,      // copy tensor inputs[0] into outputs[0] (map, memcpy, unmap)
    kImport,    // outputs[0] imports the host memory of inputs[0] (export/import, no copy)
  };
  Kind kind = Kind::kWorkload;
  std::unique_ptr<backend::IWorkload> workload;
  std::vector<std::size_t> inputs;   // tensor indices
  std::vector<std::size_t> outputs;  // tensor indices
  std::string layer;                 // for errors and profiles
  BackendId backend;
  std::string op;                    // for profiles: the layer type, "Copy" or "Import"
  double flops = 0;                  // for profiles: graph::LayerFlops of the layer; 0 for copies
  backend::WorkloadInfo info;        // for profiles: the workload's, read once when it was created
  double load_ms = 0;                // for profiles: how long its backend took to create the workload
};

class CompiledNetwork {
 public:
  // Creates every workload and plans memory over `network` (the placed graph, never null; kept,
  // since workloads may point into its constants). `backends` must hold every backend it is
  // placed on. Notifies their contexts before/after; on failure undoes what it did and throws
  // Exception naming the backend and layer.
  // `context_mutex` serializes calls into backend contexts across all networks of one runtime
  // (IBackendContext promises they never run concurrently); shared so it outlives the runtime.
  static std::shared_ptr<CompiledNetwork> Load(NetworkId id, std::unique_ptr<OptimizedNetwork::Impl> network,
                                               const std::map<BackendId, LoadBackend>& backends,
                                               std::shared_ptr<std::mutex> context_mutex, ILogSink& log);
  ~CompiledNetwork();

  // Notifies contexts, releases memory managers, destroys workloads; waits for runs in
  // progress. Idempotent. Later runs throw.
  void Unload();

  NetworkId GetId() const { return id_; }
  // The runtime's log sink (it outlives every loaded network); null only for a network that
  // was never loaded.
  ILogSink* GetLogSink() const { return log_; }
  const NetworkSignature& GetSignature() const { return signature_; }

  // Read by execution contexts under the lifetime lock.
  const std::vector<TensorSlot>& Tensors() const { return tensors_; }
  const std::vector<Step>& Steps() const { return steps_; }
  std::size_t ArenaSize() const { return arena_size_; }
  std::size_t ScratchSize() const { return scratch_size_; }
  const std::vector<std::size_t>& InputTensors() const { return input_tensors_; }
  const std::vector<std::size_t>& OutputTensors() const { return output_tensors_; }
  // Shared while running, exclusive while unloading.
  std::shared_mutex& LifetimeMutex() const { return lifetime_; }
  // True from the moment Unload starts: new runs refuse to start, so an unload waits only for
  // the runs already in progress (a reader-preferring lock alone could starve it).
  bool IsUnloaded() const { return closing_.load(std::memory_order_acquire); }

 private:
  CompiledNetwork() = default;
  struct BackendState;
  class StepBuilder;

  // Load's jobs, in the order Load runs them. Each throws Exception naming the backend (and the
  // layer, where there is one); Load's rollback (Unload) then undoes what the earlier ones did,
  // so none of them cleans up after itself beyond what its comment says.

  // The state of backend `id` in this network, created on first use from `backends`: the
  // instance, its memory manager, workload factory and tensor-handle factories (owned by
  // backends_; the library, if any, kept in libraries_). Throws kNotFound for a backend not in
  // `backends`, else what the backend throws (Rethrow: "loading network N on B: ...").
  BackendState& BackendFor(const BackendId& id, const std::map<BackendId, LoadBackend>& backends);
  // Creates the state of every backend a layer is placed on and tells each one's context
  // BeforeLoadNetwork, before any workload exists (BackendState::notified records who heard
  // it). Throws kBackendFailure when a context refuses, with its reason.
  void NotifyBeforeLoad(const OptimizedNetwork::Impl& network, const std::map<BackendId, LoadBackend>& backends);
  // Gives every arena tensor its offset (memory_plan.hpp) by its lifetime over steps_;
  // `producer_step` per tensor: the step that writes it, or SIZE_MAX. Sets arena_size_.
  // Throws only std::bad_alloc.
  void PlanArena(const std::vector<std::size_t>& producer_step);
  // Acquires each backend's memory manager and tells its context AfterLoadNetwork
  // (BackendState::acquired records whose manager to release). Throws kBackendFailure (or
  // what the backend throws) naming the backend.
  void AcquireMemoryAndNotifyAfterLoad();

  // Declared first so they are destroyed last: the backends' code must outlive every object
  // it created.
  std::vector<std::shared_ptr<loading::SharedLibrary>> libraries_;
  std::vector<std::unique_ptr<BackendState>> backends_;
  std::unique_ptr<OptimizedNetwork::Impl> network_;  // the graph: constant data the workloads may point into
  NetworkId id_ = 0;
  NetworkSignature signature_;
  std::vector<TensorSlot> tensors_;
  std::vector<Step> steps_;
  std::vector<std::size_t> input_tensors_;   // per signature input
  std::vector<std::size_t> output_tensors_;  // per signature output
  std::size_t arena_size_ = 0;
  std::size_t scratch_size_ = 0;
  mutable std::shared_mutex lifetime_;
  std::atomic<bool> closing_{false};
  bool unloaded_ = false;  // guarded by lifetime_
  ILogSink* log_ = nullptr;
  std::shared_ptr<std::mutex> context_mutex_;
};

// A new context sharing ownership of `network` (its code and constants stay alive as long as
// the context). Throws Exception (kNotFound) if the network is unloaded.
std::unique_ptr<ExecutionContext> MakeExecutionContext(std::shared_ptr<CompiledNetwork> network,
                                                       const ExecutionOptions& options);

}  // namespace backplane::execution
