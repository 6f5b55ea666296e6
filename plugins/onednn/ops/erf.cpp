// ElementwiseUnary Erf: oneDNN has no erf eltwise, so this one op is a plain loop (std::erf)
// over dense tensors. The runtime recognizes the ONNX GELU pattern (Div, Erf, Add, Mul, Mul) as
// one GELU activation (a gelu_erf post-op here); this op keeps a form it leaves decomposed (a
// layer of it pinned) on CpuOneDnn without round trips to another backend. The slow path.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"

#include "../onednn_tensor_handle.hpp"

#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>

namespace backplane::onednn {

namespace {

// Immutable; Execute is thread-safe (all state per run comes in through the args).
class ErfWorkload final : public backend::IWorkload {
 public:
  ErfWorkload(std::string name, TensorInfo info, ExecutionSettingsPtr execution)
      : name_(std::move(name)), info_(std::move(info)), execution_(std::move(execution)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* x = static_cast<const float*>(args.inputs.at(0)->Map());  // dense (reorders if blocked)
    backend::ITensorHandle* out = args.outputs.at(0);
    auto* ours = dynamic_cast<OneDnnTensorHandle*>(out);
    auto* y = static_cast<float*>(ours ? ours->PrepareWrite(PlainDesc(DimsOf(info_))) : out->Map());
    const std::int64_t count = info_.shape.NumElements();
    GateUnits units(*execution_->gate, execution_->settings.threads);
#pragma omp parallel for num_threads(units.Units()) schedule(static)
    for (std::int64_t i = 0; i < count; ++i) y[i] = std::erf(x[i]);
  }
  backend::WorkloadInfo GetInfo() const override { return {"std::erf loop", ""}; }  // oneDNN has no erf

 private:
  std::string name_;
  TensorInfo info_;
  ExecutionSettingsPtr execution_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateErfWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  if (!spec.post_ops.empty()) ThrowCreateError(spec.name, "erf takes no post-ops");
  return std::make_unique<ErfWorkload>(spec.name, spec.output, execution);
}

}  // namespace backplane::onednn
