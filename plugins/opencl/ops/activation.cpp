// Activation, f32: every function of ActivationFunction, one element per work-item
// (map_workload.hpp, kernels/elementwise.cl activation_map).
#include "map_workload.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"

#include <backplane/descriptors.hpp>

namespace backplane::opencl {

std::unique_ptr<backend::IWorkload> CreateActivationWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  const auto& d = DescriptorOf<ActivationDescriptor>(layer);
  return std::make_unique<MapWorkload>(layer, device, "activation_map", static_cast<cl_int>(d.function), true, d.alpha,
                                       d.beta);
}

}  // namespace backplane::opencl
