// LayerNormalization (ONNX), f32: each row over dimensions axis..last normalized to zero mean
// and unit (population) variance, then scaled and shifted elementwise. One work-group per
// row, mean and variance reduced in local memory in two passes (kernels/normalization.cl).
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::opencl {

namespace {

class LayerNormalizationWorkload final : public OpenClWorkload {
 public:
  LayerNormalizationWorkload(const backend::ILayerView& layer, OpenClDevice& device, std::int64_t rows,
                             std::int64_t size)
      : OpenClWorkload(layer, device),
        kernel_(MakeKernel(device, kKernelSource_normalization, "layernorm_rows")),
        rows_(rows),
        size_(static_cast<cl_int>(size)),
        epsilon_(DescriptorOf<LayerNormalizationDescriptor>(layer).epsilon),
        has_bias_(layer.GetNumInputs() == 3 ? 1 : 0) {
    std::size_t kernel_max = 0;
    CheckCl(clGetKernelWorkGroupInfo(kernel_.Get(), device.Device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernel_max),
                                     &kernel_max, nullptr),
            "clGetKernelWorkGroupInfo(layernorm_rows)");
    const std::size_t limit = std::min<std::size_t>({kernel_max, device.MaxWorkGroupSize(), 256});
    while (local_ * 2 <= limit && static_cast<std::int64_t>(local_) < size) local_ *= 2;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    if (size_ == 0) return;
    cl_mem x = In(args, 0), scale = In(args, 1), y = Out(args, 0);
    cl_mem bias = has_bias_ ? In(args, 2) : scale;
    Launch(device_, kernel_.Get(), {local_, static_cast<std::size_t>(rows_)}, {local_, 1},
           {Arg(x), Arg(y), Arg(scale), Arg(bias), Arg(has_bias_), Arg(size_), Arg(epsilon_),
            LocalArg(local_ * sizeof(float))},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  std::int64_t rows_;
  cl_int size_;
  float epsilon_;
  cl_int has_bias_;
  std::size_t local_ = 1;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateLayerNormalizationWorkload(const backend::ILayerView& layer,
                                                                     OpenClDevice& device) {
  std::string reason;
  backend::LayerNormGeometry g;
  if (!backend::DescribeLayerNormalization(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<LayerNormalizationWorkload>(layer, device, g.rows, g.size);
}

}  // namespace backplane::opencl
