// IBackend: the interface every backend implements (spec 001 IBackendInternal, spec 003).
//
// Lifetime (spec 001, 004): a backend object is a stateless, cheap entry point to factory
// functions. The runtime creates instances when it needs them and makes no assumption that an
// instance outlives the objects it created; per-network state lives in workload factories,
// workloads and execution contexts, per-runtime state in the backend context. All const
// methods must be thread-safe.
#pragma once

#include <backplane/backend/backend_context.hpp>
#include <backplane/backend/capabilities.hpp>
#include <backplane/backend/layer_support.hpp>
#include <backplane/backend/memory.hpp>
#include <backplane/backend/optimization.hpp>
#include <backplane/backend/tensor_handle.hpp>
#include <backplane/backend/workload.hpp>
#include <backplane/backend_id.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace backplane::backend {

// Options the application passes through to backends ("GpuOpenCl" -> {"AllowCpuDevice": "1"}).
using BackendOptions = std::map<std::string, std::string>;

class IBackend {
 public:
  virtual ~IBackend();

  virtual BackendId GetId() const = 0;

  // Whether the backend can run here at all (a GPU backend with no GPU cannot), and why not.
  // Default: available.
  virtual bool IsAvailable(std::string* reason) const;
  virtual std::vector<DeviceInfo> GetDevices() const;
  virtual BackendCapabilities GetCapabilities() const = 0;

  virtual std::shared_ptr<ILayerSupport> GetLayerSupport() const = 0;

  // Default: every layer untouched.
  virtual OptimizationViews OptimizeSubgraph(const SubgraphView& subgraph) const;

  // Called once per loaded network, before CreateWorkloadFactory. Default: null (no manager).
  virtual std::shared_ptr<IMemoryManager> CreateMemoryManager() const;
  // One per loaded network; `memory_manager` is what CreateMemoryManager returned (maybe null).
  virtual std::unique_ptr<IWorkloadFactory> CreateWorkloadFactory(
      const std::shared_ptr<IMemoryManager>& memory_manager) const = 0;

  // Called once per runtime; the runtime holds the result for its lifetime. Default: null.
  virtual std::unique_ptr<IBackendContext> CreateBackendContext(const BackendOptions& options) const;

  // Spec 002. Default registers nothing and prefers nothing (the runtime then copies through
  // host memory at this backend's edges).
  virtual void RegisterTensorHandleFactories(ITensorHandleFactoryRegistry& registry) const;
  virtual std::vector<FactoryId> GetHandleFactoryPreferences() const;

  // Asks the backend to allocate through `allocator` from now on. Returns false with a reason
  // when it cannot (default: cannot).
  virtual bool UseCustomMemoryAllocator(std::shared_ptr<ICustomAllocator> allocator,
                                        std::string* reason);

  // Backend API 1.1. CreateWorkloadFactory for a network loaded in a runtime whose backend
  // context for this backend is `context` (what CreateBackendContext returned, maybe null).
  // The context outlives the factory, so the factory and its workloads may keep a pointer to it
  // (options, per-runtime devices and caches, a thread budget). The runtime calls this form
  // when loading networks into backends built for API >= 1.1, and CreateWorkloadFactory for
  // 1.0 backends and where no runtime context applies (the optimizer folding constants), so
  // CreateWorkloadFactory must work with defaults. Default: CreateWorkloadFactory(memory_manager).
  virtual std::unique_ptr<IWorkloadFactory> CreateWorkloadFactoryInContext(
      const std::shared_ptr<IMemoryManager>& memory_manager, IBackendContext* context) const;

  // Backend API 1.1. IsAvailable for a runtime whose backend context for this backend is
  // `context` (maybe null), so that options can decide availability (the OpenCL backend's
  // allow_cpu_device). The runtime asks once, at registration, right after
  // CreateBackendContext, and places layers by that answer. Default: IsAvailable(reason).
  virtual bool IsAvailableInContext(IBackendContext* context, std::string* reason) const;
};

}  // namespace backplane::backend
