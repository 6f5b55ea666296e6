// Pooling2d, f32, NCHW (ONNX MaxPool / AveragePool / GlobalMaxPool / GlobalAveragePool): one
// output per work-item (kernels/pooling.cl), the same window rules as CpuRef: ceil_mode drops
// a last window that starts past the input and leading padding, padding never contributes a
// value, count_include_pad counts the taps inside the padded input.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

struct PoolAxis {
  std::int64_t size, kernel, stride, dilation, pad_begin, pad_end, out;
};

bool OutputExtent(PoolAxis& axis, bool ceil_mode) {
  const std::int64_t span = axis.dilation * (axis.kernel - 1) + 1;
  const std::int64_t room = axis.size + axis.pad_begin + axis.pad_end - span;
  if (room < 0) return false;
  axis.out = (ceil_mode ? (room + axis.stride - 1) / axis.stride : room / axis.stride) + 1;
  if (ceil_mode && (axis.out - 1) * axis.stride >= axis.size + axis.pad_begin) --axis.out;
  return true;
}

bool DescribePooling(const backend::ILayerView& layer, PoolAxis& rows, PoolAxis& cols, std::string& reason) {
  const auto& d = DescriptorOf<Pooling2dDescriptor>(layer);
  const TensorShape& x = layer.GetInputInfo(0).shape;
  if (x.Rank() != 4) return Fail(reason, layer, "input must be [N, C, H, W], got " + ToString(x));
  if (d.type != PoolingType::kMax && d.type != PoolingType::kAverage) {
    return Fail(reason, layer, "pooling type " + std::to_string(static_cast<std::uint32_t>(d.type)) +
                                   " is not one GpuOpenCl knows");
  }
  if (d.global) {
    rows = {x[2], x[2], 1, 1, 0, 0, 1};
    cols = {x[3], x[3], 1, 1, 0, 0, 1};
    if (x[2] == 0 || x[3] == 0) return Fail(reason, layer, "global pooling of an empty plane " + ToString(x));
  } else {
    for (std::size_t i = 0; i < 2; ++i) {
      if (d.kernel[i] == 0 || d.strides[i] == 0 || d.dilations[i] == 0) {
        return Fail(reason, layer, "kernel, strides and dilations must be at least 1");
      }
    }
    rows = {x[2], d.kernel[0], d.strides[0], d.dilations[0], d.pads[0], d.pads[2], 0};
    cols = {x[3], d.kernel[1], d.strides[1], d.dilations[1], d.pads[1], d.pads[3], 0};
    if (!OutputExtent(rows, d.ceil_mode) || !OutputExtent(cols, d.ceil_mode)) {
      return Fail(reason, layer, "the dilated kernel does not fit the padded input " + ToString(x));
    }
  }
  const TensorShape expected{x[0], x[1], rows.out, cols.out};
  if (layer.GetOutputInfo(0).shape != expected) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) + " should be " +
                                   ToString(expected));
  }
  return FitsKernelIndexing(layer, x, reason);
}

class Pooling2dWorkload final : public OpenClWorkload {
 public:
  Pooling2dWorkload(const backend::ILayerView& layer, OpenClDevice& device, const PoolAxis& rows,
                    const PoolAxis& cols)
      : OpenClWorkload(layer, device),
        kernel_(MakeKernel(device, kKernelSource_pooling, "pool2d")),
        rows_(rows),
        cols_(cols) {
    const auto& d = DescriptorOf<Pooling2dDescriptor>(layer);
    is_max_ = d.type == PoolingType::kMax ? 1 : 0;
    count_include_pad_ = d.count_include_pad ? 1 : 0;
    const TensorShape& x = layer.GetInputInfo(0).shape;
    planes_ = x[0] * x[1];
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), y = Out(args, 0);
    const auto i = [](std::int64_t v) { return static_cast<cl_int>(v); };
    const cl_int h = i(rows_.size), w = i(cols_.size), ho = i(rows_.out), wo = i(cols_.out), kh = i(rows_.kernel),
                 kw = i(cols_.kernel), sh = i(rows_.stride), sw = i(cols_.stride), dh = i(rows_.dilation),
                 dw = i(cols_.dilation), pt = i(rows_.pad_begin), pl = i(cols_.pad_begin), pb = i(rows_.pad_end),
                 pr = i(cols_.pad_end);
    Launch(device_, kernel_.Get(),
           {static_cast<std::size_t>(cols_.out), static_cast<std::size_t>(rows_.out),
            static_cast<std::size_t>(planes_)},
           {},
           {Arg(x), Arg(y), Arg(h), Arg(w), Arg(ho), Arg(wo), Arg(kh), Arg(kw), Arg(sh), Arg(sw), Arg(dh), Arg(dw),
            Arg(pt), Arg(pl), Arg(pb), Arg(pr), Arg(is_max_), Arg(count_include_pad_)},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  PoolAxis rows_, cols_;
  std::int64_t planes_ = 0;
  cl_int is_max_ = 1, count_include_pad_ = 0;
};

}  // namespace

bool IsPooling2dSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason)) return false;
  PoolAxis rows{}, cols{};
  return DescribePooling(layer, rows, cols, reason);
}

std::unique_ptr<backend::IWorkload> CreatePooling2dWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  PoolAxis rows{}, cols{};
  std::string reason;
  if (!HasArity(layer, 1, 1, 1, reason) || !DescribePooling(layer, rows, cols, reason)) {
    throw Exception(ErrorCode::kUnsupported, reason);
  }
  return std::make_unique<Pooling2dWorkload>(layer, device, rows, cols);
}

}  // namespace backplane::opencl
