#include "opencl_workload_factory.hpp"

#include "ops/opencl_ops.hpp"

#include "opencl_buffer_handle.hpp"

#include <backplane/exception.hpp>

#include <utility>

namespace backplane::opencl {

namespace {

// An op's workload, plus the one rule the runtime's memory plan needs from a device that runs
// asynchronously: inputs that wrap host memory (imported, not copied) are read before Execute
// returns, since the runtime may reuse that memory for the next step.
class HostSafeWorkload final : public backend::IWorkload {
 public:
  HostSafeWorkload(std::unique_ptr<backend::IWorkload> op, OpenClDevice& device, std::string layer)
      : op_(std::move(op)), device_(device), layer_(std::move(layer)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    op_->Execute(args);
    for (backend::ITensorHandle* input : args.inputs) {
      const auto* buffer = dynamic_cast<const OpenClBufferHandle*>(input);
      if (buffer && buffer->WrapsHostMemory()) {
        CheckCl(clFinish(device_.Queue()),
                ("waiting for layer '" + layer_ + "', which reads imported host memory, on " +
                 device_.Description()).c_str());
        return;
      }
    }
  }
  std::size_t GetScratchSize() const override { return op_->GetScratchSize(); }

 private:
  std::unique_ptr<backend::IWorkload> op_;
  OpenClDevice& device_;
  std::string layer_;
};

}  // namespace

OpenClWorkloadFactory::OpenClWorkloadFactory(std::string backend_label, std::shared_ptr<OpenClDevice> device)
    : backend_label_(std::move(backend_label)), device_(std::move(device)) {
  if (!device_) throw Exception(ErrorCode::kInternal, backend_label_ + ": a workload factory needs a device");
}

std::unique_ptr<backend::IWorkload> OpenClWorkloadFactory::CreateWorkload(const backend::ILayerView& layer) {
  const OpKernel* op = FindOpKernel(layer.GetType());
  std::string reason;
  if (!op) {
    reason = "provides no kernel for " + std::string(backend::ToString(layer.GetType()));
  } else if (IsSupported(*op, layer, reason)) {
    auto workload = op->create(layer, *device_);
    if (!workload) throw Exception(ErrorCode::kBackendFailure, backend_label_ + ": the op for layer '" +
                                                                  layer.GetName() + "' created no workload");
    // Weight uploads the op enqueued complete now, not during the first run.
    CheckCl(clFinish(device_->Queue()),
            ("waiting for the uploads of layer '" + layer.GetName() + "' on " + device_->Description()).c_str());
    return std::make_unique<HostSafeWorkload>(std::move(workload), *device_, layer.GetName());
  }
  throw Exception(ErrorCode::kUnsupported,
                  backend_label_ + " cannot run layer '" + layer.GetName() + "': " + reason);
}

}  // namespace backplane::opencl
