// Softmax along one axis (dense layout).
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

namespace backplane::onednn {

bool IsSoftmaxSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFloat32(layer, reason) && FitsOneDnnRank(layer.GetInputInfo(0).shape, reason);
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
