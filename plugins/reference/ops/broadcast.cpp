#include "broadcast.hpp"

#include <algorithm>
#include <cstring>

namespace backplane::reference {

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

namespace {

template <std::size_t kSize>
void CopyFixed(unsigned char* dst, std::int64_t dst_step, const unsigned char* src, std::int64_t src_step,
               std::int64_t count) {
  const std::int64_t dst_bytes = dst_step * static_cast<std::int64_t>(kSize);
  const std::int64_t src_bytes = src_step * static_cast<std::int64_t>(kSize);
  for (std::int64_t i = 0; i < count; ++i) {
    std::memcpy(dst + i * dst_bytes, src + i * src_bytes, kSize);
  }
}

}  // namespace

void CopyElements(void* dst, std::int64_t dst_step, const void* src, std::int64_t src_step, std::int64_t count,
                  std::size_t element_size) {
  if (count <= 0) return;
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (dst_step == 1 && src_step == 1) {
    std::memcpy(d, s, static_cast<std::size_t>(count) * element_size);
    return;
  }
  switch (element_size) {
    case 1: return CopyFixed<1>(d, dst_step, s, src_step, count);
    case 2: return CopyFixed<2>(d, dst_step, s, src_step, count);
    case 4: return CopyFixed<4>(d, dst_step, s, src_step, count);
    case 8: return CopyFixed<8>(d, dst_step, s, src_step, count);
    default: break;
  }
  const auto size = static_cast<std::int64_t>(element_size);
  for (std::int64_t i = 0; i < count; ++i) {
    std::memcpy(d + i * dst_step * size, s + i * src_step * size, element_size);
  }
}

}  // namespace backplane::reference
