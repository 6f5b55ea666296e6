#include "onednn_tensor_handle.hpp"

#include "dnnl_compat.hpp"

#include <backplane/backend/broadcast.hpp>
#include <backplane/exception.hpp>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace backplane::onednn {

bool IsChannelOrdered(const dnnl::memory::desc& desc) {
  using tag = dnnl::memory::format_tag;
  const auto dims = compat::Dims(desc);
  if (dims.size() != 4 || dims[0] != 1 || dims[2] != 1 || dims[3] != 1) return false;
  for (const tag layout : {tag::nchw, tag::nhwc, tag::nChw16c, tag::nChw8c, tag::nChw4c}) {
    if (desc == dnnl::memory::desc(dims, dnnl::memory::data_type::f32, layout)) return true;
  }
  return false;
}

BlockPool::~BlockPool() {
  for (auto& [size_class, blocks] : free_) {
    for (std::uint8_t* block : blocks) std::free(block);
  }
  for (const FreeBlock& block : free_large_) std::free(block.data);
}

std::size_t BlockPool::SizeClass(std::size_t size) {
  std::size_t power = 64;
  while (power * 2 <= size) power *= 2;
  const std::size_t step = std::max<std::size_t>(power / 8, 64);
  return (std::max<std::size_t>(size, 64) + step - 1) / step * step;
}

void BlockPool::Expect(std::size_t bytes) {
  const std::size_t size_class = SizeClass(bytes);
  if (size_class < kLargeTensorBytes) return;
  std::lock_guard<std::mutex> lock(mutex_);
  large_capacity_ = std::max(large_capacity_, size_class);
}

BlockPool::Block BlockPool::Take(std::size_t size) {
  // Large or not by the size class, as GiveBack sorts the blocks.
  std::size_t capacity = SizeClass(size);
  const bool large = capacity >= kLargeTensorBytes;
  std::uint8_t* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (large) {
      for (auto free = free_large_.rbegin(); free != free_large_.rend(); ++free) {
        if (free->capacity < size) continue;
        block = free->data;
        capacity = free->capacity;
        free_large_.erase(std::next(free).base());
        break;
      }
      if (!block) capacity = large_capacity_ = std::max(large_capacity_, capacity);
    } else {
      auto found = free_.find(capacity);
      if (found != free_.end() && !found->second.empty()) {
        block = found->second.back();
        found->second.pop_back();
      }
    }
  }
  if (!block) block = static_cast<std::uint8_t*>(std::aligned_alloc(64, capacity));
  if (!block) {
    throw Exception(ErrorCode::kBackendFailure,
                    "CpuOneDnn could not allocate " + std::to_string(capacity) + " bytes for a tensor");
  }
  auto pool = shared_from_this();
  auto give_back = [pool, capacity](std::uint8_t* given) { pool->GiveBack(given, capacity); };
  return {std::shared_ptr<std::uint8_t>(block, give_back), capacity};
}

void BlockPool::GiveBack(std::uint8_t* block, std::size_t capacity) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (capacity >= kLargeTensorBytes) {
    free_large_.push_back({block, capacity});
  } else {
    free_[capacity].push_back(block);
  }
}

std::size_t BlockPool::FreeBlocks() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t count = 0;
  for (const auto& [size_class, blocks] : free_) count += blocks.size();
  return count + free_large_.size();
}

OneDnnTensorHandle::OneDnnTensorHandle(TensorInfo info, dnnl::engine engine, std::shared_ptr<BlockPool> pool,
                                       std::shared_ptr<DescPool> descs)
    : info_(std::move(info)),
      engine_(std::move(engine)),
      pool_(pool ? std::move(pool) : std::make_shared<BlockPool>()),
      descs_(descs ? std::move(descs) : std::make_shared<DescPool>()) {
  if (info_.type != DataType::kFloat32) {
    throw Exception(ErrorCode::kUnsupported, std::string("CpuOneDnn tensor handles hold f32 tensors, not ") +
                                                 ToString(info_.type));
  }
  plain_desc_ = descs_->Intern(PlainDesc(DimsOf(info_)));
  desc_ = plain_desc_;
}

void OneDnnTensorHandle::SetLayout(const dnnl::memory::desc& desc) {
  plain_ = desc == *plain_desc_;
  if (plain_) {
    desc_ = plain_desc_;
    return;
  }
  if (!written_ || *written_ != desc) written_ = descs_->Intern(desc);
  desc_ = written_;
}

OneDnnTensorHandle::~OneDnnTensorHandle() { std::free(plain_buffer_.data); }

void OneDnnTensorHandle::TakeBlock(std::size_t size) {
  // A block shared with an alias (a reshape's output of last run) holds the alias's content.
  if (block_ && block_.use_count() == 1 && block_size_ >= size) return;
  block_.reset();  // back to the pool first (when not shared): it may be the block that fits
  BlockPool::Block block = pool_->Take(size);
  block_ = std::move(block.data);
  block_size_ = block.capacity;
}

void OneDnnTensorHandle::ReadDone() {
  if (readers_left_ == 0 || --readers_left_ > 0 || written_into_ || imported_) return;
  if (data_ != plain_buffer_.data) {
    data_ = nullptr;  // no content until the next PrepareWrite
    desc_ = plain_desc_;
    plain_ = true;
  }
  block_.reset();
}

void OneDnnTensorHandle::Reserve(Buffer& buffer, std::size_t size) {
  if (buffer.size >= size && buffer.data) return;
  const std::size_t rounded = (std::max<std::size_t>(size, 64) + 63) / 64 * 64;
  void* data = std::aligned_alloc(64, rounded);
  if (!data) {
    throw Exception(ErrorCode::kBackendFailure,
                    "CpuOneDnn could not allocate " + std::to_string(rounded) + " bytes for a tensor");
  }
  std::free(buffer.data);
  buffer.data = data;
  buffer.size = rounded;
}

void* OneDnnTensorHandle::SliceOf(const dnnl::memory::desc& desc, std::size_t offset, std::size_t size) const {
  const bool own = data_ && data_ != imported_ && *desc_ == desc;
  return own && offset + size <= desc.get_size() ? static_cast<std::uint8_t*>(data_) + offset : nullptr;
}

bool OneDnnTensorHandle::WriteInto(const OneDnnTensorHandle& concat, const dnnl::memory::desc& concat_desc,
                                   std::size_t offset, const dnnl::memory::desc& desc) {
  if (imported_ || &concat == this) return false;
  if (slice_) return slice_->concat == &concat && slice_->offset == offset && slice_->desc == desc;
  slice_ = std::make_unique<Slice>(Slice{&concat, concat_desc, offset, desc});
  concat.written_into_ = true;
  return true;
}

void* OneDnnTensorHandle::PrepareWrite(const dnnl::memory::desc& desc) {
  if (slice_ && !imported_ && desc == slice_->desc) {
    if (void* slice = slice_->concat->SliceOf(slice_->concat_desc, slice_->offset, desc.get_size())) {
      block_.reset();  // written into the concat's block: its own goes back
      data_ = slice;
      SetLayout(desc);
      return data_;
    }
  }
  SetLayout(desc);
  if (plain_ && imported_) {
    data_ = imported_;
  } else {
    TakeBlock(desc.get_size());
    data_ = block_.get();
  }
  return data_;
}

void* OneDnnTensorHandle::Map() {
  if (!data_) return PrepareWrite(*plain_desc_);  // never written: plain, uninitialised
  if (plain_) return data_;
  void* target = imported_;
  if (!target) {
    Reserve(plain_buffer_, info_.NumBytes());
    target = plain_buffer_.data;
  }
  try {
    dnnl::memory from(*desc_, engine_, data_);
    dnnl::memory to(*plain_desc_, engine_, target);
    dnnl::stream stream(engine_);
    dnnl::reorder(from, to).execute(stream, from, to);
    stream.wait();
  } catch (const dnnl::error& error) {
    throw Exception(ErrorCode::kBackendFailure,
                    std::string("CpuOneDnn could not reorder a tensor into its plain layout: ") + error.what());
  }
  data_ = target;
  desc_ = plain_desc_;
  plain_ = true;
  return data_;
}

bool OneDnnTensorHandle::Import(void* memory, backend::MemorySource source) {
  if (source != backend::MemorySource::kHost || memory == nullptr) return false;
  block_.reset();  // the content is the caller's memory from now on
  imported_ = memory;
  data_ = memory;
  desc_ = plain_desc_;
  plain_ = true;
  return true;
}

bool OneDnnTensorHandle::Alias(const OneDnnTensorHandle& source) {
  return source.plain_ && Alias(source, *plain_desc_);
}

bool OneDnnTensorHandle::Alias(const OneDnnTensorHandle& source, const dnnl::memory::desc& desc) {
  if (imported_ || !source.data_ || source.data_ == source.imported_ || desc.get_size() != source.desc_->get_size() ||
      source.info_.NumBytes() != info_.NumBytes()) {
    return false;
  }
  // Shares the source's block (kept while either holds it); other memory stays the source's.
  block_ = source.data_ == source.block_.get() ? source.block_ : nullptr;
  block_size_ = block_ ? source.block_size_ : 0;
  data_ = source.data_;
  SetLayout(desc);
  return true;
}

OneDnnTensorHandleFactory::OneDnnTensorHandleFactory()
    : engine_(dnnl::engine::kind::cpu, 0), pool_(std::make_shared<BlockPool>()), descs_(std::make_shared<DescPool>()) {}

backend::TensorHandleFactoryProperties OneDnnTensorHandleFactory::GetProperties() const {
  backend::TensorHandleFactoryProperties properties;
  properties.supports_map_unmap = true;
  properties.import_sources = static_cast<backend::MemorySourceFlags>(backend::MemorySource::kHost);
  properties.export_sources = static_cast<backend::MemorySourceFlags>(backend::MemorySource::kHost);
  return properties;
}

std::unique_ptr<backend::ITensorHandle> OneDnnTensorHandleFactory::CreateTensorHandle(const TensorInfo& info) const {
  pool_->Expect(info.NumBytes());
  return std::make_unique<OneDnnTensorHandle>(info, engine_, pool_, descs_);
}

}  // namespace backplane::onednn
