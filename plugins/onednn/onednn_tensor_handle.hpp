// Tensor handles of the factory "Backplane/CpuOneDnn/Blocked": activations kept in whatever
// layout the oneDNN primitive that wrote them chose (nChw16c and friends), so consecutive
// oneDNN layers pass tensors without reordering. The layout travels with the handle: the
// producing workload sets it at Execute, consumers compare it with what they expect.
#pragma once

#include <backplane/backend/tensor_handle.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <memory>

namespace backplane::onednn {

inline constexpr const char* kBlockedFactoryId = "Backplane/CpuOneDnn/Blocked";

// The dense row-major layout of `dims` (NCHW for images), f32 unless told.
dnnl::memory::desc PlainDesc(const dnnl::memory::dims& dims,
                             dnnl::memory::data_type type = dnnl::memory::data_type::f32);
dnnl::memory::dims DimsOf(const TensorInfo& info);
// Whether `desc` (f32, dims [1, C, 1, 1]) holds channel c at element c: dense, channels-last,
// or channel-blocked (one image of one pixel). Pure function.
bool IsChannelOrdered(const dnnl::memory::desc& desc);

// Owns (per execution context) one buffer for blocked content and one for plain content, or
// uses imported host memory as its plain content. Not thread-safe: one run uses it at a time
// (as every ITensorHandle). Map() always returns the dense layout of GetInfo(): blocked
// content is first reordered into the plain buffer, and the handle becomes plain.
class OneDnnTensorHandle final : public backend::ITensorHandle {
 public:
  OneDnnTensorHandle(TensorInfo info, dnnl::engine engine);
  ~OneDnnTensorHandle() override;

  const TensorInfo& GetInfo() const override { return info_; }
  void* Map() override;
  void Unmap() override {}
  // Host memory of at least NumBytes(): used in place as the plain content.
  bool Import(void* memory, backend::MemorySource source) override;

  // For a byte-preserving reshape: makes this handle's content `source`'s current content,
  // without a copy, read in this handle's dims. Holds only when `source` is plain, owns its
  // buffer (imported memory may be reused by its owner once `source` is read), has the same
  // byte count, and this handle has no imported memory it must write into; returns false
  // otherwise, changing nothing. The shared content stays valid while `source` is not written
  // again: within a run each tensor is written once, before its readers run.
  bool Alias(const OneDnnTensorHandle& source);
  // For a transpose: makes this handle's content `source`'s current content (plain or not),
  // without a copy, read as `desc` (source's layout with its axes permuted: this handle's dims).
  // Holds under Alias's conditions but for the plain source; returns false otherwise.
  bool Alias(const OneDnnTensorHandle& source, const dnnl::memory::desc& desc);

  // For an in-place Concat (ops/concat.cpp): from the next PrepareWrite(`desc`) on, this
  // handle's content is written into `concat`'s content at byte `offset` (the slice the concat
  // reads there without a copy) whenever `concat` holds content of layout `concat_desc` in its
  // own buffer or in a slice of its own concat; otherwise into this handle's own buffer, and the
  // concat copies. `concat` must be a handle of the same execution context: handles are made and
  // destroyed together, with no run in between. Returns false, changing nothing, when this
  // handle is already written into another place (a tensor two concats read is written into
  // the first one's) or has imported memory.
  bool WriteInto(const OneDnnTensorHandle& concat, const dnnl::memory::desc& concat_desc, std::size_t offset,
                 const dnnl::memory::desc& desc);

  // The layout of the current content (dims equal GetInfo()'s shape) and where it is.
  const dnnl::memory::desc& Desc() const { return desc_; }
  void* Data() const { return data_; }
  bool IsPlain() const { return plain_; }
  // For a producer: makes the handle hold content of layout `desc` (dims of GetInfo()) and
  // returns where to write it; grows the blocked buffer when needed (the first run). Throws
  // backplane::Exception when memory cannot be had.
  void* PrepareWrite(const dnnl::memory::desc& desc);

 private:
  struct Buffer {
    void* data = nullptr;
    std::size_t size = 0;
  };
  void Reserve(Buffer& buffer, std::size_t size);
  // Where WriteInto's slice of this handle's content is now (nullptr when this handle does not
  // hold content of layout `desc` in its own memory).
  void* SliceOf(const dnnl::memory::desc& desc, std::size_t offset, std::size_t size) const;

  struct Slice {
    const OneDnnTensorHandle* concat = nullptr;
    dnnl::memory::desc concat_desc;
    std::size_t offset = 0;
    dnnl::memory::desc desc;
  };

  TensorInfo info_;
  dnnl::engine engine_;
  dnnl::memory::desc plain_desc_;
  dnnl::memory::desc desc_;
  Buffer blocked_;
  Buffer plain_buffer_;
  void* imported_ = nullptr;
  void* data_ = nullptr;
  bool plain_ = true;
  Slice slice_;  // WriteInto's
};

// Thread-safe; handles it creates share its engine.
class OneDnnTensorHandleFactory final : public backend::ITensorHandleFactory {
 public:
  OneDnnTensorHandleFactory();
  const backend::FactoryId& GetId() const override { return id_; }
  backend::TensorHandleFactoryProperties GetProperties() const override;
  std::unique_ptr<backend::ITensorHandle> CreateTensorHandle(const TensorInfo& info) const override;

 private:
  backend::FactoryId id_ = kBlockedFactoryId;
  dnnl::engine engine_;
};

}  // namespace backplane::onednn
