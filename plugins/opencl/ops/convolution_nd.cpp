// ConvolutionNd (op set v2, ONNX Conv over 1 to 3 spatial axes; networks keep Convolution2d for
// 2), f32: x [N, C, D...], weights [M, C/groups, k...], optional bias [M], y [N, M, O...]. A
// direct gather, one output element per work-item (conv_nd, kernels/convolution_nd.cl): any
// pads, strides, dilations and groups. Correctness first: no im2col, no GEMM.
#include "op_kernels.hpp"
#include "spatial_nd.hpp"

#include <backplane/exception.hpp>

namespace backplane::opencl {

bool IsConvolutionNdSupported(const backend::ILayerView& layer, std::string& reason) {
  backend::ConvNdGeometry g;
  if (!backend::DescribeConvolutionNd(layer, g, reason)) return false;
  return AllFitKernelIndexing({layer.GetInputInfo(0).shape, layer.GetInputInfo(1).shape, layer.GetOutputInfo(0).shape},
                              reason);
}

std::unique_ptr<backend::IWorkload> CreateConvolutionNdWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  backend::ConvNdGeometry g;
  std::string reason;
  if (!backend::DescribeConvolutionNd(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<DirectConvNdWorkload>(layer, device, false, g.batch, g.channels, g.out_channels,
                                                g.groups, PackThreeAxes(g.axes));
}

}  // namespace backplane::opencl
