// BatchNormalization (inference, constant statistics), LayerNormalization (over the trailing
// dimensions from `axis`, constant scale and bias) and Lrn (across channels, odd sizes).
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

namespace backplane::onednn {

namespace {
using dnnl::memory;

bool ConstantInputs(const backend::ILayerView& layer, std::size_t from, std::string& reason) {
  for (std::size_t i = from; i < layer.GetNumInputs(); ++i) {
    if (!layer.GetConstantInput(i)) {
      reason = "input " + std::to_string(i) + " is computed at run time (CpuOneDnn needs it constant)";
      return false;
    }
  }
  return true;
}
}  // namespace

bool IsBatchNormalizationSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const auto rank = layer.GetInputInfo(0).shape.Rank();
  if (rank > 5) {
    reason = "rank " + std::to_string(rank) + " (2 to 5 supported)";
    return false;
  }
  return ConstantInputs(layer, 1, reason);
}

std::unique_ptr<backend::IWorkload> CreateBatchNormalizationWorkload(const OpSpec& spec,
                                                                     const ExecutionSettingsPtr& execution) {
  const float epsilon = static_cast<const BatchNormalizationDescriptor&>(*spec.descriptor).epsilon;
  const auto dims = DimsOf(spec.output);
  const memory::desc channel = PlainDesc({dims[1]});
  try {
    std::vector<memory::desc> operands;
    const auto attr = PostOpAttr(*execution, spec.post_ops, dims, nullptr, operands);
    const memory::desc data = ActivationLayout(*execution, dims);
    auto pd = compat::BatchNorm(execution->engine, data, epsilon, attr);
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::batch_normalization_forward(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, PlainDesc(dims), pd.src_desc());
    const int args[] = {DNNL_ARG_SCALE, DNNL_ARG_SHIFT, DNNL_ARG_MEAN, DNNL_ARG_VARIANCE};
    for (int i = 0; i < 4; ++i) {
      workload->AddConstant(args[i], PackConstant(execution->engine, spec.inputs[1 + i].constant, channel, channel));
    }
    AddPostOpOperands(*workload, spec.post_ops, operands);
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(dims), pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("batch normalization: ") + error.what());
  }
}

bool IsLayerNormalizationSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFloat32(layer, reason) && ConstantInputs(layer, 1, reason);
}

std::unique_ptr<backend::IWorkload> CreateLayerNormalizationWorkload(const OpSpec& spec,
                                                                     const ExecutionSettingsPtr& execution) {
  const auto& d = static_cast<const LayerNormalizationDescriptor&>(*spec.descriptor);
  const auto& shape = spec.output.shape;
  std::size_t axis = 0;
  NormalizeAxis(d.axis, shape.Rank(), axis);
  const backend::AxisExtents around = backend::ExtentsAroundAxis(shape, axis);
  const memory::dim outer = around.outer, inner = around.length * around.inner;
  const memory::desc data = PlainDesc({outer, inner});
  const memory::desc channel = PlainDesc({inner});
  const bool shift = spec.inputs.size() == 3;
  try {
    auto pd = compat::LayerNorm(execution->engine, data, d.epsilon, shift, execution->Attr());
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::layer_normalization_forward(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, data, pd.src_desc());
    workload->AddConstant(DNNL_ARG_SCALE, PackConstant(execution->engine, spec.inputs[1].constant, channel, channel));
    if (shift) {
      workload->AddConstant(DNNL_ARG_SHIFT, PackConstant(execution->engine, spec.inputs[2].constant, channel, channel));
    }
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, data, pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("layer normalization: ") + error.what());
  }
}

// oneDNN's window is c - (size - 1) / 2 .. c + (size - 1) / 2, ONNX's the same for an odd size
// only (an even one reaches one channel further up): even sizes stay with CpuRef.
bool IsLrnSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const auto rank = layer.GetInputInfo(0).shape.Rank();
  if (rank < 3 || rank > 5) {
    reason = "rank " + std::to_string(rank) + " (3 to 5 supported)";
    return false;
  }
  const auto size = static_cast<const LrnDescriptor&>(*layer.GetDescriptor()).size;
  if (size % 2 == 0) {
    reason = "size " + std::to_string(size) + " is even (oneDNN's window is symmetric, ONNX's reaches one channel further)";
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateLrnWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const auto& d = static_cast<const LrnDescriptor&>(*spec.descriptor);
  const memory::desc data = PlainDesc(DimsOf(spec.output));
  try {
    auto pd = compat::Lrn(execution->engine, data, d.size, d.alpha, d.beta, d.bias, execution->Attr());
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::lrn_forward(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, data, pd.src_desc());
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, data, pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("LRN: ") + error.what());
  }
}

}  // namespace backplane::onednn
