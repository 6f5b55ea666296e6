// The GEMM kernels of kernels/gemm.cl as FullyConnected and MatMul use them:
//   tiled   - 64x64 tiles staged in local memory, 16x16 work-items with 4x4 register blocks
//             (GPUs: the device's work-groups must hold 256 work-items and 8.3 KiB of local
//             memory);
//   blocked - 4x4 register blocks read straight from global memory, no barriers (CPU
//             devices, where PoCL would spill the tiled kernel's accumulators at every barrier);
//   simple  - one output per work-item, for thin shapes (M or N below 16).
#pragma once

#include "opencl_workload.hpp"

namespace backplane::opencl {

// y[b] = alpha * op(A) * op(B) (+ beta * C) for b in [0, batch), y dense [batch, M, N].
// Strides in elements: A(m, k) = a[a_off(b) + m * a_rs + k * a_cs], B(k, n) likewise;
// `offsets` holds (a_off, b_off) per batch entry as 2 * batch ints. C(m, n) =
// c[m * c_rs + n * c_cs] when c is not null.
struct GemmCall {
  int m = 0, n = 0, k = 0, batch = 1;
  cl_mem a = nullptr;
  int a_rs = 0, a_cs = 0;
  cl_mem b = nullptr;
  int b_rs = 0, b_cs = 0;
  cl_mem offsets = nullptr;
  float alpha = 1.0f;
  cl_mem c = nullptr;
  int c_rs = 0, c_cs = 0;
  float beta = 0.0f;
  cl_mem y = nullptr;
};

enum class GemmStrategy { kTiled, kBlocked, kSimple };

// The strategy for a GEMM of this shape on `device`: simple when thin, else tiled where the
// tiled kernel `tiled_kernel` fits and the device is not a CPU, else blocked.
GemmStrategy ChooseGemmStrategy(const OpenClDevice& device, cl_kernel tiled_kernel, std::int64_t m, std::int64_t n);

// The kernels of the strategies, created once per workload. Immutable; Enqueue is thread-safe.
class GemmKernels {
 public:
  explicit GemmKernels(OpenClDevice& device);
  // Enqueues the call with the strategy ChooseGemmStrategy picks.
  void Enqueue(const GemmCall& call, const char* what) const;

 private:
  OpenClDevice& device_;
  ClKernel tiled_, blocked_, simple_;
};

}  // namespace backplane::opencl
