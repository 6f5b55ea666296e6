#include "strided_copy.hpp"

#include "kernel_sources.hpp"

namespace backplane::opencl {

bool MakeCopyPlan(const std::vector<std::int64_t>& dims, std::int64_t src_offset,
                  const std::vector<std::int64_t>& src_strides, std::int64_t dst_offset,
                  const std::vector<std::int64_t>& dst_strides, CopyPlan& plan) {
  std::vector<std::int64_t> d, s, t;
  std::int64_t count = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    count *= dims[i];
    if (dims[i] == 1) continue;
    if (!d.empty() && s.back() == src_strides[i] * dims[i] && t.back() == dst_strides[i] * dims[i]) {
      d.back() *= dims[i];
      s.back() = src_strides[i];
      t.back() = dst_strides[i];
      continue;
    }
    d.push_back(dims[i]);
    s.push_back(src_strides[i]);
    t.push_back(dst_strides[i]);
  }
  if (d.size() > 8) return false;
  plan.count = static_cast<cl_int>(count);
  plan.rank = static_cast<cl_int>(d.size());
  plan.src_offset = static_cast<cl_int>(src_offset);
  plan.dst_offset = static_cast<cl_int>(dst_offset);
  plan.dims = PackInt8(d);
  plan.src_strides = PackInt8(s);
  plan.dst_strides = PackInt8(t);
  return true;
}

void EnqueueCopyPlan(OpenClDevice& device, cl_kernel kernel, const CopyPlan& plan, cl_mem src, cl_mem dst,
                     const char* what) {
  if (plan.count == 0) return;
  const bool contiguous =
      plan.rank == 0 || (plan.rank == 1 && plan.src_strides.s[0] == 1 && plan.dst_strides.s[0] == 1);
  if (contiguous) {
    EnqueueCopy(device, src, static_cast<std::size_t>(plan.src_offset) * sizeof(float), dst,
                static_cast<std::size_t>(plan.dst_offset) * sizeof(float),
                static_cast<std::size_t>(plan.count) * sizeof(float), what);
    return;
  }
  Launch(device, kernel, {static_cast<std::size_t>(plan.count)}, {},
         {Arg(src), Arg(dst), Arg(plan.count), Arg(plan.rank), Arg(plan.dims), Arg(plan.src_offset),
          Arg(plan.src_strides), Arg(plan.dst_offset), Arg(plan.dst_strides)},
         what);
}

CopyPlanWorkload::CopyPlanWorkload(const backend::ILayerView& layer, OpenClDevice& device, const CopyPlan& plan)
    : OpenClWorkload(layer, device), kernel_(MakeKernel(device, kKernelSource_data_movement, "strided_copy")),
      plan_(plan) {}

void CopyPlanWorkload::Execute(const backend::WorkloadArgs& args) const {
  EnqueueCopyPlan(device_, kernel_.Get(), plan_, In(args, 0), Out(args, 0), name_.c_str());
}

}  // namespace backplane::opencl
