// Reduce (mean, sum) over a set of axes, f32 (kernels/normalization.cl). When the reduced axes
// are the trailing ones (each output sums a contiguous row), one work-group per output sums its
// row in local memory (reduce_rows); any other set of axes runs one output per work-item
// (reduce_sum). The mean of an empty set is NaN.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::opencl {

namespace {

// Which axes of `shape` are reduced (all of them when the descriptor names none). The op
// schema has checked that the axes are in range and named once.
std::vector<bool> ReducedAxes(const ReduceDescriptor& d, const TensorShape& shape) {
  std::vector<bool> reduced(shape.Rank(), d.axes.empty());
  for (const std::int32_t axis : d.axes) {
    std::size_t a = 0;
    NormalizeAxis(axis, shape.Rank(), a);
    reduced[a] = true;
  }
  return reduced;
}

class ReduceWorkload final : public OpenClWorkload {
 public:
  ReduceWorkload(const backend::ILayerView& layer, OpenClDevice& device, const std::vector<bool>& reduced)
      : OpenClWorkload(layer, device) {
    const auto& d = DescriptorOf<ReduceDescriptor>(layer);
    mean_ = d.operation == ReduceOperation::kMean ? 1 : 0;
    const TensorShape& shape = layer.GetInputInfo(0).shape;
    // Rows: no kept axis longer than 1 after the first reduced axis longer than 1.
    bool seen_reduced = false;
    rows_ = true;
    for (std::size_t i = 0; i < shape.Rank(); ++i) {
      if (shape[i] == 1) continue;
      if (reduced[i]) seen_reduced = true;
      if (!reduced[i] && seen_reduced) rows_ = false;
    }
    kernel_ = MakeKernel(device, kKernelSource_normalization, rows_ ? "reduce_rows" : "reduce_sum");
    if (rows_) {
      std::size_t kernel_max = 0;
      CheckCl(clGetKernelWorkGroupInfo(kernel_.Get(), device.Device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernel_max),
                                       &kernel_max, nullptr),
              "clGetKernelWorkGroupInfo(reduce_rows)");
      const std::size_t limit = std::min<std::size_t>({kernel_max, device.MaxWorkGroupSize(), 256});
      std::int64_t count = 1;
      for (std::size_t i = 0; i < shape.Rank(); ++i) count *= reduced[i] ? shape[i] : 1;
      while (local_ * 2 <= limit && static_cast<std::int64_t>(local_) < count) local_ *= 2;
    }
    const auto strides = DenseStrides(shape);
    std::vector<std::int64_t> kept_dims, kept_strides, red_dims, red_strides;
    std::int64_t outputs = 1, count = 1;
    for (std::size_t i = 0; i < shape.Rank(); ++i) {
      if (reduced[i]) {
        red_dims.push_back(shape[i]);
        red_strides.push_back(strides[i]);
        count *= shape[i];
      } else {
        kept_dims.push_back(shape[i]);
        kept_strides.push_back(strides[i]);
        outputs *= shape[i];
      }
    }
    outputs_ = static_cast<cl_int>(outputs);
    count_ = static_cast<cl_int>(count);
    kept_rank_ = static_cast<cl_int>(kept_dims.size());
    red_rank_ = static_cast<cl_int>(red_dims.size());
    kept_dims_ = PackInt8(kept_dims);
    kept_strides_ = PackInt8(kept_strides);
    red_dims_ = PackInt8(red_dims);
    red_strides_ = PackInt8(red_strides);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0), y = Out(args, 0);
    if (rows_) {
      Launch(device_, kernel_.Get(), {local_, static_cast<std::size_t>(outputs_)}, {local_, 1},
             {Arg(x), Arg(y), Arg(count_), Arg(mean_), LocalArg(local_ * sizeof(float))}, name_.c_str());
      return;
    }
    Launch(device_, kernel_.Get(), {static_cast<std::size_t>(outputs_)}, {},
           {Arg(x), Arg(y), Arg(outputs_), Arg(kept_rank_), Arg(kept_dims_), Arg(kept_strides_), Arg(red_rank_),
            Arg(red_dims_), Arg(red_strides_), Arg(count_), Arg(mean_)},
           name_.c_str());
  }

 private:
  ClKernel kernel_;
  bool rows_ = false;
  std::size_t local_ = 1;
  cl_int mean_ = 1, outputs_ = 0, count_ = 0, kept_rank_ = 0, red_rank_ = 0;
  cl_int8 kept_dims_{}, kept_strides_{}, red_dims_{}, red_strides_{};
};

}  // namespace

bool IsReduceSupported(const backend::ILayerView& layer, std::string& reason) {
  const ReduceOperation operation = DescriptorOf<ReduceDescriptor>(layer).operation;
  if (operation != ReduceOperation::kMean && operation != ReduceOperation::kSum) {
    reason = "GpuOpenCl runs mean and sum reductions only";
    return false;
  }
  return InputFitsKernelIndexing(layer, reason);
}

std::unique_ptr<backend::IWorkload> CreateReduceWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<ReduceWorkload>(layer, device,
                                          ReducedAxes(DescriptorOf<ReduceDescriptor>(layer), layer.GetInputInfo(0).shape));
}

}  // namespace backplane::opencl
