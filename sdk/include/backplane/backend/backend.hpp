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
#include <backplane/logging.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace backplane::backend {

// Options the application passes through to backends ("GpuOpenCl" -> {"allow_cpu_device": "1"}).
using BackendOptions = std::map<std::string, std::string>;

// An option a backend accepts (IBackend::GetOptionSpecs). The runtime refuses any other key and
// any value that does not parse as `type`, naming the backend, key, value and what is accepted.
struct OptionSpec {
  enum class Type { kString, kInteger, kBoolean };  // integer: decimal; boolean: 0/1/true/false
  std::string key;
  Type type = Type::kString;
  std::string default_value;
  std::string doc;  // one line
};

// What the runtime gives a backend for one runtime (IBackend::CreateBackendContext).
struct BackendConfig {
  BackendOptions options;           // validated against GetOptionSpecs
  std::shared_ptr<ILogSink> log;    // never null; the runtime's channel for this backend
};

class IBackend {
 public:
  virtual ~IBackend();

  virtual BackendId GetId() const = 0;

  virtual std::vector<DeviceInfo> GetDevices() const;
  virtual BackendCapabilities GetCapabilities() const = 0;
  // The options this backend accepts. Default: none.
  virtual std::vector<OptionSpec> GetOptionSpecs() const;

  // Called once per runtime; the runtime holds the result for its lifetime. Default: null.
  virtual std::unique_ptr<IBackendContext> CreateBackendContext(const BackendConfig& config) const;

  // Whether the backend can run here with this runtime's backend context `context` (what
  // CreateBackendContext returned, maybe null), and why not: a GPU backend with no GPU cannot;
  // options may decide it (the OpenCL backend's allow_cpu_device). The runtime asks once, at
  // registration, right after CreateBackendContext. Default: available.
  virtual bool IsAvailable(IBackendContext* context, std::string* reason) const;

  virtual std::shared_ptr<ILayerSupport> GetLayerSupport() const = 0;

  // Default: every layer untouched.
  virtual OptimizationViews OptimizeSubgraph(const SubgraphView& subgraph) const;

  // Called once per loaded network, before CreateWorkloadFactory. Default: null (no manager).
  virtual std::shared_ptr<IMemoryManager> CreateMemoryManager() const;
  // One per loaded network. `memory_manager` is what CreateMemoryManager returned (maybe null).
  // `context` is this runtime's backend context (maybe null: the optimizer folding constants
  // has none, so the factory must work with defaults); it outlives the factory, so the factory
  // and its workloads may keep a pointer to it (options, devices, caches, a thread budget).
  virtual std::unique_ptr<IWorkloadFactory> CreateWorkloadFactory(
      const std::shared_ptr<IMemoryManager>& memory_manager, IBackendContext* context) const = 0;

  // Spec 002. Default registers nothing and prefers nothing (the runtime then copies through
  // host memory at this backend's edges).
  virtual void RegisterTensorHandleFactories(ITensorHandleFactoryRegistry& registry) const;
  virtual std::vector<FactoryId> GetHandleFactoryPreferences() const;
};

}  // namespace backplane::backend
