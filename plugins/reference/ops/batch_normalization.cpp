// BatchNormalization, inference form, f32: y = (x - mean) / sqrt(var + epsilon) * scale + bias
// per channel (axis 1), computed as y = x * a[c] + b[c]. When scale, bias, mean and variance
// are all constant, a and b are computed once at creation; otherwise every run computes them
// into its scratch memory.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace backplane::reference {

namespace {

// a = scale / sqrt(var + epsilon), b = bias - mean * a, in double before rounding once.
void ChannelAffine(const float* scale, const float* bias, const float* mean, const float* var, float epsilon,
                   std::int64_t channels, float* a, float* b) {
  for (std::int64_t c = 0; c < channels; ++c) {
    const double factor = static_cast<double>(scale[c]) / std::sqrt(static_cast<double>(var[c]) + epsilon);
    a[c] = static_cast<float>(factor);
    b[c] = static_cast<float>(static_cast<double>(bias[c]) - static_cast<double>(mean[c]) * factor);
  }
}

class BatchNormalizationWorkload final : public backend::IWorkload {
 public:
  // `a` and `b` empty: computed per run from inputs 1..4.
  BatchNormalizationWorkload(std::int64_t batch, std::int64_t channels, std::int64_t spatial, float epsilon,
                             std::vector<float> a, std::vector<float> b)
      : batch_(batch), channels_(channels), spatial_(spatial), epsilon_(epsilon), a_(std::move(a)), b_(std::move(b)) {}

  std::size_t GetScratchSize() const override {
    return a_.empty() ? 2 * static_cast<std::size_t>(channels_) * sizeof(float) : 0;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* a = a_.data();
    const float* b = b_.data();
    if (a_.empty()) {
      auto* scratch = static_cast<float*>(args.scratch);
      ChannelAffine(Input<float>(args, 1), Input<float>(args, 2), Input<float>(args, 3), Input<float>(args, 4),
                    epsilon_, channels_, scratch, scratch + channels_);
      a = scratch;
      b = scratch + channels_;
    }
    const float* x = Input<float>(args, 0);
    float* y = Output<float>(args, 0);
    for (std::int64_t n = 0; n < batch_; ++n) {
      for (std::int64_t c = 0; c < channels_; ++c) {
        const std::int64_t base = (n * channels_ + c) * spatial_;
        const float ac = a[c], bc = b[c];
        for (std::int64_t i = 0; i < spatial_; ++i) y[base + i] = x[base + i] * ac + bc;
      }
    }
  }

 private:
  std::int64_t batch_, channels_, spatial_;
  float epsilon_;
  std::vector<float> a_, b_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateBatchNormalizationWorkload(const backend::ILayerView& layer) {
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  const float epsilon = DescriptorOf<BatchNormalizationDescriptor>(layer).epsilon;
  const std::int64_t channels = shape[1];
  std::int64_t spatial = 1;
  for (std::size_t d = 2; d < shape.Rank(); ++d) spatial *= shape[d];

  std::vector<float> a, b;
  const void* scale = layer.GetConstantInput(1);
  const void* bias = layer.GetConstantInput(2);
  const void* mean = layer.GetConstantInput(3);
  const void* var = layer.GetConstantInput(4);
  if (scale && bias && mean && var && channels > 0) {
    a.resize(static_cast<std::size_t>(channels));
    b.resize(static_cast<std::size_t>(channels));
    ChannelAffine(static_cast<const float*>(scale), static_cast<const float*>(bias), static_cast<const float*>(mean),
                  static_cast<const float*>(var), epsilon, channels, a.data(), b.data());
  }
  return std::make_unique<BatchNormalizationWorkload>(shape[0], channels, spatial, epsilon, std::move(a),
                                                      std::move(b));
}

}  // namespace backplane::reference
