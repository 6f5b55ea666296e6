// Concat along one axis; inputs in the layout activations arrive in, output as oneDNN picks.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

namespace backplane::onednn {

bool IsConcatSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason) || !FitsOneDnnRank(layer.GetOutputInfo(0).shape, reason)) return false;
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (layer.GetInputInfo(i).shape.NumElements() == 0) {
      reason = "empty input " + std::to_string(i);
      return false;
    }
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateConcat(const OpSpec& spec, const ExecutionPtr& execution) {
  const auto dims = DimsOf(spec.output);
  std::size_t axis = 0;
  NormalizeAxis(static_cast<const ConcatDescriptor&>(*spec.descriptor).axis, dims.size(), axis);
  try {
    std::vector<dnnl::memory::desc> sources;
    for (const auto& input : spec.inputs) sources.push_back(ActivationLayout(*execution, DimsOf(input.info)));
    const dnnl::memory::desc dst(dims, dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
    auto pd = compat::Concat(execution->engine, dst, static_cast<int>(axis), sources, execution->Attr());
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::concat(pd), pd.scratchpad_desc());
    for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
      const TensorRef& input = spec.inputs[i];
      const auto view = PlainDesc(DimsOf(input.info));
      const int arg = DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i);
      if (input.constant) {
        workload->AddConstant(arg, PackConstant(execution->engine, input.constant, view, sources[i]));
      } else {
        workload->AddInput(arg, input.index, input.info, view, sources[i]);
      }
    }
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(dims), pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("concat: ") + error.what());
  }
}

}  // namespace backplane::onednn
