#include "opencl_backend_context.hpp"

#include "opencl_device_creation.hpp"

#include <utility>

namespace backplane::opencl {

OpenClBackendContext::OpenClBackendContext(OpenClSettings settings) : settings_(std::move(settings)) {}

OpenClBackendContext::~OpenClBackendContext() = default;

std::shared_ptr<OpenClDevice> OpenClBackendContext::Device() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!device_) device_ = CreateChosenDevice(settings_);
  return device_;
}

bool OpenClBackendContext::BeforeLoadNetwork(backend::NetworkId) { return true; }

bool OpenClBackendContext::AfterLoadNetwork(backend::NetworkId) {
  std::shared_ptr<OpenClDevice> device;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    device = device_;
  }
  return !device || clFinish(device->Queue()) == CL_SUCCESS;
}

bool OpenClBackendContext::BeforeUnloadNetwork(backend::NetworkId) { return true; }

bool OpenClBackendContext::AfterUnloadNetwork(backend::NetworkId) { return true; }

}  // namespace backplane::opencl
