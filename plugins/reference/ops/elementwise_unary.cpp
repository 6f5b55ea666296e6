// ElementwiseUnary: sqrt, exp, log, abs, neg, erf, reciprocal on every element, f32.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>

namespace backplane::reference {

namespace {

template <typename Function>
class UnaryWorkload final : public backend::IWorkload {
 public:
  UnaryWorkload(std::int64_t count, Function function) : count_(count), function_(function) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    float* y = Output<float>(args, 0);
    for (std::int64_t i = 0; i < count_; ++i) y[i] = function_(x[i]);
  }

 private:
  std::int64_t count_;
  Function function_;
};

template <typename Function>
std::unique_ptr<backend::IWorkload> Make(std::int64_t count, Function function) {
  return std::make_unique<UnaryWorkload<Function>>(count, function);
}

}  // namespace

bool IsElementwiseUnarySupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason) || !AllFloat32(layer, reason)) return false;
  const auto& descriptor = DescriptorOf<ElementwiseUnaryDescriptor>(layer);
  if (static_cast<std::uint32_t>(descriptor.operation) > static_cast<std::uint32_t>(UnaryOperation::kReciprocal)) {
    reason = "ElementwiseUnary operation " + std::to_string(static_cast<std::uint32_t>(descriptor.operation)) +
             " is not one CpuRef knows";
    return false;
  }
  if (layer.GetInputInfo(0).shape != layer.GetOutputInfo(0).shape) {
    reason = "ElementwiseUnary output shape " + ToString(layer.GetOutputInfo(0).shape) +
             " differs from input shape " + ToString(layer.GetInputInfo(0).shape);
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateElementwiseUnaryWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<ElementwiseUnaryDescriptor>(layer);
  const std::int64_t count = layer.GetOutputInfo(0).shape.NumElements();
  switch (descriptor.operation) {
    case UnaryOperation::kSqrt: return Make(count, [](float x) { return std::sqrt(x); });
    case UnaryOperation::kExp: return Make(count, [](float x) { return std::exp(x); });
    case UnaryOperation::kLog: return Make(count, [](float x) { return std::log(x); });
    case UnaryOperation::kAbs: return Make(count, [](float x) { return std::fabs(x); });
    case UnaryOperation::kNeg: return Make(count, [](float x) { return -x; });
    case UnaryOperation::kErf: return Make(count, [](float x) { return std::erf(x); });
    case UnaryOperation::kReciprocal: return Make(count, [](float x) { return 1.0f / x; });
  }
  throw Exception(ErrorCode::kUnsupported, "ElementwiseUnary operation " +
                                               std::to_string(static_cast<std::uint32_t>(descriptor.operation)) +
                                               " is not one CpuRef knows");
}

}  // namespace backplane::reference
