// Lrn (op set v2, ONNX LRN; the C header's BpLrnAttributes): each element divided by (bias +
// alpha / size * the sum of squares over its channel window) ^ beta, the window c - floor((size -
// 1) / 2) .. c + ceil((size - 1) / 2) cut to the channels that exist. Computed in double, rounded
// once to the element type; f32, f64 and the 16-bit floats.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace backplane::reference {

namespace {

template <typename T>
class LrnWorkload final : public backend::IWorkload {
 public:
  LrnWorkload(const TensorShape& x, const LrnDescriptor& d)
      : extents_(backend::ExtentsAroundAxis(x, 1)),
        before_((static_cast<std::int64_t>(d.size) - 1) / 2),
        after_(static_cast<std::int64_t>(d.size) / 2),  // ceil((size - 1) / 2)
        scale_(static_cast<double>(d.alpha) / static_cast<double>(d.size)),
        beta_(d.beta),
        bias_(d.bias) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* y = Output<T>(args, 0);
    const std::int64_t channels = extents_.length, inner = extents_.inner;
    for (std::int64_t o = 0; o < extents_.outer; ++o) {
      const T* image = x + o * channels * inner;
      T* out = y + o * channels * inner;
      for (std::int64_t c = 0; c < channels; ++c) {
        const std::int64_t first = std::max<std::int64_t>(0, c - before_);
        const std::int64_t last = std::min(channels - 1, c + after_);
        for (std::int64_t i = 0; i < inner; ++i) {
          double sum = 0.0;
          for (std::int64_t k = first; k <= last; ++k) {
            const double v = ConvertElement<double>(image[k * inner + i]);
            sum += v * v;
          }
          const double v = ConvertElement<double>(image[c * inner + i]);
          out[c * inner + i] = ConvertElement<T>(v / std::pow(bias_ + scale_ * sum, beta_));
        }
      }
    }
  }

 private:
  backend::AxisExtents extents_;  // outer: N; length: C; inner: the spatial elements
  std::int64_t before_, after_;
  double scale_, beta_, bias_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateLrnWorkload(const backend::ILayerView& layer) {
  const TensorInfo& x = layer.GetInputInfo(0);
  return MakeForFloatingPointType<LrnWorkload>(x.type, x.shape, DescriptorOf<LrnDescriptor>(layer));
}

}  // namespace backplane::reference
