#include "opencl_buffer_handle_factory.hpp"

#include <backplane/exception.hpp>

#include <utility>

namespace backplane::opencl {

OpenClBufferHandleFactory::OpenClBufferHandleFactory(std::shared_ptr<OpenClDevice> device)
    : device_(std::move(device)), host_unified_memory_(device_ && device_->HostUnifiedMemory()) {}

OpenClBufferHandleFactory::OpenClBufferHandleFactory(bool host_unified_memory, std::string no_device_reason)
    : host_unified_memory_(host_unified_memory), no_device_reason_(std::move(no_device_reason)) {}

backend::TensorHandleFactoryProperties OpenClBufferHandleFactory::GetProperties() const {
  backend::TensorHandleFactoryProperties properties;
  properties.supports_map_unmap = true;
  const auto host = static_cast<backend::MemorySourceFlags>(backend::MemorySource::kHost);
  properties.import_sources = host_unified_memory_ ? host : 0;
  properties.export_sources = host_unified_memory_ ? host : 0;
  return properties;
}

std::unique_ptr<backend::ITensorHandle> OpenClBufferHandleFactory::CreateTensorHandle(const TensorInfo& info) const {
  if (!device_) {
    throw Exception(ErrorCode::kUnsupported, std::string(kBufferFactoryId) + " cannot create a tensor handle: " +
                                                 (no_device_reason_.empty() ? "no OpenCL device" : no_device_reason_));
  }
  return CreateBufferHandle(device_, info);
}

}  // namespace backplane::opencl
