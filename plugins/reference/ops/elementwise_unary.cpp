// ElementwiseUnary: sqrt, exp, log, abs, neg, erf, reciprocal on every element, f32.
#include "reference_ops.hpp"
#include "map_workload.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>

namespace backplane::reference {


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
  }
  throw Exception(ErrorCode::kUnsupported, "ElementwiseUnary operation " +
                                               std::to_string(static_cast<std::uint32_t>(descriptor.operation)) +
                                               " is not one CpuRef knows");
}

}  // namespace backplane::reference
