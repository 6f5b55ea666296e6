// BatchNormalization, inference form, f32: y = (x - mean) / sqrt(var + epsilon) * scale + bias
// per channel (axis 1). With all four parameters constant, y = x * a[c] + b[c] with a and b
// computed once at creation (in double) and uploaded; otherwise every element computes its
// channel's factors from the run's parameter buffers.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cmath>

namespace backplane::opencl {

namespace {

// Scale, bias, mean and variance are all constant: folded into a and b at creation.
bool AllParametersConstant(const backend::ILayerView& layer) {
  for (std::size_t i = 1; i < 5; ++i) {
    if (!layer.GetConstantInput(i)) return false;
  }
  return true;
}

class BatchNormalizationWorkload final : public OpenClWorkload {
 public:
  BatchNormalizationWorkload(const backend::ILayerView& layer, OpenClDevice& device)
      : OpenClWorkload(layer, device, AllParametersConstant(layer) ? std::vector<std::size_t>{1, 2, 3, 4}
                                                                   : std::vector<std::size_t>{}),
        epsilon_(DescriptorOf<BatchNormalizationDescriptor>(layer).epsilon) {
    const TensorShape& shape = layer.GetInputInfo(0).shape;
    channels_ = static_cast<cl_int>(shape[1]);
    std::int64_t spatial = 1;
    for (std::size_t d = 2; d < shape.Rank(); ++d) spatial *= shape[d];
    spatial_ = static_cast<cl_int>(spatial);
    count_ = static_cast<cl_int>(shape.NumElements());
    const auto* scale = static_cast<const float*>(layer.GetConstantInput(1));
    const auto* bias = static_cast<const float*>(layer.GetConstantInput(2));
    const auto* mean = static_cast<const float*>(layer.GetConstantInput(3));
    const auto* var = static_cast<const float*>(layer.GetConstantInput(4));
    affine_ = scale && bias && mean && var;
    kernel_ = MakeKernel(device, kKernelSource_normalization, affine_ ? "batchnorm_affine" : "batchnorm_full");
    if (affine_) {
      std::vector<float> a(static_cast<std::size_t>(channels_)), b(a.size());
      for (std::size_t c = 0; c < a.size(); ++c) {
        const double factor = static_cast<double>(scale[c]) / std::sqrt(static_cast<double>(var[c]) + epsilon_);
        a[c] = static_cast<float>(factor);
        b[c] = static_cast<float>(static_cast<double>(bias[c]) - static_cast<double>(mean[c]) * factor);
      }
      a_ = UploadBuffer(device, a.data(), a.size() * sizeof(float));
      b_ = UploadBuffer(device, b.data(), b.size() * sizeof(float));
    }
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), y = Out(args, 0);
    if (affine_) {
      cl_mem a = a_.Get(), b = b_.Get();
      Launch(device_, kernel_.Get(), {static_cast<std::size_t>(count_)}, {},
             {Arg(x), Arg(y), Arg(a), Arg(b), Arg(count_), Arg(spatial_), Arg(channels_)}, name_.c_str());
      return;
    }
    cl_mem scale = In(args, 1), bias = In(args, 2), mean = In(args, 3), var = In(args, 4);
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(count_)}, {},
           {Arg(x), Arg(y), Arg(scale), Arg(bias), Arg(mean), Arg(var), Arg(epsilon_), Arg(count_), Arg(spatial_),
            Arg(channels_)},
           name_.c_str());
  }

 private:
  float epsilon_;
  cl_int channels_ = 0, spatial_ = 1, count_ = 0;
  bool affine_ = false;
  ClKernel kernel_;
  ClBuffer a_, b_;  // per-channel factor and offset when every parameter is constant
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateBatchNormalizationWorkload(const backend::ILayerView& layer,
                                                                     OpenClDevice& device) {
  return std::make_unique<BatchNormalizationWorkload>(layer, device);
}

}  // namespace backplane::opencl
