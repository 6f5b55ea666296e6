// Creates GpuOpenCl's workloads for one loaded network, on one device.
#pragma once

#include "opencl_device.hpp"

#include <backplane/backend/workload.hpp>

#include <memory>
#include <string>

namespace backplane::opencl {

// Shares ownership of its device (the runtime context's, or one created for this factory
// alone). Not thread-safe (the runtime calls a factory from one thread).
//
// Warm-up: each CreateWorkload builds (or fetches from the program cache) the op's programs,
// creates its kernels and uploads its weights, then runs the workload once on zero-filled
// scratch tensors and waits for the device queue (clFinish), so when loading returns nothing is
// left to compile or upload, driver-internal lazy work included (PoCL specializes a kernel for
// its launch sizes at its first launch), and the first run costs what the next ones do.
//
// Each op's workload is wrapped so that a step reading imported host memory (an input handle
// with WrapsHostMemory()) waits for the queue before returning: the runtime's memory plan may
// hand that memory to the next host step. Other steps do not wait, unless `layer_sync`
// (OpenClSettings::layer_sync) makes every step wait, for per-layer profiles.
class OpenClWorkloadFactory final : public backend::IWorkloadFactory {
 public:
  // `backend_label` ("GpuOpenCl 0.1.0") starts its other error messages.
  OpenClWorkloadFactory(std::string backend_label, std::shared_ptr<OpenClDevice> device, bool layer_sync = false);

  // Throws backplane::Exception: kUnsupported "GpuOpenCl cannot run layer '<name>': <why>" when
  // the op table refuses the layer; whatever the op's create throws (kBackendFailure with the build log
  // for a kernel that does not compile).
  std::unique_ptr<backend::IWorkload> CreateWorkload(const backend::ILayerView& layer) override;

  const std::shared_ptr<OpenClDevice>& Device() const { return device_; }

 private:
  std::string backend_label_;
  std::shared_ptr<OpenClDevice> device_;
  bool layer_sync_;
};

}  // namespace backplane::opencl
