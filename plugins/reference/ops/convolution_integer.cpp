// ConvolutionInteger (ONNX ConvInteger over 1 to 3 spatial axes, the integer core of
// QLinearConv): x [N, C, D...] and weights [M, C/groups, k...], i8 or u8 each, minus their zero
// points (x's one value, the weights' one value or one per output channel), summed exactly into
// i32 y [N, M, O...] (wrapping at 32 bits, as ONNX allows). Taps in the padding add nothing: the
// padding reads as the zero point. Both operands are widened and centered into scratch once per
// run (zero points may be run-time inputs), then ConvolutionNd's direct gather
// (spatial_axes.hpp). Correctness first: no packing, no GEMM.
#include "integer_operands.hpp"
#include "reference_ops.hpp"
#include "spatial_axes.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/exception.hpp>

#include <array>
#include <vector>

namespace backplane::reference {

namespace {

using backend::ConvNdGeometry;
using backend::PoolAxis;

// Immutable after construction; Execute is thread-safe (its buffers are the run's scratch).
class ConvolutionIntegerWorkload final : public IntegerOperandsWorkload {
 public:
  ConvolutionIntegerWorkload(const ConvNdGeometry& geometry, const backend::ILayerView& layer)
      : IntegerOperandsWorkload(layer), g_(geometry), axes_(AsThreeSpatialAxes(geometry.axes)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    std::int32_t* x = CenteredInput(args, 0);
    std::int32_t* weights = CenteredInput(args, 1);
    Center(args, 0, TensorShape{}, x);
    Center(args, 1, WeightZeroPointShape(), weights);
    std::int32_t* y = Output<std::int32_t>(args, 0);
    ForEachConvolutionOutput(g_, axes_, [&](std::int64_t x_offset, std::int64_t filter_offset, std::int64_t,
                                            std::int64_t od, std::int64_t oh, std::int64_t ow) {
      WrappingSum sum;
      for (std::int64_t c = 0; c < g_.GroupChannels(); ++c) {
        const std::int32_t* channel = x + x_offset + c * InSpatial();
        const std::int32_t* taps = weights + filter_offset + c * KernelSpatial();
        ForEachTapInInput(axes_, od, oh, ow, [&](std::int64_t input, std::int64_t tap) { sum.Add(channel[input], taps[tap]); });
      }
      *y++ = sum.Value();
    });
  }

 private:
  // x's zero point is one value; the weights' one value or [M], which broadcasts along
  // dimension 0 seen as [M, 1, ...].
  TensorShape WeightZeroPointShape() const {
    if (!HasZeroPoint(1) || inputs_[3].shape.NumElements() == 1) return TensorShape{};
    std::vector<std::int64_t> dims(inputs_[1].shape.Rank(), 1);
    dims[0] = inputs_[1].shape[0];
    return TensorShape(dims);
  }
  std::int64_t InSpatial() const { return axes_[0].size * axes_[1].size * axes_[2].size; }
  std::int64_t KernelSpatial() const { return axes_[0].kernel * axes_[1].kernel * axes_[2].kernel; }

  ConvNdGeometry g_;
  std::array<PoolAxis, 3> axes_;  // D, H, W (leading ones of extent 1 for 1-D and 2-D)
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateConvolutionIntegerWorkload(const backend::ILayerView& layer) {
  ConvNdGeometry geometry;
  std::string reason;
  if (!backend::DescribeConvolutionInteger(layer, geometry, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<ConvolutionIntegerWorkload>(geometry, layer);
}

}  // namespace backplane::reference
