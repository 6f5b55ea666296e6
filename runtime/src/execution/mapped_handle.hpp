// A tensor handle mapped for as long as a MappedHandle lives: the runtime's one way to map a
// handle, so that every Map is matched by exactly one Unmap on every path, exceptions included.
#pragma once

#include <backplane/backend/tensor_handle.hpp>

#include <cstddef>

namespace backplane::execution {

// Maps `handle` on construction and unmaps it on destruction. Does not own the handle, which
// must outlive it. Move-only; a moved-from MappedHandle unmaps nothing. Not thread-safe (nor is
// the handle).
//
// Fails: the constructor throws what Map throws, and then the handle is not mapped (nothing to
// undo). The destructor cannot report a failing Unmap; what Unmap throws is dropped (the
// runtime's own handles, host and C, never throw there).
class MappedHandle {
 public:
  explicit MappedHandle(backend::ITensorHandle& handle) : handle_(&handle), data_(handle.Map()) {}
  ~MappedHandle() { Release(); }
  MappedHandle(MappedHandle&& other) noexcept : handle_(other.handle_), data_(other.data_) {
    other.handle_ = nullptr;
  }
  MappedHandle& operator=(MappedHandle&& other) noexcept {
    if (this != &other) {
      Release();
      handle_ = other.handle_;
      data_ = other.data_;
      other.handle_ = nullptr;
    }
    return *this;
  }
  MappedHandle(const MappedHandle&) = delete;
  MappedHandle& operator=(const MappedHandle&) = delete;

  // The CPU-addressable first element; valid while this object lives.
  void* data() const { return data_; }

 private:
  void Release() noexcept {
    if (handle_ == nullptr) return;
    try {
      handle_->Unmap();
    } catch (...) {
    }
    handle_ = nullptr;
  }

  backend::ITensorHandle* handle_;
  void* data_;
};

// Copies `bytes` from `from` to `to` through host mappings of both; both are unmapped again
// whether it returns or throws. Throws what either Map throws.
void CopyThroughHost(backend::ITensorHandle& from, backend::ITensorHandle& to, std::size_t bytes);

}  // namespace backplane::execution
