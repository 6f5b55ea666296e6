// Pad (ONNX), f32: constant, reflect (numpy.pad's, repeated for wide pads) and edge modes;
// negative pads crop. One output element per work-item maps its position back to the input
// (kernels/data_movement.cl pad_nd).
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

class PadWorkload final : public OpenClWorkload {
 public:
  PadWorkload(const backend::ILayerView& layer, OpenClDevice& device)
      : OpenClWorkload(layer, device), kernel_(MakeKernel(device, kKernelSource_data_movement, "pad_nd")) {
    const auto& d = DescriptorOf<PadDescriptor>(layer);
    const TensorShape& in = layer.GetInputInfo(0).shape;
    const TensorShape& out = layer.GetOutputInfo(0).shape;
    const std::size_t rank = in.Rank();
    rank_ = static_cast<cl_int>(rank);
    count_ = static_cast<cl_int>(out.NumElements());
    out_dims_ = PackInt8(out.Dims());
    in_dims_ = PackInt8(in.Dims());
    begins_ = PackInt8(std::vector<std::int64_t>(d.pads.begin(), d.pads.begin() + static_cast<std::ptrdiff_t>(rank)));
    mode_ = d.mode == PadMode::kConstant ? 0 : d.mode == PadMode::kReflect ? 1 : 2;
    value_ = d.value;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), y = Out(args, 0);
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(count_)}, {},
           {Arg(x), Arg(y), Arg(count_), Arg(rank_), Arg(out_dims_), Arg(in_dims_), Arg(begins_), Arg(mode_),
            Arg(value_)},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  cl_int rank_ = 0, count_ = 0, mode_ = 0;
  cl_int8 out_dims_{}, in_dims_{}, begins_{};
  float value_ = 0.0f;
};

}  // namespace

bool IsPadSupported(const backend::ILayerView& layer, std::string& reason) {
  const auto& d = DescriptorOf<PadDescriptor>(layer);
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  for (std::size_t i = 0; i < in.Rank(); ++i) {
    if (d.mode != PadMode::kConstant && in[i] == 0 && out[i] > 0) {
      return Fail(reason, "cannot " + std::string(d.mode == PadMode::kEdge ? "edge" : "reflect") +
                              "-pad axis " + std::to_string(i) + " of " + ToString(in) + ": it is empty");
    }
  }
  return AllFitKernelIndexing({in, out}, reason);
}

std::unique_ptr<backend::IWorkload> CreatePadWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<PadWorkload>(layer, device);
}

}  // namespace backplane::opencl
