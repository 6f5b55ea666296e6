// Tensor handles of the factory "Backplane/CpuOneDnn/Blocked": activations kept in whatever
// layout the oneDNN primitive that wrote them chose (nChw16c and friends), so consecutive
// oneDNN layers pass tensors without reordering. The layout travels with the handle: the
// producing workload sets it at Execute, consumers compare it with what they expect.
#pragma once

#include "desc_pool.hpp"
#include "dnnl_desc.hpp"

#include <backplane/backend/tensor_handle.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace backplane::onednn {

inline constexpr const char* kBlockedFactoryId = "Backplane/CpuOneDnn/Blocked";

// Whether `desc` (f32, dims [1, C, 1, 1]) holds channel c at element c: dense, channels-last,
// or channel-blocked (one image of one pixel). Pure function.
bool IsChannelOrdered(const dnnl::memory::desc& desc);

// Memory blocks for tensor content, shared by the handles of one factory (every execution
// context of one loaded network). A handle gives its block back once the last reader of its
// content has run (OneDnnTensorHandle::ReadDone), and the next tensor written takes the block
// given back last that fits: memory a layer just read, still in cache, instead of a buffer per
// tensor that every run streams through memory. Small tensors (size classes below
// kLargeTensorBytes) take blocks of their size class (classes an eighth of a power of two
// apart). Large ones, which fill the per-core caches, all share blocks of one capacity (at least
// the largest tensor the pool expects), so each takes the block the previous large tensor left
// in cache whatever their sizes: measured on mobilenet_v2, its 112x112x96 depthwise layer then
// reads its input in 0.15 instead of 0.19 ms. A block's pages are touched only as far as the
// tensors it held reach, so resident memory stays near the peak of live tensors; a class (the
// large blocks one class) holds at most as many blocks as were ever in use at once in it.
// Thread-safe (contexts run concurrently). Blocks in use belong to the handles holding them (a
// reshape's output shares its input's); free blocks to the pool, which frees them when it goes
// (blocks out keep it alive).
class BlockPool : public std::enable_shared_from_this<BlockPool> {
 public:
  // Tensors whose size class is at least this many bytes share the large blocks.
  static constexpr std::size_t kLargeTensorBytes = 256 * 1024;

  struct Block {
    std::shared_ptr<std::uint8_t> data;  // 64-byte aligned; back to the pool with its last holder
    std::size_t capacity = 0;            // bytes
  };

  ~BlockPool();
  // Makes large blocks made from now on at least `bytes` long (a tensor the pool will hold).
  void Expect(std::size_t bytes);
  // A block of at least `size` bytes. Throws backplane::Exception when memory cannot be had.
  Block Take(std::size_t size);
  // The size class `size` rounds up to (at least 64 bytes). Pure function.
  static std::size_t SizeClass(std::size_t size);
  std::size_t FreeBlocks() const;

 private:
  void GiveBack(std::uint8_t* block, std::size_t capacity);

  mutable std::mutex mutex_;
  // Small blocks per class, and large ones; last given back last.
  std::unordered_map<std::size_t, std::vector<std::uint8_t*>> free_;
  struct FreeBlock {
    std::uint8_t* data;
    std::size_t capacity;
  };
  std::vector<FreeBlock> free_large_;
  std::size_t large_capacity_ = 0;  // of large blocks made from now on (Expect, the largest taken)
};

// Holds (per execution context) its content in a block of the factory's pool, or in imported
// host memory (plain content only). Not thread-safe: one run uses it at a time (as every
// ITensorHandle). Map() always returns the dense layout of GetInfo(): blocked content is first
// reordered into a plain buffer of the handle's own, and the handle becomes plain.
class OneDnnTensorHandle final : public backend::ITensorHandle {
 public:
  // `pool` supplies content memory, `descs` keeps the layouts (private ones when null).
  OneDnnTensorHandle(TensorInfo info, dnnl::engine engine, std::shared_ptr<BlockPool> pool = nullptr,
                     std::shared_ptr<DescPool> descs = nullptr);
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
  const dnnl::memory::desc& Desc() const { return *desc_; }
  void* Data() const { return data_; }
  bool IsPlain() const { return plain_; }
  // For a producer: makes the handle hold content of layout `desc` (dims of GetInfo()) and
  // returns where to write it; takes a block from the pool when the handle holds none large
  // enough. Throws backplane::Exception when memory cannot be had.
  void* PrepareWrite(const dnnl::memory::desc& desc);

  // Run-time lifetime, reported by the workloads of the factory's backend
  // (onednn_workload_factory.cpp): the content was just produced and `readers` layer inputs
  // will read it (0: not counted, the content is kept); one of them has read it. After the last
  // read the handle gives its block back to the pool and holds no content until the next
  // PrepareWrite. Readers on other backends never report, so such content is kept; so is a
  // concat's (its inputs write into its block before it runs) and imported memory.
  void Produced(std::size_t readers) { readers_left_ = readers; }
  void ReadDone();

 private:
  struct Buffer {
    void* data = nullptr;
    std::size_t size = 0;
  };
  void Reserve(Buffer& buffer, std::size_t size);
  // Holds content memory of at least `size` bytes in block_ (keeping the one held when large
  // enough and not shared).
  void TakeBlock(std::size_t size);
  // Where WriteInto's slice of this handle's content is now (nullptr when this handle does not
  // hold content of layout `desc` in its own memory).
  void* SliceOf(const dnnl::memory::desc& desc, std::size_t offset, std::size_t size) const;
  // Makes `desc` the layout of the content (desc_, plain_): the pool's copy, looked up only when
  // it is neither the plain layout nor the one written last.
  void SetLayout(const dnnl::memory::desc& desc);

  struct Slice {
    const OneDnnTensorHandle* concat = nullptr;
    dnnl::memory::desc concat_desc;
    std::size_t offset = 0;
    dnnl::memory::desc desc;
  };

  TensorInfo info_;
  dnnl::engine engine_;
  std::shared_ptr<BlockPool> pool_;
  std::shared_ptr<DescPool> descs_;
  SharedDesc plain_desc_;  // GetInfo()'s dims, dense
  SharedDesc desc_;        // the content's layout: plain_desc_ or written_
  SharedDesc written_;     // the last layout written other than the plain one (or null)
  std::shared_ptr<std::uint8_t> block_;  // content memory (shared with aliases), or null
  std::size_t block_size_ = 0;            // block_'s capacity
  Buffer plain_buffer_;                  // Map()'s plain copy of blocked content
  void* imported_ = nullptr;
  void* data_ = nullptr;
  bool plain_ = true;
  std::unique_ptr<Slice> slice_;  // WriteInto's, out of line (two descs, ~1.4 KB in oneDNN 2.x): few handles have one
  std::size_t readers_left_ = 0;
  // A concat other handles write into (WriteInto): keeps its block across runs. Set through a
  // const reference by its writers when the concat first runs in this context.
  mutable bool written_into_ = false;
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
  std::shared_ptr<BlockPool> pool_;  // the blocks of every handle it creates
  std::shared_ptr<DescPool> descs_;  // their layouts
};

}  // namespace backplane::onednn
