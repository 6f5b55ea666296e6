// Activation and ElementwiseUnary: one oneDNN eltwise primitive (further steps of the same
// function, e.g. HardSigmoid's clip, as post-ops), in the layout activations arrive in.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

namespace backplane::onednn {

namespace {
using dnnl::memory;

std::unique_ptr<backend::IWorkload> BuildEltwise(const OpSpec& spec, const ExecutionSettingsPtr& execution,
                                                 const std::vector<EltwiseStep>& steps) {
  // oneDNN 2.6 writes zeros for an eltwise with post-ops (HardSigmoid's clip) over a 1-D tensor
  // (found by the ONNX backend suite): a 1-D tensor runs as [1, n], the same bytes.
  auto dims = DimsOf(spec.output);
  if (dims.size() == 1) dims.insert(dims.begin(), 1);
  std::vector<PostOp> post_ops;
  for (std::size_t i = 1; i < steps.size(); ++i) post_ops.push_back(PostOp::Eltwise(steps[i]));
  post_ops.insert(post_ops.end(), spec.post_ops.begin(), spec.post_ops.end());
  try {
    std::vector<memory::desc> operands;
    const auto attr = PostOpAttr(*execution, post_ops, dims, nullptr, operands);
    const memory::desc data = ActivationLayout(*execution, dims);
    auto pd = compat::Eltwise(execution->engine, steps[0].algorithm, data, steps[0].alpha, steps[0].beta, attr);
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::eltwise_forward(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, PlainDesc(dims), pd.src_desc());
    AddPostOpOperands(*workload, post_ops, operands);
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(dims), pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("eltwise: ") + error.what());
  }
}

}  // namespace

bool IsActivationSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason) || !FitsOneDnnRank(layer.GetInputInfo(0).shape, reason)) return false;
  std::vector<EltwiseStep> steps;
  return ActivationSteps(static_cast<const ActivationDescriptor&>(*layer.GetDescriptor()), steps, reason);
}

std::unique_ptr<backend::IWorkload> CreateActivationWorkload(const OpSpec& spec,
                                                             const ExecutionSettingsPtr& execution) {
  std::vector<EltwiseStep> steps;
  std::string reason;
  if (!ActivationSteps(static_cast<const ActivationDescriptor&>(*spec.descriptor), steps, reason)) {
    ThrowCreateError(spec.name, reason);
  }
  return BuildEltwise(spec, execution, steps);
}

bool IsElementwiseUnarySupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const auto operation = static_cast<const ElementwiseUnaryDescriptor&>(*layer.GetDescriptor()).operation;
  if (HasExactUnaryLoop(operation)) return true;  // ops/exact_unary.cpp: a plain loop, any rank
  if (!FitsOneDnnRank(layer.GetInputInfo(0).shape, reason)) return false;
  std::vector<EltwiseStep> steps;
  return UnarySteps(operation, steps, reason);
}

std::unique_ptr<backend::IWorkload> CreateElementwiseUnaryWorkload(const OpSpec& spec,
                                                                   const ExecutionSettingsPtr& execution) {
  if (HasExactUnaryLoop(static_cast<const ElementwiseUnaryDescriptor&>(*spec.descriptor).operation)) {
    return CreateExactUnaryWorkload(spec, execution);
  }
  std::vector<EltwiseStep> steps;
  std::string reason;
  if (!UnarySteps(static_cast<const ElementwiseUnaryDescriptor&>(*spec.descriptor).operation, steps, reason)) {
    ThrowCreateError(spec.name, reason);
  }
  return BuildEltwise(spec, execution, steps);
}

}  // namespace backplane::onednn
