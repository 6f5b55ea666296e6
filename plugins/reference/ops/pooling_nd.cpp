// PoolingNd (ONNX MaxPool / AveragePool / GlobalMaxPool / GlobalAveragePool over 1 to 3
// spatial axes), f32: x [N, C, D...], y [N, C, O...].
//
// Pooling2d's rules on every axis (pooling2d.cpp): padding never contributes a value; max
// takes the largest input element under the window; average divides the sum of the input
// elements by their count, or, with count_include_pad, by the number of window taps inside the
// padded input (the product over the axes). A window that covers no input element gives 0
// (average) or the lowest float (max). Fewer than three spatial axes run as three.
#include "reference_ops.hpp"
#include "spatial_axes.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

namespace backplane::reference {

namespace {

using backend::PoolAxis;

// The number of taps of output position `o`'s window along `axis` inside the padded input.
std::int64_t PaddedTaps(const PoolAxis& axis, std::int64_t o) {
  std::int64_t taps = 0;
  for (std::int64_t k = 0; k < axis.kernel; ++k) taps += axis.InPadded(axis.Start(o) + k * axis.dilation);
  return taps;
}

// Immutable after construction; Execute is thread-safe.
class PoolingNdWorkload final : public backend::IWorkload {
 public:
  PoolingNdWorkload(PoolingType type, bool count_include_pad, std::int64_t planes, const std::vector<PoolAxis>& axes)
      : type_(type), count_include_pad_(count_include_pad), planes_(planes), axes_(AsThreeSpatialAxes(axes)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    float* y = Output<float>(args, 0);
    const PoolAxis &d = axes_[0], &h = axes_[1], &w = axes_[2];
    const std::int64_t in_volume = d.size * h.size * w.size;
    for (std::int64_t p = 0; p < planes_; ++p) {
      const float* in = x + p * in_volume;
      for (std::int64_t od = 0; od < d.out; ++od) {
        for (std::int64_t oh = 0; oh < h.out; ++oh) {
          for (std::int64_t ow = 0; ow < w.out; ++ow) *y++ = Window(in, od, oh, ow);
        }
      }
    }
  }

 private:
  float Window(const float* in, std::int64_t od, std::int64_t oh, std::int64_t ow) const {
    const PoolAxis &d = axes_[0], &h = axes_[1], &w = axes_[2];
    float max = std::numeric_limits<float>::lowest();
    double sum = 0.0;
    std::int64_t inputs = 0;
    ForEachTapInInput(axes_, od, oh, ow, [&](std::int64_t input, std::int64_t) {
      const float value = in[input];
      max = std::max(max, value);
      sum += value;
      ++inputs;
    });
    if (type_ == PoolingType::kMax) return max;
    const std::int64_t count =
        count_include_pad_ ? PaddedTaps(d, od) * PaddedTaps(h, oh) * PaddedTaps(w, ow) : inputs;
    return count == 0 ? 0.0f : static_cast<float>(sum / static_cast<double>(count));
  }

  PoolingType type_;
  bool count_include_pad_;
  std::int64_t planes_;            // N * C
  std::array<PoolAxis, 3> axes_;   // D, H, W (leading ones of extent 1 for 1-D and 2-D)
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreatePoolingNdWorkload(const backend::ILayerView& layer) {
  backend::PoolingNdGeometry g;
  std::string reason;
  if (!backend::DescribePoolingNd(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const auto& descriptor = DescriptorOf<PoolingNdDescriptor>(layer);
  return std::make_unique<PoolingNdWorkload>(descriptor.type, descriptor.count_include_pad, g.batch * g.channels,
                                             g.axes);
}

}  // namespace backplane::reference
