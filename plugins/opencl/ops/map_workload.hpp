// The workload of Activation and ElementwiseUnary: one f32 -> f32 function over every element
// (kernels/elementwise.cl), one element per work-item, the function chosen by a kernel argument
// (its descriptor enum value), so one program serves every function.
#pragma once

#include "kernel_sources.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

namespace backplane::opencl {

// One f32 -> f32 function over every element: `kernel_name` with arguments
// (x, y, count, function, extra...).
class MapWorkload final : public OpenClWorkload {
 public:
  MapWorkload(const backend::ILayerView& layer, OpenClDevice& device, const char* kernel_name, cl_int function,
              bool with_alpha_beta, float alpha, float beta)
      : OpenClWorkload(layer, device),
        kernel_(MakeKernel(device, kKernelSource_elementwise, kernel_name)),
        count_(static_cast<cl_int>(layer.GetOutputInfo(0).shape.NumElements())),
        function_(function),
        with_alpha_beta_(with_alpha_beta),
        alpha_(alpha),
        beta_(beta) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), y = Out(args, 0);
    std::vector<KernelArg> kernel_args{Arg(x), Arg(y), Arg(count_), Arg(function_)};
    if (with_alpha_beta_) {
      kernel_args.push_back(Arg(alpha_));
      kernel_args.push_back(Arg(beta_));
    }
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(count_)}, {}, kernel_args, name_.c_str());
  }

 private:
  ClKernel kernel_;
  cl_int count_, function_;
  bool with_alpha_beta_;
  float alpha_, beta_;
};

}  // namespace backplane::opencl
