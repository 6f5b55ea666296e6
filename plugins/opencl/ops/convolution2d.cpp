// Convolution2d, f32, NCHW: x [N, C, H, W], weights [M, C/groups, kH, kW], optional bias [M].
//
// Strategy: an implicit GEMM (kernels/gemm.cl). Per (image, group) the convolution is weights
// [M/groups, C/groups*kH*kW] times the im2col matrix [C/groups*kH*kW, Ho*Wo]; the GEMM body
// computes each im2col element from x as it loads it (into the local-memory B tile on GPUs:
// conv_implicit_gemm; into registers on CPU devices: conv_blocked, see gemm.hpp), so no
// im2col buffer exists and Execute needs no scratch: concurrent runs share nothing mutable.
// Bias is added in the store. Depthwise convolutions (one input channel per group, where each
// GEMM would be one row high) run conv_direct, one output per work-item.
#include "gemm.hpp"
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

using backend::ConvGeometry;

class Convolution2dWorkload final : public OpenClWorkload {
 public:
  Convolution2dWorkload(const backend::ILayerView& layer, OpenClDevice& device, const ConvGeometry& g)
      : OpenClWorkload(layer, device), g_(g), has_bias_(layer.GetNumInputs() == 3) {
    const bool depthwise = g_.channels / g_.groups == 1 && g_.groups > 1;
    if (depthwise) {
      strategy_ = GemmStrategy::kSimple;
      kernel_ = MakeKernel(device, kKernelSource_gemm, "conv_direct");
      return;
    }
    ClKernel tiled = MakeKernel(device, kKernelSource_gemm, "conv_implicit_gemm");
    // The GEMM of one group is [M/groups, K] x [K, Ho*Wo]; a thin one still runs blocked.
    strategy_ = ChooseGemmStrategy(device, tiled.Get(), 16, 16);
    kernel_ = strategy_ == GemmStrategy::kTiled ? std::move(tiled)
                                                : MakeKernel(device, kKernelSource_gemm, "conv_blocked");
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), w = In(args, 1), y = Out(args, 0);
    cl_mem bias = has_bias_ ? In(args, 2) : w;
    const cl_int has_bias = has_bias_ ? 1 : 0;
    const auto i = [](std::int64_t v) { return static_cast<cl_int>(v); };
    const cl_int c = i(g_.channels), h = i(g_.height), wd = i(g_.width), m = i(g_.out_channels), groups = i(g_.groups),
                 cg = i(g_.channels / g_.groups), kh = i(g_.kernel_h), kw = i(g_.kernel_w), ho = i(g_.out_height),
                 wo = i(g_.out_width), sh = i(g_.stride_h), sw = i(g_.stride_w), dh = i(g_.dilation_h),
                 dw = i(g_.dilation_w), pt = i(g_.pad_top), pl = i(g_.pad_left);
    const std::vector<KernelArg> kernel_args{Arg(x),  Arg(w),  Arg(bias), Arg(has_bias), Arg(y),  Arg(c),
                                             Arg(h),  Arg(wd), Arg(m),    Arg(groups),   Arg(cg), Arg(kh),
                                             Arg(kw), Arg(ho), Arg(wo),   Arg(sh),       Arg(sw), Arg(dh),
                                             Arg(dw), Arg(pt), Arg(pl)};
    const auto batch = static_cast<std::size_t>(g_.batch);
    const auto spatial = static_cast<std::size_t>(g_.out_height * g_.out_width);
    const auto group_out = static_cast<std::size_t>(g_.out_channels / g_.groups);
    const auto planes = batch * static_cast<std::size_t>(g_.groups);
    if (strategy_ == GemmStrategy::kTiled) {
      Launch(device_, kernel_.Get(), {(spatial + 63) / 64 * 16, (group_out + 63) / 64 * 16, planes}, {16, 16, 1},
             kernel_args, name_.c_str());
    } else if (strategy_ == GemmStrategy::kBlocked) {
      Launch(device_, kernel_.Get(), {(spatial + 3) / 4, (group_out + 3) / 4, planes}, {}, kernel_args,
             name_.c_str());
    } else {
      Launch(device_, kernel_.Get(),
             {static_cast<std::size_t>(g_.out_width), static_cast<std::size_t>(g_.out_height),
              batch * static_cast<std::size_t>(g_.out_channels)},
             {}, kernel_args, name_.c_str());
    }
  }

 private:
  ConvGeometry g_;
  bool has_bias_;
  GemmStrategy strategy_ = GemmStrategy::kSimple;  // kSimple: conv_direct
  ClKernel kernel_;
};

}  // namespace

bool IsConvolution2dSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFitKernelIndexing(
      {layer.GetInputInfo(0).shape, layer.GetOutputInfo(0).shape, layer.GetInputInfo(1).shape}, reason);
}

std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const backend::ILayerView& layer,
                                                                OpenClDevice& device) {
  ConvGeometry g{};
  std::string reason;
  if (!backend::DescribeConvolution(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<Convolution2dWorkload>(layer, device, g);
}

}  // namespace backplane::opencl
