// ElementwiseUnary: every UnaryOperation on every element, f32 (Round: halves to even, the
// default rounding mode's std::nearbyint), and Not on bool (bytes, 0 or 1).
#include "reference_ops.hpp"
#include "map_workload.hpp"
#include "tensor_access.hpp"

#include "../reference_backend.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>

namespace backplane::reference {


bool IsElementwiseUnarySupported(const backend::ILayerView& layer, std::string& reason) {
  if (DescriptorOf<ElementwiseUnaryDescriptor>(layer).operation == UnaryOperation::kNot) return true;  // bool: the op schema's rule
  return backend::AllFloat32<kReferenceBackendId>(layer, reason);
}

std::unique_ptr<backend::IWorkload> CreateElementwiseUnaryWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<ElementwiseUnaryDescriptor>(layer);
  const std::int64_t count = layer.GetOutputInfo(0).shape.NumElements();
  switch (descriptor.operation) {
    case UnaryOperation::kSqrt: return MakeMapWorkload(count, [](float x) { return std::sqrt(x); });
    case UnaryOperation::kExp: return MakeMapWorkload(count, [](float x) { return std::exp(x); });
    case UnaryOperation::kLog: return MakeMapWorkload(count, [](float x) { return std::log(x); });
    case UnaryOperation::kAbs: return MakeMapWorkload(count, [](float x) { return std::fabs(x); });
    case UnaryOperation::kNeg: return MakeMapWorkload(count, [](float x) { return -x; });
    case UnaryOperation::kErf: return MakeMapWorkload(count, [](float x) { return std::erf(x); });
    case UnaryOperation::kReciprocal: return MakeMapWorkload(count, [](float x) { return 1.0f / x; });
    case UnaryOperation::kSin: return MakeMapWorkload(count, [](float x) { return std::sin(x); });
    case UnaryOperation::kCos: return MakeMapWorkload(count, [](float x) { return std::cos(x); });
    case UnaryOperation::kTan: return MakeMapWorkload(count, [](float x) { return std::tan(x); });
    case UnaryOperation::kAsin: return MakeMapWorkload(count, [](float x) { return std::asin(x); });
    case UnaryOperation::kAcos: return MakeMapWorkload(count, [](float x) { return std::acos(x); });
    case UnaryOperation::kAtan: return MakeMapWorkload(count, [](float x) { return std::atan(x); });
    case UnaryOperation::kSinh: return MakeMapWorkload(count, [](float x) { return std::sinh(x); });
    case UnaryOperation::kCosh: return MakeMapWorkload(count, [](float x) { return std::cosh(x); });
    case UnaryOperation::kAsinh: return MakeMapWorkload(count, [](float x) { return std::asinh(x); });
    case UnaryOperation::kAcosh: return MakeMapWorkload(count, [](float x) { return std::acosh(x); });
    case UnaryOperation::kAtanh: return MakeMapWorkload(count, [](float x) { return std::atanh(x); });
    case UnaryOperation::kSign:
      return MakeMapWorkload(count, [](float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : x); });
    case UnaryOperation::kCeil: return MakeMapWorkload(count, [](float x) { return std::ceil(x); });
    case UnaryOperation::kFloor: return MakeMapWorkload(count, [](float x) { return std::floor(x); });
    case UnaryOperation::kRound: return MakeMapWorkload(count, [](float x) { return std::nearbyint(x); });
    case UnaryOperation::kNot:
      return MakeMapWorkload<std::uint8_t>(count, [](std::uint8_t x) { return static_cast<std::uint8_t>(x == 0); });
  }
  throw Exception(ErrorCode::kUnsupported, "ElementwiseUnary operation " +
                                               std::to_string(static_cast<std::uint32_t>(descriptor.operation)) +
                                               " is not one CpuRef knows");
}

}  // namespace backplane::reference
