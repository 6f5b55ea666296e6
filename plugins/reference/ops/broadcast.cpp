#include "broadcast.hpp"

#include <algorithm>
#include <cstring>

namespace backplane::reference {

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
