// Device-buffer tensor handles of the GpuOpenCl backend (factory "Backplane/GpuOpenCl/Buffer").
#pragma once

#include "opencl_device.hpp"

#include <backplane/backend/tensor_handle.hpp>

namespace backplane::opencl {

inline constexpr const char* kBufferFactoryId = "Backplane/GpuOpenCl/Buffer";

// A cl_mem of GetInfo().NumBytes() bytes (at least 1) in the device's context, dense, in the
// layout TensorInfo says (NCHW). Map() maps it for reading and writing on the host (blocking,
// on the device queue, so it waits for kernels enqueued before it); Unmap() unmaps it. Import
// of host memory works only where the device shares host memory (CL_DEVICE_HOST_UNIFIED_MEMORY):
// the buffer is then re-created with CL_MEM_USE_HOST_PTR over the caller's memory. Owned by
// the execution context that asked the factory for it; not thread-safe (one run at a time).
class OpenClBufferHandle : public backend::ITensorHandle {
 public:
  virtual cl_mem Buffer() const = 0;
};

}  // namespace backplane::opencl
