// What a CpuOneDnn workload tells profiles about itself (backend::WorkloadInfo): the one owner of
// which oneDNN implementations count as slow paths.
#pragma once

#include <backplane/backend/workload.hpp>

#include <string>
#include <utility>

namespace backplane::onednn {

// The info of a workload run by oneDNN implementation `name` (the primitive descriptor's
// impl_info_str: "jit:avx2", "gemm:jit", "ref:any"). oneDNN's reference kernels ("ref:any",
// "ref_fused:any", ...) are plain loops, what it falls back to when no optimized kernel takes
// the shapes, layouts and fused operations: those are a slow path. Pure function.
inline backend::WorkloadInfo DescribeImplementation(std::string name) {
  backend::WorkloadInfo info;
  if (name.rfind("ref", 0) == 0) {
    info.slow_path = "oneDNN has no optimized kernel for this layer's shapes, layouts or fused operations "
                     "on this CPU and runs its reference kernel";
  }
  info.implementation = std::move(name);
  return info;
}

}  // namespace backplane::onednn
