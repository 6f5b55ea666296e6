// How an OpenClDevice comes to be: the concrete device behind opencl_device.hpp.
#pragma once

#include "device_selection.hpp"
#include "opencl_device.hpp"
#include "opencl_settings.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace backplane::opencl {

// Creates a context and one in-order queue on `candidate`, with a program cache whose binaries
// live in `cache_dir` (or a fallback folder, see ProgramBinaryCache). `description` becomes
// Description(); `kernels` decides CpuKernels() (kAuto: on a CPU device). The caller owns
// the result. Thread-safe. Throws backplane::Exception
// (kBackendFailure) naming the device and the OpenCL error when the context or queue cannot be
// created.
std::unique_ptr<OpenClDevice> CreateOpenClDevice(const DeviceCandidate& candidate, const std::string& description,
                                                 const std::filesystem::path& cache_dir,
                                                 KernelShape kernels = KernelShape::kAuto);

// The device `settings` choose among EnumerateDevices(), created as above. Throws
// backplane::Exception (kUnsupported) with the choice's reason ("GpuOpenCl cannot run here:
// no GPU device; CPU device '...' present but not allowed (...)") when none may be used.
std::unique_ptr<OpenClDevice> CreateChosenDevice(const OpenClSettings& settings);

}  // namespace backplane::opencl
