// LayerNormalization (ONNX), f32: each row over dimensions axis..last is normalized to zero
// mean and unit variance (population variance, epsilon added), then scaled and shifted
// elementwise by scale and the optional bias. Mean and variance are accumulated in double.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

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

}  // namespace

std::unique_ptr<backend::IWorkload> CreateLayerNormalizationWorkload(const backend::ILayerView& layer) {
  backend::LayerNormGeometry g;
  std::string reason;
  if (!backend::DescribeLayerNormalization(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const float epsilon = DescriptorOf<LayerNormalizationDescriptor>(layer).epsilon;
  return std::make_unique<LayerNormalizationWorkload>(g.rows, g.size, epsilon, layer.GetNumInputs() == 3);
}

}  // namespace backplane::reference
