#include "execution/mapped_handle.hpp"

#include <cstring>

namespace backplane::execution {

void CopyThroughHost(backend::ITensorHandle& from, backend::ITensorHandle& to, std::size_t bytes) {
  const MappedHandle source(from);
  const MappedHandle target(to);
  std::memcpy(target.data(), source.data(), bytes);
}

}  // namespace backplane::execution
