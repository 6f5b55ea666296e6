// LayerNormalization (ONNX), f32: each row over dimensions axis..last is normalized to zero
// mean and unit variance (population variance, epsilon added), then scaled and shifted
// elementwise by scale and the optional bias. Mean and variance are accumulated in double.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cmath>
#include <cstdint>

namespace backplane::reference {

namespace {

class LayerNormalizationWorkload final : public backend::IWorkload {
 public:
  LayerNormalizationWorkload(std::int64_t rows, std::int64_t size, float epsilon, bool has_bias)
      : rows_(rows), size_(size), epsilon_(epsilon), has_bias_(has_bias) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    const float* scale = Input<float>(args, 1);
    const float* bias = has_bias_ ? Input<float>(args, 2) : nullptr;
    float* y = Output<float>(args, 0);
    if (size_ == 0) return;
    for (std::int64_t r = 0; r < rows_; ++r) {
      const float* xr = x + r * size_;
      float* yr = y + r * size_;
      double mean = 0.0;
      for (std::int64_t i = 0; i < size_; ++i) mean += xr[i];
      mean /= static_cast<double>(size_);
      double variance = 0.0;
      for (std::int64_t i = 0; i < size_; ++i) variance += (xr[i] - mean) * (xr[i] - mean);
      variance /= static_cast<double>(size_);
      const double inv_std = 1.0 / std::sqrt(variance + epsilon_);
      for (std::int64_t i = 0; i < size_; ++i) {
        const double normalized = (xr[i] - mean) * inv_std * scale[i];
        yr[i] = static_cast<float>(bias ? normalized + bias[i] : normalized);
      }
    }
  }

 private:
  std::int64_t rows_, size_;
  float epsilon_;
  bool has_bias_;
};

// True when `param`, aligned to the last dimensions of `x`, covers exactly the normalized
// dimensions axis..last: size 1 before `axis`, the dimensions of `x` from `axis` on (leading
// 1s may be left out). Its elements then line up with one normalized row.
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

}  // namespace

bool IsLayerNormalizationSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 2, 3, 1, reason) || !AllFloat32(layer, reason)) return false;
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  const auto& descriptor = DescriptorOf<LayerNormalizationDescriptor>(layer);
  std::size_t axis = 0;
  if (!NormalizeAxis(descriptor.axis, shape.Rank(), axis)) {
    reason = "LayerNormalization axis " + std::to_string(descriptor.axis) + " is out of range for input " +
             ToString(shape) + " of rank " + std::to_string(shape.Rank());
    return false;
  }
  const TensorShape normalized(std::vector<std::int64_t>(shape.Dims().begin() + static_cast<std::ptrdiff_t>(axis),
                                                         shape.Dims().end()));
  static const char* const kNames[] = {"x", "scale", "bias"};
  for (std::size_t i = 1; i < layer.GetNumInputs(); ++i) {
    if (!CoversNormalizedShape(layer.GetInputInfo(i).shape, shape, axis)) {
      reason = std::string("LayerNormalization ") + kNames[i] + " (input " + std::to_string(i) + ") has shape " +
               ToString(layer.GetInputInfo(i).shape) + ", expected the normalized shape " + ToString(normalized) +
               " of " + ToString(shape) + " from axis " + std::to_string(descriptor.axis);
      return false;
    }
  }
  if (layer.GetOutputInfo(0).shape != shape) {
    reason = "LayerNormalization output shape " + ToString(layer.GetOutputInfo(0).shape) +
             " differs from input shape " + ToString(shape);
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateLayerNormalizationWorkload(const backend::ILayerView& layer) {
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  const auto& descriptor = DescriptorOf<LayerNormalizationDescriptor>(layer);
  std::size_t axis = 0;
  NormalizeAxis(descriptor.axis, shape.Rank(), axis);
  std::int64_t rows = 1, size = 1;
  for (std::size_t d = 0; d < axis; ++d) rows *= shape[d];
  for (std::size_t d = axis; d < shape.Rank(); ++d) size *= shape[d];
  return std::make_unique<LayerNormalizationWorkload>(rows, size, descriptor.epsilon, layer.GetNumInputs() == 3);
}

}  // namespace backplane::reference
