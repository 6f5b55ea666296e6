// Test fixtures of the GpuOpenCl suites: the device the tests run on and temporary folders.
#pragma once

#include "device_selection.hpp"
#include "opencl_device_creation.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <system_error>

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

// A new empty folder under the system temporary folder, removed with its content at the end.
class TempFolder {
 public:
  TempFolder() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("backplane-opencl-test-" + std::to_string(random()) + "-" + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::filesystem::path& Path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace backplane::opencl::testing
