// Transpose, f32: output dimension i is input dimension permutation[i]. One strided copy
// (strided_copy.hpp) writing the output in order and reading the input through permuted
// strides, dimensions that stay adjacent in both merged.
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "strided_copy.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

// The SDK's checks and strides (op_geometry.hpp), the kernel's 32-bit indexing, then the copy.
bool Plan(const backend::ILayerView& layer, CopyPlan& plan, std::string& reason) {
  backend::TransposeGeometry g;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  if (!backend::DescribeTranspose(layer, g, reason) || !FitsKernelIndexing(in, reason)) return false;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  if (!MakeCopyPlan(out.Dims(), 0, g.read_strides, 0, DenseStrides(out), plan)) {
    return Fail(reason, "the permutation needs more than 8 dimensions");
  }
  return true;
}

}  // namespace

bool IsTransposeSupported(const backend::ILayerView& layer, std::string& reason) {
  CopyPlan plan;  // Plan's DescribeX checks the arity too
  return Plan(layer, plan, reason);
}

std::unique_ptr<backend::IWorkload> CreateTransposeWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  CopyPlan plan;
  std::string reason;
  if (!Plan(layer, plan, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<CopyPlanWorkload>(layer, device, plan);
}

}  // namespace backplane::opencl
