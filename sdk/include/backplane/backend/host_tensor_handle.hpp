// HostTensorHandle: a tensor handle over host memory it does not own. The runtime's own
// handle kind (kHostFactoryId); backends and tests may use it for host tensors too.
#pragma once

#include <backplane/backend/tensor_handle.hpp>

namespace backplane::backend {

// Points at memory someone else owns (an arena, a user buffer, a constant) and keeps alive
// while the handle is used. Rebinding (Bind, or Import of host memory) is how user buffers are
// used in place. Not thread-safe.
class HostTensorHandle final : public ITensorHandle {
 public:
  HostTensorHandle(TensorInfo info, void* data) : info_(std::move(info)), data_(data) {}
  const TensorInfo& GetInfo() const override { return info_; }
  void* Map() override { return data_; }
  void Unmap() override {}
  bool Import(void* memory, MemorySource source) override {
    if (source != MemorySource::kHost) return false;
    data_ = memory;
    return true;
  }
  void Bind(void* data) { data_ = data; }

 private:
  TensorInfo info_;
  void* data_;
};

}  // namespace backplane::backend
