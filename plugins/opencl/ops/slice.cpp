// Slice (ONNX), f32, with CpuRef's clamping rules (negative starts/ends from the end, steps
// of either sign): one strided copy (strided_copy.hpp) reading the input from the first
// selected element with stride step * (dense stride) per axis.
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "strided_copy.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

// The SDK's window (op_geometry.hpp), then the copy.
bool Plan(const backend::ILayerView& layer, CopyPlan& plan, std::string& reason) {
  backend::SliceGeometry g;
  if (!backend::DescribeSlice(layer, g, reason)) return false;
  MakeCopyPlan(g.output.Dims(), g.first, g.read_strides, 0, DenseStrides(g.output), plan);
  return true;
}

}  // namespace

std::unique_ptr<backend::IWorkload> CreateSliceWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  CopyPlan plan;
  std::string reason;
  if (!Plan(layer, plan, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<CopyPlanWorkload>(layer, device, plan);
}

}  // namespace backplane::opencl
