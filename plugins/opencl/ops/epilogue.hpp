// What GpuOpenCl applies after a product (convolution, fully connected, matmul) in one kernel:
// the convolution's per-channel bias, and for a fused layer (../fusion.hpp) a residual add and
// an activation. kernels/elementwise.cl channel_epilogue.
#pragma once

#include "opencl_workload.hpp"

#include <cstddef>
#include <cstdint>

namespace backplane::opencl {

// The part of a fused layer after its anchor: y = activation(y + residual). Plain data, copied
// into the fused layer's descriptor at optimization time.
struct Epilogue {
  static constexpr std::size_t kNoResidual = SIZE_MAX;
  int function = -1;  // a backplane::ActivationFunction, or -1 for none
  float alpha = 0.0f, beta = 0.0f;
  std::size_t residual = kNoResidual;  // the fused layer's input added to y (same shape as y)
  bool Empty() const { return function < 0 && residual == kNoResidual; }
};

// The channel_epilogue kernel of one workload. Immutable after construction; Enqueue is
// thread-safe (Launch holds the device's LaunchMutex).
class EpilogueKernel {
 public:
  EpilogueKernel() = default;
  // Builds the kernel. Throws backplane::Exception (kBackendFailure) when it does not build.
  EpilogueKernel(OpenClDevice& device, const Epilogue& epilogue);
  explicit operator bool() const { return kernel_.Get() != nullptr; }

  // Enqueues y[n][c][i] = act(y[n][c][i] + bias[c] + residual[n][c][i]) over y [batch,
  // channels, spatial]; `bias` and `residual` may be null (not added). Does not wait.
  void Enqueue(OpenClDevice& device, cl_mem y, cl_mem bias, cl_mem residual, std::size_t batch, std::size_t channels,
               std::size_t spatial, const char* what) const;

 private:
  ClKernel kernel_;
  Epilogue epilogue_;
};

}  // namespace backplane::opencl
