// Activation, f32: every function of ActivationFunction, one element per work-item
// (map_workload.hpp, kernels/elementwise.cl activation_map).
#include "map_workload.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

bool IsActivationSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason)) return false;
  const auto function = DescriptorOf<ActivationDescriptor>(layer).function;
  if (static_cast<std::uint32_t>(function) > static_cast<std::uint32_t>(ActivationFunction::kHardSigmoid)) {
    return Fail(reason, "activation function " + std::to_string(static_cast<std::uint32_t>(function)) +
                            " is not one GpuOpenCl knows");
  }
  return SameShape(layer, reason);
}

std::unique_ptr<backend::IWorkload> CreateActivationWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  std::string reason;
  if (!IsActivationSupported(layer, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const auto& d = DescriptorOf<ActivationDescriptor>(layer);
  return std::make_unique<MapWorkload>(layer, device, "activation_map", static_cast<cl_int>(d.function), true, d.alpha,
                                       d.beta);
}

}  // namespace backplane::opencl
