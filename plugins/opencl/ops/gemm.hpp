// GEMM: the one place GpuOpenCl runs matrix products, on CLBlast (libclblast, its kernel
// parameters from its per-device database) or, where the device says CpuKernels() (CPU devices
// by default, KernelShape in opencl_settings.hpp) or this build has no CLBlast (kWithClblast),
// on our register-tiled kernel
// (kernels/gemm.cl gemm_tiled): CLBlast's kernels are shaped for GPUs, and on PoCL they reach
// about a tenth of what the tiled kernel does (on a 2-core AVX2 EPYC: 7.8 against 95 GFLOP/s
// for ResNet's [64 x 576] x [576 x 3136]). MatMul,
// FullyConnected and Convolution2d (after im2col) run on it; their bias and C terms are our own
// small kernels or the GEMM's beta around it.
//
// Every call enqueues on the device's in-order queue under its LaunchMutex and does not wait:
// buffers stay on the device, and commands of later launches see the results. Thread-safe.
//
// Split-K: CLBlast's GEMM gives one work-group to each tile of the output, so a product with a
// small output and a long K (a late ResNet convolution: [512 x 49] is 8 tiles of 64 x 64, K =
// 4608) leaves most of a GPU idle. Such a product runs as `split` products over slices of K
// into partial outputs (one strided-batched call) plus our kernel summing them into y
// (kernels/gemm.cl). SplitKFactor owns the rule.
#pragma once

#include "opencl_workload.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace backplane::opencl {

// Whether this build has CLBlast (plugins/opencl/CMakeLists.txt defines
// BACKPLANE_OPENCL_WITH_CLBLAST when it finds it). Without it every device runs gemm_tiled,
// never splits K, and option tune has nothing to tune.
#ifdef BACKPLANE_OPENCL_WITH_CLBLAST
inline constexpr bool kWithClblast = true;
#else
inline constexpr bool kWithClblast = false;
#endif

// Row-major y = alpha * op(A) * op(B) + beta * y, op(A) [m, k], op(B) [k, n], y [m, n], for
// `batch` entries each `*_stride` elements after the previous one. Offsets, leading dimensions
// and strides are in elements; A is stored [m, k] (or [k, m] when transpose_a), B likewise.
struct GemmCall {
  std::size_t m = 0, n = 0, k = 0;
  bool transpose_a = false, transpose_b = false;
  cl_mem a = nullptr;
  std::size_t a_offset = 0, a_ld = 0, a_stride = 0;
  cl_mem b = nullptr;
  std::size_t b_offset = 0, b_ld = 0, b_stride = 0;
  cl_mem y = nullptr;
  std::size_t y_offset = 0, y_ld = 0, y_stride = 0;
  float alpha = 1.0f, beta = 0.0f;
  std::size_t batch = 1;
};

// How many slices of K a batch-1 product of [m, k] x [k, n] is computed in on a device with
// `compute_units`: 1 when its 64 x 64 output tiles already give every compute unit one, else
// the largest divisor of k up to the tiles missing (compute_units / tiles, rounded up) that
// leaves slices of at least 128, and 1 when there is none or the partial outputs would pass
// 2^31 elements (the sum kernel indexes them with 32-bit integers).
std::size_t SplitKFactor(std::size_t m, std::size_t n, std::size_t k, std::size_t compute_units);

// The CLBlast GEMM of one workload's fixed shape. Created once per workload: it asks CLBlast
// for the temporary buffer the shape needs, which Enqueue then takes from the device's
// scratch. Immutable; Enqueue is thread-safe.
class Gemm {
 public:
  // `shape`: a call of the shape Enqueue will run (its buffers, offsets and batch are not
  // used). Calls with batch > 1 run CLBlast's strided-batched routine, which allocates its
  // temporary buffers itself.
  // `split`: the K split of CLBlast's product, by default SplitKFactor's for the device (the
  // tests choose one); the tiled kernel never splits. Runs the tiled kernel where the device
  // says CpuKernels() or the build has no CLBlast.
  // Throws backplane::Exception (kBackendFailure) naming `what` when CLBlast refuses the shape
  // or the sum kernel does not build.
  Gemm(OpenClDevice& device, const GemmCall& shape, std::string what, std::optional<std::size_t> split = std::nullopt);

  // Enqueues `call` (of the constructor's shape). Throws backplane::Exception
  // (kBackendFailure) naming the layer and CLBlast's status when CLBlast fails.
  void Enqueue(const GemmCall& call) const;
  // What runs the product, for profiles: "gemm_tiled", "CLBlast GEMM" or "CLBlast GEMM, K in
  // N slices" (a batch > 1 runs CLBlast's strided-batched GEMM: "CLBlast batched GEMM").
  std::string Describe(std::size_t batch = 1) const;

 private:
  OpenClDevice& device_;
  std::string what_;
  std::size_t temp_bytes_ = 0;  // CLBlast's temporary buffer for a batch-1 call of the shape
  std::size_t split_ = 1;       // slices of K of a batch-1 call (SplitKFactor)
  ClKernel sum_partials_;       // when split_ > 1
  ClKernel tiled_;              // where the device runs the tiled kernel instead of CLBlast

  void EnqueueTiled(const GemmCall& call) const;
  // CLBlast's: without it (kWithClblast), never called (the constructor takes the tiled kernel).
  void PrepareClblast(const GemmCall& shape, std::optional<std::size_t> split);
  void EnqueueClblast(const GemmCall& call) const;
  void EnqueueSplit(const GemmCall& call) const;
  void EnqueueBatched(const GemmCall& call) const;
};

// "kInvalidLocalMemUsage (-2046)", or the OpenCL error name for CLBlast's codes that are
// OpenCL's: for messages.
std::string ClblastStatusName(int status);

}  // namespace backplane::opencl
