#include "opencl_workload_factory.hpp"

#include "fusion.hpp"
#include "ops/opencl_ops.hpp"

#include "opencl_buffer_handle.hpp"

#include <backplane/backend/host_tensor_handle.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <new>
#include <vector>

#include <utility>

namespace backplane::opencl {

namespace {

// An op's workload, plus the one rule the runtime's memory plan needs from a device that runs
// asynchronously: inputs that wrap host memory (imported, not copied) are read before Execute
// returns, since the runtime may reuse that memory for the next step. With `always_wait`
// every step waits for its device work (layer_sync).
class HostSafeWorkload final : public backend::IWorkload {
 public:
  HostSafeWorkload(std::unique_ptr<backend::IWorkload> op, OpenClDevice& device, std::string layer, bool always_wait)
      : op_(std::move(op)), device_(device), layer_(std::move(layer)), always_wait_(always_wait) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    op_->Execute(args);
    if (always_wait_ || ReadsHostMemory(args)) {
      CheckCl(clFinish(device_.Queue()), ("waiting for layer '" + layer_ + "' on " + device_.Description()).c_str());
    }
  }
  std::size_t GetScratchSize() const override { return op_->GetScratchSize(); }
  backend::WorkloadInfo GetInfo() const override { return op_->GetInfo(); }

 private:
  static bool ReadsHostMemory(const backend::WorkloadArgs& args) {
    for (backend::ITensorHandle* input : args.inputs) {
      const auto* buffer = dynamic_cast<const OpenClBufferHandle*>(input);
      if (buffer && buffer->WrapsHostMemory()) return true;
    }
    return false;
  }

  std::unique_ptr<backend::IWorkload> op_;
  OpenClDevice& device_;
  std::string layer_;
  bool always_wait_;
};

// Runs `workload` once on zero-filled device tensors of the layer's shapes (constants as
// themselves), then waits: drivers that compile a kernel for its launch sizes at its first launch
// (PoCL does) do it now, during load, so the first run is not the slow one. The tensors are
// freed before returning. Throws what Execute throws.
void WarmUp(const backend::IWorkload& workload, const backend::ILayerView& layer,
            const std::shared_ptr<OpenClDevice>& device) {
  std::vector<std::unique_ptr<backend::ITensorHandle>> owned;
  auto zeros = [&](const TensorInfo& info) {
    auto handle = CreateBufferHandle(device, info);
    const cl_uchar zero = 0;
    const std::size_t bytes = std::max<std::size_t>(info.NumBytes(), 1);
    CheckCl(clEnqueueFillBuffer(device->Queue(), handle->Buffer(), &zero, 1, 0, bytes, 0, nullptr, nullptr),
            ("zero-filling a warm-up tensor of layer '" + layer.GetName() + "'").c_str());
    owned.push_back(std::move(handle));
    return owned.back().get();
  };
  std::vector<backend::ITensorHandle*> inputs, outputs;
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (const void* constant = layer.GetConstantInput(i)) {
      owned.push_back(std::make_unique<backend::HostTensorHandle>(layer.GetInputInfo(i), const_cast<void*>(constant)));
      inputs.push_back(owned.back().get());
    } else {
      inputs.push_back(zeros(layer.GetInputInfo(i)));
    }
  }
  for (std::size_t o = 0; o < layer.GetNumOutputs(); ++o) outputs.push_back(zeros(layer.GetOutputInfo(o)));
  struct AlignedFree {
    void operator()(void* memory) const { ::operator delete(memory, std::align_val_t(64)); }
  };
  const std::size_t scratch_size = workload.GetScratchSize();
  std::unique_ptr<void, AlignedFree> scratch(scratch_size ? ::operator new(scratch_size, std::align_val_t(64)) : nullptr);
  workload.Execute({inputs, outputs, scratch.get()});
  CheckCl(clFinish(device->Queue()),
          ("warming up layer '" + layer.GetName() + "' on " + device->Description()).c_str());
}

}  // namespace

OpenClWorkloadFactory::OpenClWorkloadFactory(std::string backend_label, std::shared_ptr<OpenClDevice> device,
                                             bool layer_sync)
    : backend_label_(std::move(backend_label)), device_(std::move(device)), layer_sync_(layer_sync) {
  if (!device_) throw Exception(ErrorCode::kInternal, backend_label_ + ": a workload factory needs a device");
}

std::unique_ptr<backend::IWorkload> OpenClWorkloadFactory::CreateWorkload(const backend::ILayerView& layer) {
  auto workload = layer.GetType() == backend::LayerType::kPreCompiled
                      ? CreateFusedWorkload(layer, *device_)
                      : Ops().SupportingOrThrow(layer).create(layer, *device_);
  if (!workload) throw Exception(ErrorCode::kBackendFailure, backend_label_ + ": the op for layer '" +
                                                                layer.GetName() + "' created no workload");
  // Weight uploads the op enqueued and first-launch kernel compiles happen now, not in the
  // first run.
  WarmUp(*workload, layer, device_);
  return std::make_unique<HostSafeWorkload>(std::move(workload), *device_, layer.GetName(), layer_sync_);
}

}  // namespace backplane::opencl
