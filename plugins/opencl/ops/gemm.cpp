#include "gemm.hpp"

#include "kernel_sources.hpp"

namespace backplane::opencl {

namespace {
constexpr std::size_t kGroup = 16;  // GROUP in gemm.cl
constexpr std::size_t kTile = 64;   // TILE_M / TILE_N in gemm.cl
constexpr std::size_t kBlock = 4;   // BLOCK in gemm.cl
constexpr std::size_t kTiledLocalBytes = (16 * 65 + 16 * 64) * sizeof(float);
}  // namespace

GemmStrategy ChooseGemmStrategy(const OpenClDevice& device, cl_kernel tiled_kernel, std::int64_t m, std::int64_t n) {
  if (m < static_cast<std::int64_t>(kGroup) || n < static_cast<std::int64_t>(kGroup)) return GemmStrategy::kSimple;
  if (device.IsCpu()) return GemmStrategy::kBlocked;
  std::size_t kernel_max = 0;
  if (clGetKernelWorkGroupInfo(tiled_kernel, device.Device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof(kernel_max),
                               &kernel_max, nullptr) != CL_SUCCESS) {
    return GemmStrategy::kBlocked;
  }
  const bool fits = kernel_max >= kGroup * kGroup && device.MaxWorkGroupSize() >= kGroup * kGroup &&
                    device.LocalMemoryBytes() >= kTiledLocalBytes;
  return fits ? GemmStrategy::kTiled : GemmStrategy::kBlocked;
}

GemmKernels::GemmKernels(OpenClDevice& device)
    : device_(device),
      tiled_(MakeKernel(device, kKernelSource_gemm, "gemm_tiled")),
      blocked_(MakeKernel(device, kKernelSource_gemm, "gemm_blocked")),
      simple_(MakeKernel(device, kKernelSource_gemm, "gemm_simple")) {}

void GemmKernels::Enqueue(const GemmCall& g, const char* what) const {
  const cl_int has_c = g.c != nullptr ? 1 : 0;
  cl_mem c = g.c != nullptr ? g.c : g.y;  // any valid buffer when there is no C
  const std::vector<KernelArg> args{Arg(g.m),     Arg(g.n),    Arg(g.k),    Arg(g.a),    Arg(g.a_rs),
                                    Arg(g.a_cs),  Arg(g.b),    Arg(g.b_rs), Arg(g.b_cs), Arg(g.offsets),
                                    Arg(g.alpha), Arg(c),      Arg(has_c),  Arg(g.c_rs), Arg(g.c_cs),
                                    Arg(g.beta),  Arg(g.y)};
  const auto n = static_cast<std::size_t>(g.n), m = static_cast<std::size_t>(g.m);
  const auto batch = static_cast<std::size_t>(g.batch);
  switch (ChooseGemmStrategy(device_, tiled_.Get(), g.m, g.n)) {
    case GemmStrategy::kTiled:
      Launch(device_, tiled_.Get(), {(n + kTile - 1) / kTile * kGroup, (m + kTile - 1) / kTile * kGroup, batch},
             {kGroup, kGroup, 1}, args, what);
      return;
    case GemmStrategy::kBlocked:
      Launch(device_, blocked_.Get(), {(n + kBlock - 1) / kBlock, (m + kBlock - 1) / kBlock, batch}, {}, args, what);
      return;
    case GemmStrategy::kSimple:
      Launch(device_, simple_.Get(), {n, m, batch}, {}, args, what);
      return;
  }
}

}  // namespace backplane::opencl
