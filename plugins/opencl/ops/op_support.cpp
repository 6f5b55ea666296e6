#include "op_support.hpp"

#include <algorithm>
#include <limits>

namespace backplane::opencl {

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

bool AllFitKernelIndexing(const backend::ILayerView& layer, std::initializer_list<TensorShape> shapes,
                          std::string& reason) {
  for (const TensorShape& shape : shapes) {
    if (!FitsKernelIndexing(layer, shape, reason)) return false;
  }
  return true;
}

}  // namespace backplane::opencl
