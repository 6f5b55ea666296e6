#include "opencl_settings.hpp"

#include <backplane/exception.hpp>

#include <cstdlib>
#include <optional>
#include <string>
#include <system_error>

namespace backplane::opencl {

namespace {

std::optional<std::string> Env(const char* name) {
  const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): see the header
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

KernelShape ParseKernelShape(const std::string& value, const std::string& where) {
  if (value == "auto") return KernelShape::kAuto;
  if (value == "gpu") return KernelShape::kGpu;
  if (value == "cpu") return KernelShape::kCpu;
  throw Exception(ErrorCode::kInvalidArgument,
                  "GpuOpenCl: " + where + " is '" + value + "'; expected auto, gpu or cpu");
}

bool ParseFlag(const std::string& value, const std::string& where) {
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false") return false;
  throw Exception(ErrorCode::kInvalidArgument,
                  "GpuOpenCl: " + where + " is '" + value + "'; expected 1, 0, true or false");
}

}  // namespace

std::filesystem::path DefaultCacheDir() {
  if (const auto xdg = Env("XDG_CACHE_HOME")) return std::filesystem::path(*xdg) / "backplane" / "opencl";
#if defined(_WIN32)
  if (const auto local = Env("LOCALAPPDATA")) return std::filesystem::path(*local) / "backplane" / "opencl";
#else
  if (const auto home = Env("HOME")) return std::filesystem::path(*home) / ".cache" / "backplane" / "opencl";
#endif
  std::error_code error;
  const auto temp = std::filesystem::temp_directory_path(error);
  return (error ? std::filesystem::path(".") : temp) / "backplane" / "opencl";
}

OpenClSettings SettingsFromEnvironment() {
  OpenClSettings settings;
  if (const auto allow = Env("BACKPLANE_OPENCL_ALLOW_CPU")) {
    settings.policy.allow_cpu = ParseFlag(*allow, "environment variable BACKPLANE_OPENCL_ALLOW_CPU");
    if (settings.policy.allow_cpu) {
      settings.policy.allow_cpu_source = "environment variable BACKPLANE_OPENCL_ALLOW_CPU=" + *allow;
    }
  }
  if (const auto device = Env("BACKPLANE_OPENCL_DEVICE")) {
    settings.policy.device_filter = *device;
    settings.policy.device_filter_source = "BACKPLANE_OPENCL_DEVICE";
  }
  if (const auto tune = Env("BACKPLANE_OPENCL_TUNE")) {
    settings.tune = ParseFlag(*tune, "environment variable BACKPLANE_OPENCL_TUNE");
  }
  if (const auto sync = Env("BACKPLANE_OPENCL_LAYER_SYNC")) {
    settings.layer_sync = ParseFlag(*sync, "environment variable BACKPLANE_OPENCL_LAYER_SYNC");
  }
  if (const auto kernels = Env("BACKPLANE_OPENCL_KERNELS")) {
    settings.kernels = ParseKernelShape(*kernels, "environment variable BACKPLANE_OPENCL_KERNELS");
  }
  const auto cache = Env("BACKPLANE_OPENCL_CACHE_DIR");
  settings.cache_dir = cache ? std::filesystem::path(*cache) : DefaultCacheDir();
  return settings;
}

OpenClSettings SettingsFromOptions(const backend::BackendOptions& options) {
  OpenClSettings settings = SettingsFromEnvironment();
  for (const auto& [key, value] : options) {
    if (key == "allow_cpu_device") {
      settings.policy.allow_cpu = ParseFlag(value, "backend option " + key);
      settings.policy.allow_cpu_source = settings.policy.allow_cpu ? "backend option " + key + "=" + value : "";
    } else if (key == "tune") {
      settings.tune = ParseFlag(value, "backend option " + key);
    } else if (key == "layer_sync") {
      settings.layer_sync = ParseFlag(value, "backend option " + key);
    } else if (key == "kernels") {
      settings.kernels = ParseKernelShape(value, "backend option " + key);
    } else if (key == "device") {
      settings.policy.device_filter = value;
      settings.policy.device_filter_source = "backend option device";
    } else if (key == "threads") {
      // The common intra-op thread count (sdk-run --threads gives it to every backend): the
      // OpenCL device schedules its own work, so it only has to be well formed.
      if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
        throw Exception(ErrorCode::kInvalidArgument, "GpuOpenCl: backend option threads='" + value +
                                                         "' is not a thread count");
      }
    } else if (key == "cache_dir") {
      if (value.empty()) {
        throw Exception(ErrorCode::kInvalidArgument, "GpuOpenCl: backend option cache_dir is empty");
      }
      settings.cache_dir = value;
    } else {
      // The runtime passes only declared keys (OpenClBackend::GetOptionSpecs); this guards
      // direct callers.
      throw Exception(ErrorCode::kInvalidArgument,
                      "GpuOpenCl: unknown backend option '" + key +
                          "'; known options: allow_cpu_device, device, cache_dir, tune, layer_sync, kernels, threads");
    }
  }
  return settings;
}

}  // namespace backplane::opencl
