// Activation: one function applied to every element (ActivationFunction's definitions in
// op_attributes.def), on f32, f64, f16 and bf16, computed in C = ComputeElement<T> (double for
// f64, float otherwise; f16 and bf16 rounded once per element); Relu on the integers too.
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
template <typename C>
C Sigmoid(C x) {
  if (x >= C{0}) return C{1} / (C{1} + std::exp(-x));
  const C e = std::exp(x);
  return e / (C{1} + e);
}

// log(1 + exp(x)) without overflow: max(x, 0) + log1p(exp(-|x|)).
template <typename C>
C Softplus(C x) {
  return std::max(x, C{0}) + std::log1p(std::exp(-std::fabs(x)));
}

template <typename T>
std::unique_ptr<backend::IWorkload> MakeFloating(const ActivationDescriptor& descriptor, std::int64_t count) {
  using C = ComputeElement<T>;
  const C alpha = static_cast<C>(descriptor.alpha);
  const C beta = static_cast<C>(descriptor.beta);
  const C zero{0}, one{1};
  switch (descriptor.function) {
    case ActivationFunction::kRelu:
      return MakeComputedMapWorkload<T>(count, [zero](C x) { return x < zero ? zero : x; });
    case ActivationFunction::kClip:
      return MakeComputedMapWorkload<T>(count, [alpha, beta](C x) {
        const C low = x < alpha ? alpha : x;
        return low > beta ? beta : low;
      });
    case ActivationFunction::kSigmoid:
      return MakeComputedMapWorkload<T>(count, [](C x) { return Sigmoid(x); });
    case ActivationFunction::kTanh:
      return MakeComputedMapWorkload<T>(count, [](C x) { return std::tanh(x); });
    case ActivationFunction::kGelu:
      return MakeComputedMapWorkload<T>(count, [](C x) {
        const C inv_sqrt2 = static_cast<C>(0.70710678118654752440L);
        return C{0.5} * x * (C{1} + std::erf(x * inv_sqrt2));
      });
    case ActivationFunction::kGeluTanh:
      return MakeComputedMapWorkload<T>(count, [](C x) {
        const C sqrt_2_over_pi = static_cast<C>(0.79788456080286535588L);
        return C{0.5} * x * (C{1} + std::tanh(sqrt_2_over_pi * (x + static_cast<C>(0.044715) * x * x * x)));
      });
    case ActivationFunction::kLeakyRelu:
      return MakeComputedMapWorkload<T>(count, [alpha, zero](C x) { return x < zero ? alpha * x : x; });
    case ActivationFunction::kHardSwish:
      return MakeComputedMapWorkload<T>(count, [zero](C x) {
        const C shifted = x + C{3};
        const C relu6 = shifted < zero ? zero : (shifted > C{6} ? C{6} : shifted);
        return x * relu6 / C{6};
      });
    case ActivationFunction::kSilu:
      return MakeComputedMapWorkload<T>(count, [](C x) { return x * Sigmoid(x); });
    case ActivationFunction::kHardSigmoid:
      return MakeComputedMapWorkload<T>(count, [alpha, beta, zero, one](C x) {
        const C v = alpha * x + beta;
        return v < zero ? zero : (v > one ? one : v);
      });
    case ActivationFunction::kElu:
      return MakeComputedMapWorkload<T>(count, [alpha, zero](C x) { return x < zero ? alpha * std::expm1(x) : x; });
    case ActivationFunction::kSelu:
      return MakeComputedMapWorkload<T>(count, [alpha, beta, zero](C x) { return beta * (x <= zero ? alpha * std::expm1(x) : x); });
    case ActivationFunction::kCelu:
      return MakeComputedMapWorkload<T>(count, [alpha, zero](C x) { return std::max(x, zero) + std::min(zero, alpha * std::expm1(x / alpha)); });
    case ActivationFunction::kSoftplus:
      return MakeComputedMapWorkload<T>(count, [](C x) { return Softplus(x); });
    case ActivationFunction::kSoftsign:
      return MakeComputedMapWorkload<T>(count, [one](C x) { return x / (one + std::fabs(x)); });
    case ActivationFunction::kThresholdedRelu:
      return MakeComputedMapWorkload<T>(count, [alpha, zero](C x) { return x > alpha ? x : zero; });
    case ActivationFunction::kMish:
      return MakeComputedMapWorkload<T>(count, [](C x) { return x * std::tanh(Softplus(x)); });
  }
  throw Exception(ErrorCode::kUnsupported, "Activation function " +
                                               std::to_string(static_cast<std::uint32_t>(descriptor.function)) +
                                               " is not one CpuRef knows");
}

}  // namespace

bool IsActivationSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType type = layer.GetInputInfo(0).type;
  const bool relu = DescriptorOf<ActivationDescriptor>(layer).function == ActivationFunction::kRelu;
  if (IsFloatingPointType(type) || (relu && IsArithmeticType(type))) return true;
  reason = std::string("CpuRef runs Activation on f32, f64, f16 and bf16; on integers (here ") + ToString(type) +
           ") only Relu";
  return false;
}

std::unique_ptr<backend::IWorkload> CreateActivationWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<ActivationDescriptor>(layer);
  const std::int64_t count = layer.GetOutputInfo(0).shape.NumElements();
  return VisitElementType(layer.GetInputInfo(0).type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    using T = decltype(element);
    if constexpr (kIsFloatingPointElement<T>) {
      return MakeFloating<T>(descriptor, count);
    } else if constexpr (kIsNumberElement<T>) {  // Relu (IsActivationSupported)
      return MakeMapWorkload<T>(count, [](T x) { return x < T{0} ? T{0} : x; });
    } else {
      throw Exception(ErrorCode::kInternal, "CpuRef has no Activation on bool");
    }
  });
}

}  // namespace backplane::reference
