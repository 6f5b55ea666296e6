// ElementwiseUnary, f32: sqrt, exp, log, abs, neg, erf, reciprocal, one element per work-item
// (map_workload.hpp, kernels/elementwise.cl unary_map).
#include "map_workload.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

bool IsElementwiseUnarySupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason)) return false;
  const auto operation = DescriptorOf<ElementwiseUnaryDescriptor>(layer).operation;
  if (static_cast<std::uint32_t>(operation) > static_cast<std::uint32_t>(UnaryOperation::kReciprocal)) {
    return Fail(reason, "unary operation " + std::to_string(static_cast<std::uint32_t>(operation)) +
                            " is not one GpuOpenCl knows");
  }
  return SameShape(layer, reason);
}

std::unique_ptr<backend::IWorkload> CreateElementwiseUnaryWorkload(const backend::ILayerView& layer,
                                                                   OpenClDevice& device) {
  std::string reason;
  if (!IsElementwiseUnarySupported(layer, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const auto operation = DescriptorOf<ElementwiseUnaryDescriptor>(layer).operation;
  return std::make_unique<MapWorkload>(layer, device, "unary_map", static_cast<cl_int>(operation), false, 0.0f, 0.0f);
}

}  // namespace backplane::opencl
