// Softmax along one axis (dense layout).
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

namespace backplane::onednn {

bool IsSoftmaxSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  if (layer.GetNumInputs() != 1) {
    reason = "Softmax takes one input";
    return false;
  }
  const auto rank = layer.GetInputInfo(0).shape.Rank();
  std::size_t axis = 0;
  if (rank == 0 || rank > 12 ||
      !NormalizeAxis(static_cast<const SoftmaxDescriptor&>(*layer.GetDescriptor()).axis, rank, axis)) {
    reason = "axis out of range";
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateSoftmax(const OpSpec& spec, const ExecutionPtr& execution) {
  const auto dims = DimsOf(spec.output);
  std::size_t axis = 0;
  NormalizeAxis(static_cast<const SoftmaxDescriptor&>(*spec.descriptor).axis, dims.size(), axis);
  try {
    const dnnl::memory::desc data = PlainDesc(dims);
    auto pd = compat::Softmax(execution->engine, data, static_cast<int>(axis), execution->Attr());
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::softmax_forward(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, data, pd.src_desc());
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, data, pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("softmax: ") + error.what());
  }
}

}  // namespace backplane::onednn
