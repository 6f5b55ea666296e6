#include "op_support.hpp"

#include <algorithm>
#include <limits>

namespace backplane::opencl {

bool HasArity(const backend::ILayerView& layer, std::size_t min_inputs, std::size_t max_inputs,
              std::size_t outputs, std::string& reason) {
  const std::size_t n = layer.GetNumInputs();
  if (n < min_inputs || n > max_inputs) {
    reason = std::string(backend::ToString(layer.GetType())) + " takes " +
             (min_inputs == max_inputs ? std::to_string(min_inputs)
                                       : std::to_string(min_inputs) + " to " + std::to_string(max_inputs)) +
             " inputs, layer '" + layer.GetName() + "' has " + std::to_string(n);
    return false;
  }
  if (layer.GetNumOutputs() != outputs) {
    reason = std::string(backend::ToString(layer.GetType())) + " has " + std::to_string(outputs) +
             " outputs, layer '" + layer.GetName() + "' has " + std::to_string(layer.GetNumOutputs());
    return false;
  }
  return true;
}

bool NormalizeAxis(std::int64_t axis, std::size_t rank, std::size_t& out) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r) return false;
  out = static_cast<std::size_t>(axis < 0 ? axis + r : axis);
  return true;
}

bool Fail(std::string& reason, const backend::ILayerView& layer, const std::string& what) {
  reason = std::string(backend::ToString(layer.GetType())) + " layer '" + layer.GetName() + "': " + what;
  return false;
}

bool FitsKernelIndexing(const backend::ILayerView& layer, const TensorShape& shape, std::string& reason) {
  if (shape.Rank() > kMaxKernelRank) {
    return Fail(reason, layer, "tensor " + ToString(shape) + " has rank " + std::to_string(shape.Rank()) +
                                   "; GpuOpenCl kernels take at most " + std::to_string(kMaxKernelRank) +
                                   " dimensions");
  }
  if (shape.NumElements() > std::numeric_limits<std::int32_t>::max()) {
    return Fail(reason, layer, "tensor " + ToString(shape) +
                                   " has 2^31 or more elements; GpuOpenCl kernels index with 32-bit integers");
  }
  return true;
}

}  // namespace backplane::opencl
