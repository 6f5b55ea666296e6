#include <backplane/backend/broadcast.hpp>

#include <algorithm>

namespace backplane::backend {

bool BroadcastShapes(const TensorShape& a, const TensorShape& b, TensorShape& out, std::string& reason) {
  const std::size_t rank = std::max(a.Rank(), b.Rank());
  std::vector<std::int64_t> dims(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    // i counts from the last dimension.
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
  for (std::size_t i = 0; i < shape.Rank(); ++i) {
    strides[lead + i] = shape[i] == 1 ? 0 : dense[i];
  }
  return strides;
}

}  // namespace backplane::backend
