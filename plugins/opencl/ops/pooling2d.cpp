// Pooling2d, f32, NCHW (ONNX MaxPool / AveragePool / GlobalMaxPool / GlobalAveragePool): one
// output per work-item (kernels/pooling.cl), the same window rules as CpuRef: ceil_mode drops
// a last window that starts past the input and leading padding, padding never contributes a
// value, count_include_pad counts the taps inside the padded input.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

using backend::PoolAxis;

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

std::unique_ptr<backend::IWorkload> CreatePooling2dWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  backend::PoolingGeometry g;
  std::string reason;
  if (!backend::DescribePooling(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<Pooling2dWorkload>(layer, device, g.rows, g.cols);
}

}  // namespace backplane::opencl
