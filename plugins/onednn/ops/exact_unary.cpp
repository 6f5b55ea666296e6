// ElementwiseUnary ops that oneDNN has not, or has only approximately, as a plain loop over dense
// tensors (the slow path): Erf, the trigonometric and hyperbolic functions, Sign, Ceil, Floor and
// Round (no eltwise) with their <cmath> function, and Log with std::log (eltwise_log is a
// polynomial off by up to about 1.4e-6 near 1, where log(1) must be 0: the ONNX backend suite
// measures it against atol 1e-7). The runtime recognizes the ONNX GELU pattern (Div, Erf, Add,
// Mul, Mul) as one GELU activation (a gelu_erf post-op here); this keeps a form it leaves
// decomposed on CpuOneDnn without round trips to another backend.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"

#include "../onednn_tensor_handle.hpp"

#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>

namespace backplane::onednn {

namespace {

using Function = float (*)(float);

float Sign(float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x); }

// The loop's function and its name for GetInfo; null for the ops oneDNN's eltwise runs.
Function ExactFunction(UnaryOperation operation, const char*& name) {
#define BACKPLANE_EXACT(op, function)          \
  case UnaryOperation::op:                      \
    name = #function " loop";                   \
    return [](float x) { return function(x); }
  switch (operation) {
    BACKPLANE_EXACT(kErf, std::erf);
    BACKPLANE_EXACT(kLog, std::log);
    BACKPLANE_EXACT(kSin, std::sin);
    BACKPLANE_EXACT(kCos, std::cos);
    BACKPLANE_EXACT(kTan, std::tan);
    BACKPLANE_EXACT(kAsin, std::asin);
    BACKPLANE_EXACT(kAcos, std::acos);
    BACKPLANE_EXACT(kAtan, std::atan);
    BACKPLANE_EXACT(kSinh, std::sinh);
    BACKPLANE_EXACT(kCosh, std::cosh);
    BACKPLANE_EXACT(kAsinh, std::asinh);
    BACKPLANE_EXACT(kAcosh, std::acosh);
    BACKPLANE_EXACT(kAtanh, std::atanh);
    BACKPLANE_EXACT(kSign, Sign);
    BACKPLANE_EXACT(kCeil, std::ceil);
    BACKPLANE_EXACT(kFloor, std::floor);
    BACKPLANE_EXACT(kRound, std::nearbyint);  // halves to even
    default: return nullptr;
  }
#undef BACKPLANE_EXACT
}

// Immutable; Execute is thread-safe (all state per run comes in through the args).
class ExactUnaryWorkload final : public backend::IWorkload {
 public:
  ExactUnaryWorkload(Function function, const char* implementation, TensorInfo info, ExecutionSettingsPtr execution)
      : function_(function), implementation_(implementation), info_(std::move(info)), execution_(std::move(execution)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* x = static_cast<const float*>(args.inputs.at(0)->Map());  // dense (reorders if blocked)
    backend::ITensorHandle* out = args.outputs.at(0);
    auto* ours = dynamic_cast<OneDnnTensorHandle*>(out);
    auto* y = static_cast<float*>(ours ? ours->PrepareWrite(PlainDesc(DimsOf(info_))) : out->Map());
    const std::int64_t count = info_.shape.NumElements();
    const Function function = function_;
    GateUnits units(*execution_->gate, execution_->Threads());
#pragma omp parallel for num_threads(units.Units()) schedule(static)
    for (std::int64_t i = 0; i < count; ++i) y[i] = function(x[i]);
  }
  backend::WorkloadInfo GetInfo() const override { return {implementation_, ""}; }

 private:
  Function function_;
  const char* implementation_;  // static string
  TensorInfo info_;
  ExecutionSettingsPtr execution_;
};

}  // namespace

bool HasExactUnaryLoop(UnaryOperation operation) {
  const char* name = nullptr;
  return ExactFunction(operation, name) != nullptr;
}

std::unique_ptr<backend::IWorkload> CreateExactUnaryWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const char* name = nullptr;
  const Function function = ExactFunction(static_cast<const ElementwiseUnaryDescriptor&>(*spec.descriptor).operation, name);
  if (!function) ThrowCreateError(spec.name, "no exact loop for this unary operation");
  if (!spec.post_ops.empty()) ThrowCreateError(spec.name, std::string(name) + " takes no post-ops");
  return std::make_unique<ExactUnaryWorkload>(function, name, spec.output, execution);
}

}  // namespace backplane::onednn
