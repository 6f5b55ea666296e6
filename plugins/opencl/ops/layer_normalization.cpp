// LayerNormalization (ONNX), f32: each row over dimensions axis..last normalized to zero mean
// and unit (population) variance, then scaled and shifted elementwise. One work-group per
// row, mean and variance reduced in local memory in two passes (kernels/normalization.cl).
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::opencl {

namespace {

// `param` covers exactly the normalized dimensions axis..last (leading 1s allowed), so its
// elements line up with one normalized row.
bool CoversNormalizedShape(const TensorShape& param, const TensorShape& x, std::size_t axis) {
  if (!BroadcastsTo(param, x)) return false;
  const std::size_t lead = x.Rank() - param.Rank();
  std::int64_t row = 1;
  for (std::size_t d = axis; d < x.Rank(); ++d) row *= x[d];
  for (std::size_t i = 0; i < param.Rank(); ++i) {
    if (lead + i < axis && param[i] != 1) return false;
  }
  return param.NumElements() == row;
}

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

bool IsLayerNormalizationSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 2, 3, 1, reason)) return false;
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  const auto& d = DescriptorOf<LayerNormalizationDescriptor>(layer);
  std::size_t axis = 0;
  if (!NormalizeAxis(d.axis, shape.Rank(), axis)) {
    return Fail(reason, layer, "axis " + std::to_string(d.axis) + " is out of range for input " + ToString(shape) +
                                   " of rank " + std::to_string(shape.Rank()));
  }
  static const char* const kNames[] = {"x", "scale", "bias"};
  for (std::size_t i = 1; i < layer.GetNumInputs(); ++i) {
    if (!CoversNormalizedShape(layer.GetInputInfo(i).shape, shape, axis)) {
      return Fail(reason, layer, std::string(kNames[i]) + " (input " + std::to_string(i) + ") has shape " +
                                     ToString(layer.GetInputInfo(i).shape) + ", expected the normalized shape of " +
                                     ToString(shape) + " from axis " + std::to_string(d.axis));
    }
  }
  if (layer.GetOutputInfo(0).shape != shape) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) +
                                   " differs from input shape " + ToString(shape));
  }
  return FitsKernelIndexing(layer, shape, reason);
}

std::unique_ptr<backend::IWorkload> CreateLayerNormalizationWorkload(const backend::ILayerView& layer,
                                                                     OpenClDevice& device) {
  std::string reason;
  if (!IsLayerNormalizationSupported(layer, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  std::size_t axis = 0;
  NormalizeAxis(DescriptorOf<LayerNormalizationDescriptor>(layer).axis, shape.Rank(), axis);
  std::int64_t rows = 1, size = 1;
  for (std::size_t d = 0; d < axis; ++d) rows *= shape[d];
  for (std::size_t d = axis; d < shape.Rank(); ++d) size *= shape[d];
  return std::make_unique<LayerNormalizationWorkload>(layer, device, rows, size);
}

}  // namespace backplane::opencl
