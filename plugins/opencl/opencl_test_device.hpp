// Test fixtures of the GpuOpenCl suites: the device the tests run on and temporary folders.
#pragma once

#include "device_selection.hpp"
#include "opencl_device_creation.hpp"
#include "temp_folder.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace backplane::opencl::testing {

// The device chosen as the backend would choose it (ctest sets BACKPLANE_OPENCL_ALLOW_CPU=1),
// caching programs in `cache_dir`, its GEMM engine `gemm` when given, else the environment's;
// null, after a MESSAGE saying why the test is skipped, when this machine has no usable OpenCL
// device.
inline std::unique_ptr<OpenClDevice> TestDevice(const std::filesystem::path& cache_dir,
                                                std::optional<KernelShape> kernels = std::nullopt) {
  const OpenClSettings settings = SettingsFromEnvironment();
  const DeviceChoice choice = ChooseDevice(EnumerateDevices(), settings.policy);
  if (choice.index < 0) {
    MESSAGE("SKIPPED: no usable OpenCL device here (" << choice.reason << ")");
    return nullptr;
  }
  return CreateOpenClDevice(EnumerateDevices().devices[static_cast<std::size_t>(choice.index)], choice.description,
                            cache_dir, kernels.value_or(settings.kernels));
}

// A new empty folder "backplane-opencl-test-<random>" under the system temporary folder (the
// tests' one TempFolder, tests/support), removed with its content at the end.
class TempFolder : public test_support::TempFolder {
 public:
  TempFolder() : test_support::TempFolder("opencl-test") {}
};

}  // namespace backplane::opencl::testing
