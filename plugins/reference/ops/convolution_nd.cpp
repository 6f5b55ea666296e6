// ConvolutionNd (ONNX Conv over 1 to 3 spatial axes), f32: x [N, C, D...], weights
// [M, C/groups, k...], optional bias [M], y [N, M, O...].
//
// A direct gather: each output element is its bias plus, over the C/groups input channels of
// its group and every kernel tap, the input at axis.Start(o) + k * dilation of each axis times
// the tap (taps in the padding add nothing), summed in double. Fewer than three spatial axes run
// as three, the missing leading ones of extent 1. Weights and bias are read in every run,
// constant or not. Correctness first: no packing, no GEMM.
#include "reference_ops.hpp"
#include "spatial_axes.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/exception.hpp>

#include <array>
#include <cstdint>

namespace backplane::reference {

namespace {

using backend::ConvNdGeometry;
using backend::PoolAxis;

// Immutable after construction; Execute is thread-safe.
class ConvolutionNdWorkload final : public backend::IWorkload {
 public:
  ConvolutionNdWorkload(const ConvNdGeometry& geometry, bool has_bias)
      : g_(geometry), axes_(AsThreeSpatialAxes(geometry.axes)), has_bias_(has_bias) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    const float* weights = Input<float>(args, 1);
    const float* bias = has_bias_ ? Input<float>(args, 2) : nullptr;
    float* y = Output<float>(args, 0);
    const std::int64_t in_spatial = axes_[0].size * axes_[1].size * axes_[2].size;
    const std::int64_t kernel_spatial = axes_[0].kernel * axes_[1].kernel * axes_[2].kernel;
    ForEachConvolutionOutput(g_, axes_, [&](std::int64_t x_offset, std::int64_t filter_offset, std::int64_t m,
                                            std::int64_t od, std::int64_t oh, std::int64_t ow) {
      double sum = bias ? bias[m] : 0.0;
      for (std::int64_t c = 0; c < g_.GroupChannels(); ++c) {
        sum += Taps(x + x_offset + c * in_spatial, weights + filter_offset + c * kernel_spatial, od, oh, ow);
      }
      *y++ = static_cast<float>(sum);
    });
  }

 private:
  // The sum over kernel taps of one input channel's window at output position (od, oh, ow).
  double Taps(const float* channel, const float* taps, std::int64_t od, std::int64_t oh, std::int64_t ow) const {
    double sum = 0.0;
    ForEachTapInInput(axes_, od, oh, ow, [&](std::int64_t input, std::int64_t tap) {
      sum += static_cast<double>(channel[input]) * taps[tap];
    });
    return sum;
  }

  ConvNdGeometry g_;
  std::array<PoolAxis, 3> axes_;  // D, H, W (leading ones of extent 1 for 1-D and 2-D)
  bool has_bias_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateConvolutionNdWorkload(const backend::ILayerView& layer) {
  ConvNdGeometry geometry;
  std::string reason;
  if (!backend::DescribeConvolutionNd(layer, geometry, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<ConvolutionNdWorkload>(geometry, layer.GetNumInputs() == 3);
}

}  // namespace backplane::reference
