// Activation: one function applied to every element, f32 (ActivationFunction's definitions in
// op_attributes.def).
#include "reference_ops.hpp"
#include "map_workload.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace backplane::reference {

namespace {

// Overflow-free for any x: exp() only ever sees a non-positive argument.
float Sigmoid(float x) {
  if (x >= 0.0f) return 1.0f / (1.0f + std::exp(-x));
  const float e = std::exp(x);
  return e / (1.0f + e);
}

// log(1 + exp(x)) without overflow: max(x, 0) + log1p(exp(-|x|)).
float Softplus(float x) { return std::max(x, 0.0f) + std::log1p(std::exp(-std::fabs(x))); }

}  // namespace

std::unique_ptr<backend::IWorkload> CreateActivationWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<ActivationDescriptor>(layer);
  const std::int64_t count = layer.GetOutputInfo(0).shape.NumElements();
  const float alpha = descriptor.alpha;
  const float beta = descriptor.beta;
  switch (descriptor.function) {
    case ActivationFunction::kRelu:
      return MakeMapWorkload(count, [](float x) { return x < 0.0f ? 0.0f : x; });
    case ActivationFunction::kClip:
      return MakeMapWorkload(count, [alpha, beta](float x) {
        const float low = x < alpha ? alpha : x;
        return low > beta ? beta : low;
      });
    case ActivationFunction::kSigmoid:
      return MakeMapWorkload(count, [](float x) { return Sigmoid(x); });
    case ActivationFunction::kTanh:
      return MakeMapWorkload(count, [](float x) { return std::tanh(x); });
    case ActivationFunction::kGelu:
      return MakeMapWorkload(count, [](float x) {
        constexpr float kInvSqrt2 = 0.70710678118654752440f;
        return 0.5f * x * (1.0f + std::erf(x * kInvSqrt2));
      });
    case ActivationFunction::kGeluTanh:
      return MakeMapWorkload(count, [](float x) {
        constexpr float kSqrt2OverPi = 0.79788456080286535588f;
        return 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * (x + 0.044715f * x * x * x)));
      });
    case ActivationFunction::kLeakyRelu:
      return MakeMapWorkload(count, [alpha](float x) { return x < 0.0f ? alpha * x : x; });
    case ActivationFunction::kHardSwish:
      return MakeMapWorkload(count, [](float x) {
        const float shifted = x + 3.0f;
        const float relu6 = shifted < 0.0f ? 0.0f : (shifted > 6.0f ? 6.0f : shifted);
        return x * relu6 / 6.0f;
      });
    case ActivationFunction::kSilu:
      return MakeMapWorkload(count, [](float x) { return x * Sigmoid(x); });
    case ActivationFunction::kHardSigmoid:
      return MakeMapWorkload(count, [alpha, beta](float x) {
        const float v = alpha * x + beta;
        return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
      });
    case ActivationFunction::kElu:
      return MakeMapWorkload(count, [alpha](float x) { return x < 0.0f ? alpha * std::expm1(x) : x; });
    case ActivationFunction::kSelu:
      return MakeMapWorkload(count, [alpha, beta](float x) { return beta * (x <= 0.0f ? alpha * std::expm1(x) : x); });
    case ActivationFunction::kCelu:
      return MakeMapWorkload(count, [alpha](float x) {
        return std::max(x, 0.0f) + std::min(0.0f, alpha * std::expm1(x / alpha));
      });
    case ActivationFunction::kSoftplus:
      return MakeMapWorkload(count, [](float x) { return Softplus(x); });
    case ActivationFunction::kSoftsign:
      return MakeMapWorkload(count, [](float x) { return x / (1.0f + std::fabs(x)); });
    case ActivationFunction::kThresholdedRelu:
      return MakeMapWorkload(count, [alpha](float x) { return x > alpha ? x : 0.0f; });
    case ActivationFunction::kMish:
      return MakeMapWorkload(count, [](float x) { return x * std::tanh(Softplus(x)); });
  }
  throw Exception(ErrorCode::kUnsupported, "Activation function " +
                                               std::to_string(static_cast<std::uint32_t>(descriptor.function)) +
                                               " is not one CpuRef knows");
}

}  // namespace backplane::reference
