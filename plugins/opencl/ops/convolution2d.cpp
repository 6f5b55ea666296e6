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

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

struct ConvGeometry {
  std::int64_t batch, channels, height, width, out_channels, kernel_h, kernel_w, out_height, out_width;
  std::int64_t groups, stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
};

bool OutputExtent(std::int64_t size, std::int64_t pad_begin, std::int64_t pad_end, std::int64_t kernel,
                  std::int64_t stride, std::int64_t dilation, std::int64_t& out) {
  const std::int64_t span = dilation * (kernel - 1) + 1;
  const std::int64_t padded = size + pad_begin + pad_end;
  if (padded < span) return false;
  out = (padded - span) / stride + 1;
  return true;
}

bool DescribeConvolution(const backend::ILayerView& layer, ConvGeometry& g, std::string& reason) {
  const auto& d = DescriptorOf<Convolution2dDescriptor>(layer);
  const TensorShape& x = layer.GetInputInfo(0).shape;
  const TensorShape& w = layer.GetInputInfo(1).shape;
  if (x.Rank() != 4) return Fail(reason, layer, "input must be [N, C, H, W], got " + ToString(x));
  if (w.Rank() != 4) return Fail(reason, layer, "weights must be [M, C/groups, kH, kW], got " + ToString(w));
  for (std::size_t i = 0; i < 2; ++i) {
    if (d.strides[i] == 0 || d.dilations[i] == 0) return Fail(reason, layer, "strides and dilations must be at least 1");
  }
  if (d.groups == 0) return Fail(reason, layer, "groups must be at least 1");
  const std::int64_t groups = d.groups;
  if (x[1] % groups != 0) {
    return Fail(reason, layer, "input channels " + std::to_string(x[1]) + " are not divisible by groups " +
                                   std::to_string(groups));
  }
  if (w[0] % groups != 0) {
    return Fail(reason, layer, "output channels " + std::to_string(w[0]) + " are not divisible by groups " +
                                   std::to_string(groups));
  }
  if (w[1] != x[1] / groups) {
    return Fail(reason, layer, "weights " + ToString(w) + " need C/groups = " + std::to_string(x[1] / groups) +
                                   " in dimension 1");
  }
  if (w[2] < 1 || w[3] < 1) return Fail(reason, layer, "empty kernel " + ToString(w));
  if (layer.GetNumInputs() == 3) {
    const TensorShape& b = layer.GetInputInfo(2).shape;
    if (b.Rank() != 1 || b[0] != w[0]) {
      return Fail(reason, layer, "bias must be [" + std::to_string(w[0]) + "], got " + ToString(b));
    }
  }
  g = {x[0], x[1], x[2], x[3], w[0], w[2], w[3], 0, 0, groups,
       d.strides[0], d.strides[1], d.dilations[0], d.dilations[1], d.pads[0], d.pads[1]};
  if (!OutputExtent(x[2], d.pads[0], d.pads[2], w[2], d.strides[0], d.dilations[0], g.out_height) ||
      !OutputExtent(x[3], d.pads[1], d.pads[3], w[3], d.strides[1], d.dilations[1], g.out_width)) {
    return Fail(reason, layer, "the dilated kernel " + ToString(w) + " does not fit the padded input " + ToString(x));
  }
  const TensorShape expected{x[0], w[0], g.out_height, g.out_width};
  if (layer.GetOutputInfo(0).shape != expected) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) + " should be " +
                                   ToString(expected));
  }
  return FitsKernelIndexing(layer, x, reason) && FitsKernelIndexing(layer, expected, reason) &&
         FitsKernelIndexing(layer, w, reason);
}

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
  if (!HasArity(layer, 2, 3, 1, reason)) return false;
  ConvGeometry g{};
  return DescribeConvolution(layer, g, reason);
}

std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const backend::ILayerView& layer,
                                                                OpenClDevice& device) {
  ConvGeometry g{};
  std::string reason;
  if (!HasArity(layer, 2, 3, 1, reason) || !DescribeConvolution(layer, g, reason)) {
    throw Exception(ErrorCode::kUnsupported, reason);
  }
  return std::make_unique<Convolution2dWorkload>(layer, device, g);
}

}  // namespace backplane::opencl
