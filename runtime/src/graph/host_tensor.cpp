#include "graph/host_tensor.hpp"

#include <new>

namespace backplane::graph {

backend::TensorHandleFactoryProperties HostFactoryProperties() {
  backend::TensorHandleFactoryProperties properties;
  properties.supports_map_unmap = true;
  properties.import_sources = static_cast<backend::MemorySourceFlags>(backend::MemorySource::kHost);
  properties.export_sources = static_cast<backend::MemorySourceFlags>(backend::MemorySource::kHost);
  return properties;
}

AlignedBuffer::AlignedBuffer(std::size_t size) : size_(size) {
  if (size == 0) return;
  constexpr std::size_t kAlignment = 64;
  const std::size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  data_.reset(::operator new(rounded, std::align_val_t(kAlignment)));
}

void AlignedBuffer::Free::operator()(void* p) const {
  ::operator delete(p, std::align_val_t(64));
}

}  // namespace backplane::graph
