#include "opencl_buffer_handle.hpp"

#include <backplane/exception.hpp>

#include <algorithm>
#include <utility>

namespace backplane::opencl {

namespace {

class ClBufferHandle final : public OpenClBufferHandle {
 public:
  ClBufferHandle(std::shared_ptr<OpenClDevice> device, const TensorInfo& info)
      : device_(std::move(device)), info_(info), bytes_(std::max<std::size_t>(info.NumBytes(), 1)) {
    const cl_mem_flags flags = CL_MEM_READ_WRITE | (device_->HostUnifiedMemory() ? CL_MEM_ALLOC_HOST_PTR : 0);
    cl_int status = CL_SUCCESS;
    buffer_ = clCreateBuffer(device_->Context(), flags, bytes_, nullptr, &status);
    CheckCl(status, ("clCreateBuffer of " + std::to_string(bytes_) + " bytes on " + device_->Description()).c_str());
  }

  ~ClBufferHandle() override {
    if (mapped_) clEnqueueUnmapMemObject(device_->Queue(), buffer_, mapped_, 0, nullptr, nullptr);
    // Released buffers stay alive inside OpenCL until the commands using them complete.
    if (buffer_) clReleaseMemObject(buffer_);
  }

  const TensorInfo& GetInfo() const override { return info_; }

  void* Map() override {
    UnmapIfMapped();
    cl_int status = CL_SUCCESS;
    void* pointer = clEnqueueMapBuffer(device_->Queue(), buffer_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes_, 0,
                                       nullptr, nullptr, &status);
    CheckCl(status, ("mapping a buffer of " + std::to_string(bytes_) + " bytes on " + device_->Description()).c_str());
    mapped_ = pointer;
    return pointer;
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
  void UnmapIfMapped() const {
    if (!mapped_) return;
    void* pointer = mapped_;
    mapped_ = nullptr;
    CheckCl(clEnqueueUnmapMemObject(device_->Queue(), buffer_, pointer, 0, nullptr, nullptr),
            ("unmapping a buffer on " + device_->Description()).c_str());
  }

  std::shared_ptr<OpenClDevice> device_;
  TensorInfo info_;
  std::size_t bytes_;
  cl_mem buffer_ = nullptr;
  void* imported_ = nullptr;        // the host memory buffer_ wraps, or null when it owns its memory
  mutable void* mapped_ = nullptr;  // the pointer of the current mapping, or null
};

}  // namespace

std::unique_ptr<OpenClBufferHandle> CreateBufferHandle(std::shared_ptr<OpenClDevice> device, const TensorInfo& info) {
  if (!device) throw Exception(ErrorCode::kInternal, "GpuOpenCl: CreateBufferHandle was given no device");
  return std::make_unique<ClBufferHandle>(std::move(device), info);
}

}  // namespace backplane::opencl
