// Gather (ONNX), f32 data, i32 or i64 indices (negative count from the end): one output
// element per work-item. Constant indices are range-checked at creation (an out-of-range index
// fails there, naming it). Run-time indices cannot raise an error from the device without a
// blocking read-back per run, so an out-of-range one writes 0 (CpuRef throws instead).
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

class GatherWorkload final : public OpenClWorkload {
 public:
  GatherWorkload(const backend::ILayerView& layer, OpenClDevice& device, std::size_t axis)
      : OpenClWorkload(layer, device) {
    const TensorInfo& data = layer.GetInputInfo(0);
    const TensorInfo& indices = layer.GetInputInfo(1);
    const bool wide = indices.type == DataType::kInt64;
    kernel_ = MakeKernel(device, kKernelSource_data_movement, wide ? "gather_i64" : "gather_i32");
    const backend::AxisExtents around = backend::ExtentsAroundAxis(data.shape, axis);
    axis_length_ = static_cast<cl_int>(around.length);
    indices_ = static_cast<cl_int>(indices.shape.NumElements());
    inner_ = static_cast<cl_int>(around.inner);
    count_ = static_cast<cl_int>(layer.GetOutputInfo(0).shape.NumElements());
    if (const void* constant = layer.GetConstantInput(1)) {
      for (cl_int j = 0; j < indices_; ++j) {
        const std::int64_t index = wide ? static_cast<const std::int64_t*>(constant)[j]
                                        : static_cast<const std::int32_t*>(constant)[j];
        if (index < -axis_length_ || index >= axis_length_) {
          throw Exception(ErrorCode::kInvalidArgument,
                          "Gather index " + std::to_string(index) + " (element " + std::to_string(j) +
                              " of the indices) is out of range [" + std::to_string(-axis_length_) + ", " +
                              std::to_string(axis_length_ - 1) + "] for axis " + std::to_string(axis) + " of data " +
                              ToString(data.shape) + " (" + name_ + ")");
        }
      }
    }
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem data = In(args, 0), indices = In(args, 1), y = Out(args, 0);
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(count_)}, {},
           {Arg(data), Arg(indices), Arg(y), Arg(count_), Arg(axis_length_), Arg(indices_), Arg(inner_)},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  cl_int axis_length_ = 0, indices_ = 0, inner_ = 1, count_ = 0;
};

}  // namespace

bool IsGatherSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFitKernelIndexing({layer.GetInputInfo(0).shape, layer.GetOutputInfo(0).shape}, reason);
}

std::unique_ptr<backend::IWorkload> CreateGatherWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  std::size_t a = 0;
  NormalizeAxis(DescriptorOf<GatherDescriptor>(layer).axis, layer.GetInputInfo(0).shape.Rank(), a);
  return std::make_unique<GatherWorkload>(layer, device, a);
}

}  // namespace backplane::opencl
