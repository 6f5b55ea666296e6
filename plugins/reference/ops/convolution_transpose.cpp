// ConvolutionTranspose (op set v2, ONNX ConvTranspose), f32, 1 to 3 spatial axes: x [N, C, D...],
// weights [C, M/groups, k...], optional bias [M], y [N, M, O...].
//
// A direct scatter: every input element times every kernel tap of its group's output channels
// is added at output position i * stride + k * dilation - pad_begin of each axis (dropped when
// outside the output). Fewer than three spatial axes are run as three, the missing leading ones
// of extent 1. Weights and bias are read in every run, constant or not. Correctness first: no
// packing, no GEMM.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <array>
#include <cstdint>

namespace backplane::reference {

namespace {

using backend::ConvTransposeAxis;
using backend::ConvTransposeGeometry;

// The geometry's spatial axes as three, leading axes of extent 1 added.
std::array<ConvTransposeAxis, 3> ThreeAxes(const ConvTransposeGeometry& g) {
  std::array<ConvTransposeAxis, 3> axes{};
  for (auto& axis : axes) axis = ConvTransposeAxis{1, 1, 1, 1, 0, 1};
  std::copy(g.axes.begin(), g.axes.end(), axes.end() - static_cast<std::ptrdiff_t>(g.axes.size()));
  return axes;
}

// Immutable after construction; Execute is thread-safe.
class ConvolutionTransposeWorkload final : public backend::IWorkload {
 public:
  ConvolutionTransposeWorkload(const ConvTransposeGeometry& geometry, bool has_bias)
      : g_(geometry), axes_(ThreeAxes(geometry)), has_bias_(has_bias) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    const float* weights = Input<float>(args, 1);
    const float* bias = has_bias_ ? Input<float>(args, 2) : nullptr;
    float* y = Output<float>(args, 0);
    const std::int64_t out_spatial = g_.OutSpatial();
    for (std::int64_t n = 0; n < g_.batch; ++n) {
      for (std::int64_t m = 0; m < g_.out_channels; ++m) {
        float* plane = y + (n * g_.out_channels + m) * out_spatial;
        std::fill(plane, plane + out_spatial, bias ? bias[m] : 0.0f);
      }
      for (std::int64_t c = 0; c < g_.channels; ++c) {
        const float* channel = x + (n * g_.channels + c) * g_.InSpatial();
        const std::int64_t first_m = (c / g_.GroupChannels()) * g_.GroupOutChannels();
        for (std::int64_t j = 0; j < g_.GroupOutChannels(); ++j) {
          const float* taps = weights + (c * g_.GroupOutChannels() + j) * g_.KernelSpatial();
          ScatterChannel(channel, taps, y + (n * g_.out_channels + first_m + j) * out_spatial);
        }
      }
    }
  }

 private:
  // Adds one input channel, scattered through one output channel's kernel `taps`, to `out`.
  void ScatterChannel(const float* channel, const float* taps, float* out) const {
    const ConvTransposeAxis &d = axes_[0], &h = axes_[1], &w = axes_[2];
    for (std::int64_t id = 0; id < d.size; ++id) {
      for (std::int64_t ih = 0; ih < h.size; ++ih) {
        for (std::int64_t iw = 0; iw < w.size; ++iw) {
          const float value = channel[(id * h.size + ih) * w.size + iw];
          for (std::int64_t kd = 0; kd < d.kernel; ++kd) {
            const std::int64_t od = id * d.stride + kd * d.dilation - d.pad_begin;
            if (od < 0 || od >= d.out) continue;
            for (std::int64_t kh = 0; kh < h.kernel; ++kh) {
              const std::int64_t oh = ih * h.stride + kh * h.dilation - h.pad_begin;
              if (oh < 0 || oh >= h.out) continue;
              for (std::int64_t kw = 0; kw < w.kernel; ++kw) {
                const std::int64_t ow = iw * w.stride + kw * w.dilation - w.pad_begin;
                if (ow < 0 || ow >= w.out) continue;
                out[(od * h.out + oh) * w.out + ow] += value * taps[(kd * h.kernel + kh) * w.kernel + kw];
              }
            }
          }
        }
      }
    }
  }

  ConvTransposeGeometry g_;
  std::array<ConvTransposeAxis, 3> axes_;  // D, H, W (leading ones of extent 1 for 1-D and 2-D)
  bool has_bias_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateConvolutionTransposeWorkload(const backend::ILayerView& layer) {
  ConvTransposeGeometry geometry;
  std::string reason;
  if (!backend::DescribeConvolutionTranspose(layer, geometry, reason)) {
    throw Exception(ErrorCode::kUnsupported, reason);
  }
  return std::make_unique<ConvolutionTransposeWorkload>(geometry, layer.GetNumInputs() == 3);
}

}  // namespace backplane::reference
