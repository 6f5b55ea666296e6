// Cast between f32, i32, i64 and bool, with CpuRef's (numpy astype) rules: f32 to an integer
// truncates toward zero, saturating, NaN to 0; anything to bool is "not zero"; bool reads as 0
// or 1; i64 to i32 keeps the low 32 bits. One kernel per (from, to) pair in
// kernels/data_movement.cl. f16 and bf16 are not supported.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

const char* KernelTypeName(DataType type) {
  switch (type) {
    case DataType::kFloat32: return "f32";
    case DataType::kInt32: return "i32";
    case DataType::kInt64: return "i64";
    case DataType::kBool: return "bool";
    default: return nullptr;
  }
}

class CastWorkload final : public OpenClWorkload {
 public:
  CastWorkload(const backend::ILayerView& layer, OpenClDevice& device)
      : OpenClWorkload(layer, device),
        kernel_(MakeKernel(device, kKernelSource_data_movement,
                           (std::string("cast_") + KernelTypeName(layer.GetInputInfo(0).type) + "_" +
                            KernelTypeName(layer.GetOutputInfo(0).type))
                               .c_str())),
        count_(static_cast<cl_int>(layer.GetOutputInfo(0).shape.NumElements())) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), y = Out(args, 0);
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(count_)}, {}, {Arg(x), Arg(y), Arg(count_)},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  cl_int count_;
};

}  // namespace

bool IsCastSupported(const backend::ILayerView& layer, std::string& reason) {
  const TensorInfo& in = layer.GetInputInfo(0);
  for (const DataType type : {in.type, layer.GetOutputInfo(0).type}) {
    if (!KernelTypeName(type)) {
      return Fail(reason, std::string(ToString(type)) + " is not supported; GpuOpenCl casts between f32, "
                                                        "i32, i64 and bool");
    }
  }
  return FitsKernelIndexing(in.shape, reason);
}

std::unique_ptr<backend::IWorkload> CreateCastWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<CastWorkload>(layer, device);
}

}  // namespace backplane::opencl
