// The GpuOpenCl backend's settings: which device it may use and where it caches program
// binaries, from the runtime's backend options and the environment.
//
// Options (RuntimeOptions::backend_options["GpuOpenCl"], declared by
// OpenClBackend::GetOptionSpecs) win over environment variables:
//   allow_cpu_device = 0|1|false|true                env BACKPLANE_OPENCL_ALLOW_CPU=0|1
//   device = <index>|<name>                          env BACKPLANE_OPENCL_DEVICE
//   cache_dir = <folder>                             env BACKPLANE_OPENCL_CACHE_DIR
//   tune = 0|1|false|true                            env BACKPLANE_OPENCL_TUNE=0|1
//   layer_sync = 0|1|false|true                      env BACKPLANE_OPENCL_LAYER_SYNC=0|1
//   kernels = auto|gpu|cpu                           env BACKPLANE_OPENCL_KERNELS
//   threads = <count>   accepted for every backend's sake (sdk-run --threads); no effect: the
//                       OpenCL device schedules its own work
// Reading the environment is thread-safe as long as nobody calls setenv concurrently.
#pragma once

#include "device_selection.hpp"

#include <backplane/backend/backend.hpp>

#include <filesystem>

namespace backplane::opencl {

// The shape of the compute-heavy kernels. kGpu: matrix products on CLBlast's kernels, im2col
// and direct convolutions one element per work-item. kCpu: matrix products on GpuOpenCl's
// register-tiled kernel, im2col and direct convolutions one row per work-item, which CPU
// OpenCL compilers (PoCL) vectorize (ops/gemm.hpp, kernels/convolution.cl). kAuto: by the
// device's kind.
enum class KernelShape { kAuto, kGpu, kCpu };

struct OpenClSettings {
  DevicePolicy policy;
  // Where program binaries are cached, before the writability check (ProgramBinaryCache falls
  // back to a temporary folder when this one is not writable).
  std::filesystem::path cache_dir;
  // Run CLBlast's GEMM tuner on the device when no tuned parameters are cached for it
  // (clblast_tuning.hpp).
  bool tune = false;
  // Wait for the device after every layer, so a per-layer profile (sdk-run --per-layer) times
  // each layer's device work instead of only its enqueueing; runs get slower.
  bool layer_sync = false;
  KernelShape kernels = KernelShape::kAuto;
};

// From the environment alone: what a backend instance without a runtime context uses
// (IsAvailable and CreateWorkloadFactory without a context, GetDevices). Throws
// backplane::Exception (kInvalidArgument) naming the variable when a value is malformed
// (BACKPLANE_OPENCL_ALLOW_CPU=yes).
OpenClSettings SettingsFromEnvironment();

// From `options` over the environment. Throws backplane::Exception (kInvalidArgument) naming
// the option and the accepted keys/values for an unknown key or a malformed value.
OpenClSettings SettingsFromOptions(const backend::BackendOptions& options);

// The default program-cache folder: $XDG_CACHE_HOME/backplane/opencl, else
// ~/.cache/backplane/opencl (%LOCALAPPDATA%\backplane\opencl on Windows), else
// <temp>/backplane/opencl when no home is known.
std::filesystem::path DefaultCacheDir();

}  // namespace backplane::opencl
