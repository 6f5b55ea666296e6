#include "execution/mapped_handle.hpp"

#include <cstring>

namespace backplane::execution {

void CopyThroughHost(backend::ITensorHandle& from, backend::ITensorHandle& to, std::size_t bytes) {
  if (bytes == 0) return;  // an empty tensor's handles may map to no memory at all (nullptr)
  const MappedHandle source(from);
  const MappedHandle target(to);
  std::memcpy(target.data(), source.data(), bytes);
}

}  // namespace backplane::execution
