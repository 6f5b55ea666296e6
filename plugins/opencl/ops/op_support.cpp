#include "op_support.hpp"

#include <algorithm>
#include <limits>
#include <utility>

namespace backplane::opencl {

bool Fail(std::string& why, std::string what) {
  why = std::move(what);
  return false;
}

bool FitsKernelIndexing(const TensorShape& shape, std::string& reason) {
  if (shape.Rank() > kMaxKernelRank) {
    return Fail(reason, "tensor " + ToString(shape) + " has rank " + std::to_string(shape.Rank()) +
                            "; GpuOpenCl kernels take at most " + std::to_string(kMaxKernelRank) +
                            " dimensions");
  }
  if (shape.NumElements() > std::numeric_limits<std::int32_t>::max()) {
    return Fail(reason, "tensor " + ToString(shape) +
                            " has 2^31 or more elements; GpuOpenCl kernels index with 32-bit integers");
  }
  return true;
}

bool AllFitKernelIndexing(std::initializer_list<TensorShape> shapes, std::string& reason) {
  for (const TensorShape& shape : shapes) {
    if (!FitsKernelIndexing(shape, reason)) return false;
  }
  return true;
}

bool InputFitsKernelIndexing(const backend::ILayerView& layer, std::string& reason) {
  return FitsKernelIndexing(layer.GetInputInfo(0).shape, reason);
}

}  // namespace backplane::opencl
