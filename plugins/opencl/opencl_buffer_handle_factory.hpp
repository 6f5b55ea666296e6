// The tensor-handle factory "Backplane/GpuOpenCl/Buffer" (spec 002): device buffers, mappable,
// and — where the device shares host memory — importing and exporting host pointers, so the
// runtime wraps host tensors instead of copying them at CPU<->device edges.
#pragma once

#include "opencl_buffer_handle.hpp"

#include <memory>
#include <string>

namespace backplane::opencl {

// Immutable after construction; thread-safe. Shares ownership of its device with every handle
// it creates.
class OpenClBufferHandleFactory final : public backend::ITensorHandleFactory {
 public:
  // Handles on `device`; import/export of host memory when it has HostUnifiedMemory().
  explicit OpenClBufferHandleFactory(std::shared_ptr<OpenClDevice> device);
  // A factory that only describes (the optimizer asks backends for their factories' properties
  // before any device exists): properties as a device with `host_unified_memory` would have;
  // CreateTensorHandle throws kUnsupported with `no_device_reason`.
  OpenClBufferHandleFactory(bool host_unified_memory, std::string no_device_reason);

  const backend::FactoryId& GetId() const override { return id_; }
  backend::TensorHandleFactoryProperties GetProperties() const override;
  // An OpenClBufferHandle (CreateBufferHandle). Throws backplane::Exception: kUnsupported
  // without a device, kBackendFailure when OpenCL cannot allocate the buffer.
  std::unique_ptr<backend::ITensorHandle> CreateTensorHandle(const TensorInfo& info) const override;

 private:
  backend::FactoryId id_ = kBufferFactoryId;
  std::shared_ptr<OpenClDevice> device_;
  bool host_unified_memory_ = false;
  std::string no_device_reason_;
};

}  // namespace backplane::opencl
