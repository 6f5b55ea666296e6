// Device-buffer tensor handles of the GpuOpenCl backend (factory "Backplane/GpuOpenCl/Buffer").
#pragma once

#include "opencl_device.hpp"

#include <backplane/backend/tensor_handle.hpp>

#include <memory>
#include <optional>

namespace backplane::opencl {

inline constexpr const char* kBufferFactoryId = "Backplane/GpuOpenCl/Buffer";

// A cl_mem of GetInfo().NumBytes() bytes (at least 1) in the device's context, dense, in the
// layout TensorInfo says (NCHW). Map() gives a host view for reading and writing that reflects
// every command enqueued before it (blocking, on the device queue); Unmap() makes what the host
// wrote visible to later commands. How depends on the HostAccess the handle was made with:
// kMapInPlace maps the buffer itself; kStaged keeps a pinned host buffer beside it (made at the
// first Map, mapped for the handle's lifetime) that Map fills with a blocking read and Unmap
// writes back without waiting. Import of host memory works only where the device shares host
// memory (CL_DEVICE_HOST_UNIFIED_MEMORY): the buffer is then re-created with
// CL_MEM_USE_HOST_PTR over the caller's memory. Owned by the execution context that asked the
// factory for it; not thread-safe (one run at a time).
class OpenClBufferHandle : public backend::ITensorHandle {
 public:
  // The buffer for a kernel argument. If the handle is mapped, it is unmapped first (the unmap
  // is enqueued on the device queue, so it precedes the kernel), so a workload never runs on a
  // mapped buffer. Throws backplane::Exception when that unmap fails.
  virtual cl_mem Buffer() const = 0;
  // True while the buffer wraps host memory given to Import: that memory belongs to someone
  // else (a host tensor of the runtime's arena, a user buffer) and may be reused as soon as the
  // step that read it returns, so a kernel reading it must complete before then (the workload
  // factory's workloads wait for the queue after such a step).
  virtual bool WrapsHostMemory() const = 0;
};

// How a handle's host view reaches the device buffer.
enum class HostAccess {
  // Map the buffer itself: free where the device shares host memory (the buffer is allocated
  // with CL_MEM_ALLOC_HOST_PTR there).
  kMapInPlace,
  // Copy through a pinned staging buffer kept by the handle: on a discrete device a map of the
  // buffer itself has the driver stage through host memory of its own at every map.
  kStaged,
};

// What `device` needs: kMapInPlace where it shares host memory, kStaged otherwise.
HostAccess HostAccessFor(const OpenClDevice& device);

// A new buffer handle for `info` on `device`, which it shares ownership of (the device outlives
// every handle). Buffers are allocated with CL_MEM_ALLOC_HOST_PTR where the device shares host
// memory, plain CL_MEM_READ_WRITE otherwise. `access` defaults to HostAccessFor(device) (the
// tests choose kStaged on a unified device to run that path). Map() after Map() without
// Unmap() unmaps and maps again, so the view reflects every command enqueued since. Throws
// backplane::Exception (kBackendFailure) naming the tensor size and the OpenCL error when a
// buffer cannot be created or mapped.
std::unique_ptr<OpenClBufferHandle> CreateBufferHandle(std::shared_ptr<OpenClDevice> device, const TensorInfo& info,
                                                       std::optional<HostAccess> access = std::nullopt);

}  // namespace backplane::opencl
