// CLBlast's per-device tuning for GpuOpenCl's GEMMs (ops/gemm.hpp).
//
// CLBlast takes its kernels' parameters from its built-in database: the device's own entry
// (many NVIDIA, AMD, Intel and Arm GPUs), else defaults for the vendor and device type (a
// device it does not know, such as PoCL on a CPU, or a GPU newer than CLBlast 1.5). Tuning
// measures the parameters of CLBlast's main GEMM kernel (Xgemm, the one behind every product of
// more than a few hundred rows) on the device itself with CLBlast's tuner: a random sample of
// its search space, about 10 minutes on PoCL (its SGEMM 1024^3 went from 8.6 to 32.9 GFLOP/s
// here), about 2 on an H200. The
// result is cached beside the program binaries (OpenClDevice::LoadDeviceData, keyed by
// platform, device and driver version) and applied (clblast::OverrideParameters) whenever a
// device with cached parameters opens, whether tuning is asked for or not.
#pragma once

#include "opencl_device.hpp"

#include <functional>
#include <string>

namespace backplane::opencl {

// The device-data name the parameters are cached under (OpenClDevice::LoadDeviceData), one
// "<parameter> <value>" line each: a new CLBlast version or format is a new name.
inline constexpr char kTunedGemmDataName[] = "clblast-1.5 Xgemm f32 tuned parameters v1";

struct ClblastTuning {
  enum class Source { kDatabase, kCache, kTuned };
  Source source = Source::kDatabase;
  // For the log: what was applied or measured, or why the database's parameters stay (a
  // tuner or override that failed, a cache file that could not be written).
  std::string note;
};

// Applies the cached tuned parameters of `device`'s hardware, else, when `tune` is set, runs
// CLBlast's Xgemm tuner on it (telling `progress` first, since it takes minutes), caches and
// applies the result. CLBlast's parameters are process-wide per OpenCL device, so a device
// whose parameters were applied once in this process is left alone afterwards. Thread-safe
// (serialized). Never throws except on out-of-memory: a failure leaves CLBlast's database
// parameters and says why in `note`.
ClblastTuning PrepareClblastTuning(OpenClDevice& device, bool tune,
                                   const std::function<void(const std::string&)>& progress);

}  // namespace backplane::opencl
