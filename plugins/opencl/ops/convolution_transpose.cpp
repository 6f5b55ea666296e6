// ConvolutionTranspose (op set v2, ONNX ConvTranspose over 1 to 3 spatial axes), f32: x [N, C,
// D...], weights [C, M/groups, k...], optional bias [M], y [N, M, O...]. The gather form of
// the transposed convolution, one output element per work-item (conv_nd with `transposed`,
// kernels/convolution_nd.cl): output o of an axis reads input i through tap t when i * stride +
// t * dilation - pad_begin == o; the end pads and output_padding only shape the output (the
// geometry, backend/op_geometry.hpp). Correctness first: no GEMM.
#include "op_kernels.hpp"
#include "spatial_nd.hpp"

#include <backplane/exception.hpp>

namespace backplane::opencl {

bool IsConvolutionTransposeSupported(const backend::ILayerView& layer, std::string& reason) {
  backend::ConvTransposeGeometry g;
  if (!backend::DescribeConvolutionTranspose(layer, g, reason)) return false;
  return AllFitKernelIndexing({layer.GetInputInfo(0).shape, layer.GetInputInfo(1).shape, layer.GetOutputInfo(0).shape},
                              reason);
}

std::unique_ptr<backend::IWorkload> CreateConvolutionTransposeWorkload(const backend::ILayerView& layer,
                                                                       OpenClDevice& device) {
  backend::ConvTransposeGeometry g;
  std::string reason;
  if (!backend::DescribeConvolutionTranspose(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<DirectConvNdWorkload>(layer, device, true, g.batch, g.channels,
                                                g.out_channels, g.groups, PackThreeAxes(g.axes));
}

}  // namespace backplane::opencl
