// Reduce (mean, sum, product and the norms) over any axes: oneDNN's reduction into a
// destination of the same rank with 1 along the reduced axes, which is the output's dense bytes
// with or without keep_dims.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <optional>

namespace backplane::onednn {

namespace {

struct ReductionAlgorithm {
  dnnl::algorithm algorithm;
  float p;  // the norms' power
};

// oneDNN's algorithm for `operation`, if it has one that computes it as ONNX does. Max and min
// are left out: oneDNN's reference kernel keeps a number over a NaN (ONNX gives NaN); so are
// LogSum and LogSumExp, which oneDNN has no algorithm for. CpuRef runs those.
std::optional<ReductionAlgorithm> AlgorithmOf(ReduceOperation operation) {
  switch (operation) {
    case ReduceOperation::kMean: return ReductionAlgorithm{dnnl::algorithm::reduction_mean, 0.0f};
    case ReduceOperation::kSum: return ReductionAlgorithm{dnnl::algorithm::reduction_sum, 0.0f};
    case ReduceOperation::kProd: return ReductionAlgorithm{dnnl::algorithm::reduction_mul, 0.0f};
    case ReduceOperation::kL1: return ReductionAlgorithm{dnnl::algorithm::reduction_norm_lp_sum, 1.0f};
    case ReduceOperation::kL2: return ReductionAlgorithm{dnnl::algorithm::reduction_norm_lp_sum, 2.0f};
    case ReduceOperation::kSumSquare: return ReductionAlgorithm{dnnl::algorithm::reduction_norm_lp_power_p_sum, 2.0f};
    default: return std::nullopt;
  }
}

}  // namespace

bool IsReduceSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AlgorithmOf(static_cast<const ReduceDescriptor&>(*layer.GetDescriptor()).operation)) {
    reason = "CpuOneDnn runs mean, sum, product, L1, L2 and sum-of-squares reductions only";
    return false;
  }
  if (!AllFloat32(layer, reason) || !FitsOneDnnRank(layer.GetInputInfo(0).shape, reason)) return false;
  if (layer.GetInputInfo(0).shape.NumElements() == layer.GetOutputInfo(0).shape.NumElements()) {
    reason = "every reduced axis has length 1: oneDNN's reduction needs one it reduces";
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateReduceWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const auto& descriptor = static_cast<const ReduceDescriptor&>(*spec.descriptor);
  const auto dims = DimsOf(spec.inputs[0].info);
  dnnl::memory::dims reduced = dims;
  if (descriptor.axes.empty()) {
    reduced.assign(dims.size(), 1);
  } else {
    for (const std::int32_t axis : descriptor.axes) {
      std::size_t normalized = 0;
      NormalizeAxis(axis, dims.size(), normalized);
      reduced[normalized] = 1;
    }
  }
  const auto algorithm = AlgorithmOf(descriptor.operation);
  if (!algorithm) ThrowCreateError(spec.name, "not a reduction CpuOneDnn runs");
  try {
    const dnnl::memory::desc src = PlainDesc(dims);
    const dnnl::memory::desc dst = PlainDesc(reduced);
    auto pd = compat::Reduction(execution->engine, algorithm->algorithm, algorithm->p, src, dst, execution->Attr());
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::reduction(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, src, pd.src_desc());
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, dst, pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("reduction: ") + error.what());
  }
}

}  // namespace backplane::onednn
