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
  if (!HasArity(layer, 1, 1, 1, reason)) return false;
  const auto& d = DescriptorOf<PadDescriptor>(layer);
  const TensorShape& in = layer.GetInputInfo(0).shape;
  if (d.mode != PadMode::kConstant && d.mode != PadMode::kEdge && d.mode != PadMode::kReflect) {
    return Fail(reason, "mode " + std::to_string(static_cast<std::uint32_t>(d.mode)) +
                            " is not one GpuOpenCl knows");
  }
  const std::size_t rank = in.Rank();
  if (d.pads.size() != 2 * rank) {
    return Fail(reason, std::to_string(d.pads.size()) + " pads " + ToString(TensorShape(d.pads)) +
                            ", input " + ToString(in) + " needs " + std::to_string(2 * rank) +
                            " (begins, then ends)");
  }
  std::vector<std::int64_t> expected(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    expected[i] = in[i] + d.pads[i] + d.pads[rank + i];
    if (expected[i] < 0) {
      return Fail(reason, "pads " + ToString(TensorShape(d.pads)) + " crop axis " + std::to_string(i) +
                              " of " + ToString(in) + " below zero length");
    }
    if (d.mode != PadMode::kConstant && in[i] == 0 && expected[i] > 0) {
      return Fail(reason, "cannot " + std::string(d.mode == PadMode::kEdge ? "edge" : "reflect") +
                              "-pad axis " + std::to_string(i) + " of " + ToString(in) + ": it is empty");
    }
  }
  if (layer.GetOutputInfo(0).shape != TensorShape(expected)) {
    return Fail(reason, "output " + ToString(layer.GetOutputInfo(0).shape) + " is not " +
                            ToString(TensorShape(expected)) + ", input " + ToString(in) + " padded by " +
                            ToString(TensorShape(d.pads)));
  }
  return FitsKernelIndexing(in, reason) && FitsKernelIndexing(TensorShape(expected), reason);
}

std::unique_ptr<backend::IWorkload> CreatePadWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  std::string reason;
  if (!IsPadSupported(layer, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<PadWorkload>(layer, device);
}

}  // namespace backplane::opencl
