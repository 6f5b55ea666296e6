// Softmax along any axis, f32 (kernels/normalization.cl). The input is [outer, n, inner]
// around the axis. Contiguous rows (inner == 1) run one work-group per row with the maximum
// and the sum reduced in local memory; otherwise one work-item per (outer, inner) column.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::opencl {

namespace {

// The largest power of two <= min(limit, 256) and not far beyond n.
std::size_t RowGroupSize(std::int64_t n, std::size_t limit) {
  std::size_t size = 1;
  while (size * 2 <= std::min<std::size_t>(limit, 256) && static_cast<std::int64_t>(size) < n) size *= 2;
  return size;
}

class SoftmaxWorkload final : public OpenClWorkload {
 public:
  SoftmaxWorkload(const backend::ILayerView& layer, OpenClDevice& device, std::int64_t outer, std::int64_t n,
                  std::int64_t inner)
      : OpenClWorkload(layer, device), outer_(outer), n_(n), inner_(inner) {
    rows_ = inner == 1;
    kernel_ = MakeKernel(device, kKernelSource_normalization, rows_ ? "softmax_rows" : "softmax_columns");
    if (rows_) {
      std::size_t kernel_max = 0;
      CheckCl(clGetKernelWorkGroupInfo(kernel_.Get(), device.Device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernel_max),
                                       &kernel_max, nullptr),
              "clGetKernelWorkGroupInfo(softmax_rows)");
      local_ = RowGroupSize(n, std::min(kernel_max, device.MaxWorkGroupSize()));
    }
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    if (outer_ == 0 || n_ == 0 || inner_ == 0) return;
    cl_mem x = In(args, 0), y = Out(args, 0);
    const auto outer = static_cast<cl_int>(outer_), n = static_cast<cl_int>(n_), inner = static_cast<cl_int>(inner_);
    if (rows_) {
      Launch(device_, kernel_.Get(), {local_, static_cast<std::size_t>(outer_)}, {local_, 1},
             {Arg(x), Arg(y), Arg(n), LocalArg(local_ * sizeof(float))}, name_.c_str());
    } else {
      Launch(device_, kernel_.Get(), {static_cast<std::size_t>(inner_), static_cast<std::size_t>(outer_)}, {},
             {Arg(x), Arg(y), Arg(outer), Arg(n), Arg(inner)}, name_.c_str());
    }
  }

 private:
  std::int64_t outer_, n_, inner_;
  bool rows_ = false;
  std::size_t local_ = 1;
  ClKernel kernel_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateSoftmaxWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  std::size_t axis = 0;
  NormalizeAxis(DescriptorOf<SoftmaxDescriptor>(layer).axis, shape.Rank(), axis);
  const backend::AxisExtents around = backend::ExtentsAroundAxis(shape, axis);
  return std::make_unique<SoftmaxWorkload>(layer, device, around.outer, around.length, around.inner);
}

}  // namespace backplane::opencl
