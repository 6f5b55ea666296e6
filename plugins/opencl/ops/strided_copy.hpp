// A copy of f32 elements between two buffers over an index space of up to 8 dimensions, each
// side with its own offset and strides (kernels/data_movement.cl strided_copy): the one
// kernel behind Transpose, Slice, Concat and Split. Plans are built at creation and
// immutable; Enqueue is thread-safe.
#pragma once

#include "opencl_workload.hpp"

#include <cstdint>
#include <vector>

namespace backplane::opencl {

struct CopyPlan {
  cl_int count = 0, rank = 0, src_offset = 0, dst_offset = 0;
  cl_int8 dims{}, src_strides{}, dst_strides{};
};

// The plan for copying dst[dst_offset + i . dst_strides] = src[src_offset + i . src_strides]
// over every index i of `dims`; drops size-1 dimensions and merges neighbours both sides walk
// contiguously. False when more than 8 dimensions remain.
bool MakeCopyPlan(const std::vector<std::int64_t>& dims, std::int64_t src_offset,
                  const std::vector<std::int64_t>& src_strides, std::int64_t dst_offset,
                  const std::vector<std::int64_t>& dst_strides, CopyPlan& plan);

// Enqueues `plan` with `kernel` (strided_copy); a plan that is one contiguous run on both
// sides becomes a clEnqueueCopyBuffer.
void EnqueueCopyPlan(OpenClDevice& device, cl_kernel kernel, const CopyPlan& plan, cl_mem src, cl_mem dst,
                     const char* what);

// The workload of an op that is one strided copy from input 0 to output 0 (Transpose, Slice).
class CopyPlanWorkload final : public OpenClWorkload {
 public:
  CopyPlanWorkload(const backend::ILayerView& layer, OpenClDevice& device, const CopyPlan& plan);
  void Execute(const backend::WorkloadArgs& args) const override;

 private:
  ClKernel kernel_;  // strided_copy
  CopyPlan plan_;
};

}  // namespace backplane::opencl
