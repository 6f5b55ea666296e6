// ElementwiseUnary, f32: every UnaryOperation, one element per work-item
// (map_workload.hpp, kernels/elementwise.cl unary_map).
#include "map_workload.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"

#include <backplane/descriptors.hpp>

namespace backplane::opencl {

std::unique_ptr<backend::IWorkload> CreateElementwiseUnaryWorkload(const backend::ILayerView& layer,
                                                                   OpenClDevice& device) {
  const auto operation = DescriptorOf<ElementwiseUnaryDescriptor>(layer).operation;
  return std::make_unique<MapWorkload>(layer, device, "unary_map", static_cast<cl_int>(operation), false, 0.0f, 0.0f);
}

}  // namespace backplane::opencl
