#include "opencl_buffer_handle.hpp"

#include <backplane/exception.hpp>

#include <algorithm>
#include <string>
#include <utility>

namespace backplane::opencl {

namespace {

std::string Bytes(std::size_t bytes) { return std::to_string(bytes) + " bytes"; }

class ClBufferHandle final : public OpenClBufferHandle {
 public:
  ClBufferHandle(std::shared_ptr<OpenClDevice> device, const TensorInfo& info, HostAccess access)
      : device_(std::move(device)), info_(info), bytes_(std::max<std::size_t>(info.NumBytes(), 1)), access_(access) {
    const cl_mem_flags flags = CL_MEM_READ_WRITE | (device_->HostUnifiedMemory() ? CL_MEM_ALLOC_HOST_PTR : 0);
    buffer_ = NewBuffer(flags, "clCreateBuffer");
  }

  ~ClBufferHandle() override {
    // Released buffers stay alive inside OpenCL until the commands using them complete; the
    // staging view stays valid until its unmap, which the in-order queue runs after the
    // write-back that reads it.
    if (mapped_ && access_ == HostAccess::kMapInPlace) {
      clEnqueueUnmapMemObject(device_->Queue(), buffer_, mapped_, 0, nullptr, nullptr);
    }
    if (staging_view_) clEnqueueUnmapMemObject(device_->Queue(), staging_, staging_view_, 0, nullptr, nullptr);
    if (staging_) clReleaseMemObject(staging_);
    if (buffer_) clReleaseMemObject(buffer_);
  }

  const TensorInfo& GetInfo() const override { return info_; }

  void* Map() override {
    UnmapIfMapped();
    if (access_ == HostAccess::kStaged) {
      void* view = StagingView();
      CheckCl(clEnqueueReadBuffer(device_->Queue(), buffer_, CL_TRUE, 0, bytes_, view, 0, nullptr, nullptr),
              ("reading " + Bytes(bytes_) + " into the host on " + device_->Description()).c_str());
      mapped_ = view;
      return view;
    }
    mapped_ = MapWhole(buffer_, "mapping a buffer of ");
    return mapped_;
  }

  void Unmap() override { UnmapIfMapped(); }

  bool Import(void* memory, backend::MemorySource source) override {
    if (source != backend::MemorySource::kHost || memory == nullptr || !device_->HostUnifiedMemory()) return false;
    if (memory == imported_) return true;  // the same memory as last run: keep the buffer
    cl_int status = CL_SUCCESS;
    cl_mem wrapped = clCreateBuffer(device_->Context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes_, memory, &status);
    if (status != CL_SUCCESS || !wrapped) return false;
    UnmapIfMapped();
    clReleaseMemObject(buffer_);
    buffer_ = wrapped;
    imported_ = memory;
    return true;
  }

  bool WrapsHostMemory() const override { return imported_ != nullptr; }

  cl_mem Buffer() const override {
    UnmapIfMapped();
    return buffer_;
  }

 private:
  cl_mem NewBuffer(cl_mem_flags flags, const char* what) const {
    cl_int status = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(device_->Context(), flags, bytes_, nullptr, &status);
    CheckCl(status, (std::string(what) + " of " + Bytes(bytes_) + " on " + device_->Description()).c_str());
    return buffer;
  }

  void* MapWhole(cl_mem buffer, const char* what) const {
    cl_int status = CL_SUCCESS;
    void* view = clEnqueueMapBuffer(device_->Queue(), buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes_, 0,
                                    nullptr, nullptr, &status);
    CheckCl(status, (what + Bytes(bytes_) + " on " + device_->Description()).c_str());
    return view;
  }

  // The pinned host memory of kStaged, made at the first call and mapped until destruction.
  void* StagingView() {
    if (!staging_view_) {
      if (!staging_) staging_ = NewBuffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, "clCreateBuffer (host staging)");
      staging_view_ = MapWhole(staging_, "mapping the host staging of ");
    }
    return staging_view_;
  }

  void UnmapIfMapped() const {
    if (!mapped_) return;
    void* view = mapped_;
    mapped_ = nullptr;
    if (access_ == HostAccess::kStaged) {
      // Not waiting is safe: the view is this handle's pinned memory, and the in-order queue
      // runs the write before any later kernel, read or the staging buffer's unmap.
      CheckCl(clEnqueueWriteBuffer(device_->Queue(), buffer_, CL_FALSE, 0, bytes_, view, 0, nullptr, nullptr),
              ("writing " + Bytes(bytes_) + " from the host on " + device_->Description()).c_str());
      return;
    }
    CheckCl(clEnqueueUnmapMemObject(device_->Queue(), buffer_, view, 0, nullptr, nullptr),
            ("unmapping a buffer on " + device_->Description()).c_str());
  }

  std::shared_ptr<OpenClDevice> device_;
  TensorInfo info_;
  std::size_t bytes_;
  HostAccess access_;
  cl_mem buffer_ = nullptr;
  void* imported_ = nullptr;        // the host memory buffer_ wraps, or null when it owns its memory
  mutable void* mapped_ = nullptr;  // the view handed out by Map (buffer_'s mapping or staging_view_), or null
  cl_mem staging_ = nullptr;        // kStaged: pinned host memory, from the first Map on
  void* staging_view_ = nullptr;    // staging_ mapped, for the handle's lifetime
};

}  // namespace

HostAccess HostAccessFor(const OpenClDevice& device) {
  return device.HostUnifiedMemory() ? HostAccess::kMapInPlace : HostAccess::kStaged;
}

std::unique_ptr<OpenClBufferHandle> CreateBufferHandle(std::shared_ptr<OpenClDevice> device, const TensorInfo& info,
                                                       std::optional<HostAccess> access) {
  if (!device) throw Exception(ErrorCode::kInternal, "GpuOpenCl: CreateBufferHandle was given no device");
  const HostAccess chosen = access.value_or(HostAccessFor(*device));
  return std::make_unique<ClBufferHandle>(std::move(device), info, chosen);
}

}  // namespace backplane::opencl
