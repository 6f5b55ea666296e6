// Host memory for tensors: the host factory's properties (the tensor-handle strategy) and aligned
// buffers (constant folding here; the execution context's arena and scratch above).
#pragma once

#include <backplane/backend/host_tensor_handle.hpp>

#include <cstdlib>
#include <memory>

namespace backplane::graph {

using backend::HostTensorHandle;

// Properties of the host factory, for the tensor-handle strategy.
backend::TensorHandleFactoryProperties HostFactoryProperties();

// 64-byte aligned host memory, freed with the object. Throws std::bad_alloc.
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t size);
  void* data() const { return data_.get(); }
  std::size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, Free> data_;
  std::size_t size_ = 0;
};

}  // namespace backplane::graph
