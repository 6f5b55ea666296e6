// The N-D window kernels (ConvolutionNd, ConvolutionTranspose, PoolingNd; kernels/
// convolution_nd.cl, kernels/pooling.cl) run every spatial rank (1 to 3) as three axes, D, H,
// W, the missing leading ones of extent 1 (one tap, stride and dilation 1, no padding). Their
// parameters travel as int8 kernel arguments, lanes 0..2 used; and the two convolutions share
// one workload, a direct gather per output element.
#pragma once

#include "kernel_sources.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/backend/op_geometry.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace backplane::opencl {

// The axes' parameters, as the kernels take them.
struct ThreeAxes {
  cl_int8 size{}, out{}, kernel{}, stride{}, dilation{}, pad_begin{}, pad_end{};
  std::int64_t out_spatial = 1;  // product of the output extents
};

inline std::int64_t PadEnd(const backend::PoolAxis& axis) { return axis.pad_end; }
inline std::int64_t PadEnd(const backend::ConvTransposeAxis&) { return 0; }  // it only shapes `out`

// `axes` (1 to 3 PoolAxis or ConvTransposeAxis) as three.
template <typename Axis>
ThreeAxes PackThreeAxes(const std::vector<Axis>& axes) {
  std::vector<std::int64_t> size(3, 1), out(3, 1), kernel(3, 1), stride(3, 1), dilation(3, 1), begin(3, 0), end(3, 0);
  const std::size_t first = 3 - axes.size();
  ThreeAxes packed;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    size[first + a] = axes[a].size;
    out[first + a] = axes[a].out;
    kernel[first + a] = axes[a].kernel;
    stride[first + a] = axes[a].stride;
    dilation[first + a] = axes[a].dilation;
    begin[first + a] = axes[a].pad_begin;
    end[first + a] = PadEnd(axes[a]);
    packed.out_spatial *= axes[a].out;
  }
  packed.size = PackInt8(size);
  packed.out = PackInt8(out);
  packed.kernel = PackInt8(kernel);
  packed.stride = PackInt8(stride);
  packed.dilation = PackInt8(dilation);
  packed.pad_begin = PackInt8(begin);
  packed.pad_end = PackInt8(end);
  return packed;
}

// ConvolutionNd or, `transposed`, ConvolutionTranspose (kernel conv_nd): x [N, C, D...],
// weights, optional bias [M], y [N, M, O...]; one output element per work-item.
class DirectConvNdWorkload final : public OpenClWorkload {
 public:
  DirectConvNdWorkload(const backend::ILayerView& layer, OpenClDevice& device, bool transposed,
                       std::int64_t batch, std::int64_t channels, std::int64_t out_channels, std::int64_t groups,
                       const ThreeAxes& axes)
      : OpenClWorkload(layer, device),
        kernel_(MakeKernel(device, kKernelSource_convolution_nd, "conv_nd")),
        transposed_(transposed ? 1 : 0),
        has_bias_(layer.GetNumInputs() == 3 ? 1 : 0),
        batch_(batch),
        channels_(static_cast<cl_int>(channels)),
        out_channels_(static_cast<cl_int>(out_channels)),
        groups_(static_cast<cl_int>(groups)),
        axes_(axes) {}

  backend::WorkloadInfo GetInfo() const override { return {transposed_ ? "conv_nd, transposed" : "conv_nd", ""}; }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), w = In(args, 1), y = Out(args, 0);
    cl_mem bias = has_bias_ ? In(args, 2) : w;  // never read without a bias
    Launch(device_, kernel_.Get(),
           {static_cast<std::size_t>(axes_.out_spatial), static_cast<std::size_t>(out_channels_),
            static_cast<std::size_t>(batch_)},
           {},
           {Arg(x), Arg(w), Arg(bias), Arg(has_bias_), Arg(y), Arg(channels_), Arg(out_channels_), Arg(groups_),
            Arg(axes_.size), Arg(axes_.out), Arg(axes_.kernel), Arg(axes_.stride), Arg(axes_.dilation),
            Arg(axes_.pad_begin), Arg(transposed_)},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  cl_int transposed_;
  cl_int has_bias_;
  std::int64_t batch_;
  cl_int channels_, out_channels_, groups_;
  ThreeAxes axes_;
};

}  // namespace backplane::opencl
