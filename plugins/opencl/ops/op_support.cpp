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

bool BroadcastShapes(const TensorShape& a, const TensorShape& b, TensorShape& out, std::string& reason) {
  const std::size_t rank = std::max(a.Rank(), b.Rank());
  std::vector<std::int64_t> dims(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < a.Rank() ? a[a.Rank() - 1 - i] : 1;
    const std::int64_t db = i < b.Rank() ? b[b.Rank() - 1 - i] : 1;
    if (da != db && da != 1 && db != 1) {
      reason = "shapes " + ToString(a) + " and " + ToString(b) + " do not broadcast: dimension " +
               std::to_string(da) + " against " + std::to_string(db) + " (" + std::to_string(i + 1) +
               " from the last)";
      return false;
    }
    dims[rank - 1 - i] = da == 1 ? db : da;
  }
  out = TensorShape(std::move(dims));
  return true;
}

bool BroadcastsTo(const TensorShape& shape, const TensorShape& target) {
  if (shape.Rank() > target.Rank()) return false;
  const std::size_t lead = target.Rank() - shape.Rank();
  for (std::size_t i = 0; i < shape.Rank(); ++i) {
    if (shape[i] != 1 && shape[i] != target[lead + i]) return false;
  }
  return true;
}

std::vector<std::int64_t> DenseStrides(const TensorShape& shape) {
  std::vector<std::int64_t> strides(shape.Rank());
  std::int64_t stride = 1;
  for (std::size_t i = shape.Rank(); i-- > 0;) {
    strides[i] = stride;
    stride *= shape[i];
  }
  return strides;
}

std::vector<std::int64_t> BroadcastStrides(const TensorShape& shape, const TensorShape& target) {
  const std::vector<std::int64_t> dense = DenseStrides(shape);
  std::vector<std::int64_t> strides(target.Rank(), 0);
  const std::size_t lead = target.Rank() - shape.Rank();
  for (std::size_t i = 0; i < shape.Rank(); ++i) strides[lead + i] = shape[i] == 1 ? 0 : dense[i];
  return strides;
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
