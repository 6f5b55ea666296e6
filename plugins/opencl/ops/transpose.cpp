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

// The SDK's strides (op_geometry.hpp), then the copy.
bool Plan(const backend::ILayerView& layer, CopyPlan& plan, std::string& reason) {
  backend::TransposeGeometry g;
  if (!backend::DescribeTranspose(layer, g, reason)) return false;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  if (!MakeCopyPlan(out.Dims(), 0, g.read_strides, 0, DenseStrides(out), plan)) {
    return Fail(reason, "the permutation needs more than 8 dimensions");
  }
  return true;
}

}  // namespace

std::unique_ptr<backend::IWorkload> CreateTransposeWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  CopyPlan plan;
  std::string reason;
  if (!Plan(layer, plan, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<CopyPlanWorkload>(layer, device, plan);
}

}  // namespace backplane::opencl
