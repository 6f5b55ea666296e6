// What every GpuOpenCl op workload is built from: owned OpenCL objects (buffers, kernels),
// constant inputs uploaded once, the per-run lookup of a tensor's cl_mem, and the locked
// set-arguments-and-enqueue step.
#pragma once

#include "../opencl_device.hpp"

#include <backplane/backend/layer.hpp>
#include <backplane/backend/workload.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace backplane::opencl {

// Owns one cl_mem (released on destruction). Move-only.
class ClBuffer {
 public:
  ClBuffer() = default;
  explicit ClBuffer(cl_mem mem) : mem_(mem) {}
  ClBuffer(ClBuffer&& other) noexcept : mem_(std::exchange(other.mem_, nullptr)) {}
  ClBuffer& operator=(ClBuffer&& other) noexcept;
  ClBuffer(const ClBuffer&) = delete;
  ClBuffer& operator=(const ClBuffer&) = delete;
  ~ClBuffer();
  cl_mem Get() const { return mem_; }
  explicit operator bool() const { return mem_ != nullptr; }

 private:
  cl_mem mem_ = nullptr;
};

// Owns one cl_kernel. Move-only. Its arguments are kernel-object state: set them only while
// holding the device's LaunchMutex (Launch does).
class ClKernel {
 public:
  ClKernel() = default;
  explicit ClKernel(cl_kernel kernel) : kernel_(kernel) {}
  ClKernel(ClKernel&& other) noexcept : kernel_(std::exchange(other.kernel_, nullptr)) {}
  ClKernel& operator=(ClKernel&& other) noexcept;
  ClKernel(const ClKernel&) = delete;
  ClKernel& operator=(const ClKernel&) = delete;
  ~ClKernel();
  cl_kernel Get() const { return kernel_; }

 private:
  cl_kernel kernel_ = nullptr;
};

// Kernel `name` of the program built from `source` (through the device's program cache).
// Throws backplane::Exception (kBackendFailure) when it does not build or has no such kernel.
ClKernel MakeKernel(OpenClDevice& device, const char* source, const char* name);

// A read-only device buffer holding a copy of `bytes` bytes at `data` (at least 1 byte).
ClBuffer UploadBuffer(OpenClDevice& device, const void* data, std::size_t bytes);
// A device buffer of `bytes` bytes (at least 1), uninitialized.
ClBuffer AllocateBuffer(OpenClDevice& device, std::size_t bytes);

// One kernel argument: a pointer to the value and its size (copied by clSetKernelArg).
struct KernelArg {
  std::size_t size;
  const void* value;
};
template <typename T>
KernelArg Arg(const T& value) {
  return {sizeof(T), &value};
}
// A __local argument of `bytes` bytes.
inline KernelArg LocalArg(std::size_t bytes) { return {bytes, nullptr}; }

// Sets `args` on `kernel` and enqueues it on the device queue over `global` work-items
// (rounded up to a multiple of `local` when local is given; null local lets the driver pick),
// all under the device's LaunchMutex. Does not wait. Nothing is enqueued when any global size
// is 0. Throws backplane::Exception naming `what` on an OpenCL error.
void Launch(OpenClDevice& device, cl_kernel kernel, const std::vector<std::size_t>& global,
            const std::vector<std::size_t>& local, const std::vector<KernelArg>& args, const char* what);

// Enqueues a buffer-to-buffer copy of `bytes` bytes (nothing when 0 or src == dst at the same
// offset). Does not wait.
void EnqueueCopy(OpenClDevice& device, cl_mem src, std::size_t src_offset, cl_mem dst, std::size_t dst_offset,
                 std::size_t bytes, const char* what);

// Packs up to 8 values into a cl_int8 (unused lanes 0), for the strided kernels' dims and
// strides arguments.
cl_int8 PackInt8(const std::vector<std::int64_t>& values);

// Base of the op workloads: keeps the device and the layer name, uploads every constant input
// of the layer once (at construction) and finds each tensor's buffer per run. Immutable after
// construction, so Execute may run concurrently.
class OpenClWorkload : public backend::IWorkload {
 protected:
  // `keep_on_host`: constant inputs the derived workload repacks and uploads itself (In()
  // must not be called for them).
  OpenClWorkload(const backend::ILayerView& layer, OpenClDevice& device,
                 const std::vector<std::size_t>& keep_on_host = {});

  // Input `index` for this run: the buffer uploaded at creation when the input is constant,
  // else the run's OpenClBufferHandle's buffer. Throws backplane::Exception (kInternal) when
  // the run passes a handle that is not an OpenCL buffer for a non-constant input.
  cl_mem In(const backend::WorkloadArgs& args, std::size_t index) const;
  cl_mem Out(const backend::WorkloadArgs& args, std::size_t index) const;
  // In(args, index), or null when `index` is SIZE_MAX (no such input: Epilogue::kNoResidual).
  cl_mem InIfAny(const backend::WorkloadArgs& args, std::size_t index) const {
    return index == SIZE_MAX ? nullptr : In(args, index);
  }
  bool IsConstant(std::size_t index) const { return index < constants_.size() && constants_[index]; }

  OpenClDevice& device_;
  std::string name_;  // "Convolution2d 'conv1'", for messages

 private:
  std::vector<ClBuffer> constants_;  // one per input; empty where the input is computed
};

}  // namespace backplane::opencl
