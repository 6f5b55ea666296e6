// CpuExample: a small but complete Backplane backend. It runs three f32 layers on the host
// CPU (ElementwiseBinary Add and Mul of same-shaped tensors, Activation Relu) and refuses
// everything else with a reason, so the runtime places those layers on another backend.
#pragma once

#include <backplane/backend/backend.hpp>
#include <backplane/backend/op_table.hpp>

#include <memory>
#include <string>
#include <vector>

namespace example {

// Stateless, as spec 001 asks: every call builds what it returns. Thread-safe.
class ExampleBackend final : public backplane::backend::IBackend {
 public:
  backplane::BackendId GetId() const override;
  std::vector<backplane::backend::DeviceInfo> GetDevices() const override;
  // Must agree with capabilities.json (the manifest's copy, read before the library opens).
  backplane::backend::BackendCapabilities GetCapabilities() const override;
  // The common option "threads" (sdk-run --threads gives it to every backend), accepted and
  // ignored: CpuExample is single-threaded. The runtime refuses every other key.
  std::vector<backplane::backend::OptionSpec> GetOptionSpecs() const override;
  std::shared_ptr<backplane::backend::ILayerSupport> GetLayerSupport() const override;
  // Tensors arrive as host memory (no tensor-handle factory of its own), so no memory manager;
  // and no backend context (no options, no per-runtime state): both arguments are null here.
  std::unique_ptr<backplane::backend::IWorkloadFactory> CreateWorkloadFactory(
      const std::shared_ptr<backplane::backend::IMemoryManager>& memory_manager,
      backplane::backend::IBackendContext* context) const override;
};

// One row of CpuExample's op table: the layer type, whether CpuExample runs a layer of it
// (false with the plain `why` when not: the table adds "CpuExample cannot run layer '<name>': "),
// and its workload (example_workloads.cpp), made only for layers is_supported accepted.
struct ExampleOp {
  backplane::backend::LayerType type;
  bool (*is_supported)(const backplane::backend::ILayerView& layer, std::string& why);
  std::unique_ptr<backplane::backend::IWorkload> (*create)(const backplane::backend::ILayerView& layer);
};

// The op table the layer support, the workload factory and the capabilities read. A static;
// thread-safe.
const backplane::backend::OpTable<ExampleOp>& Ops();

}  // namespace example
