// Reduce (mean, sum) over any axes: oneDNN's reduction into a destination of the same rank
// with 1 along the reduced axes, which is the output's dense bytes with or without keep_dims.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

namespace backplane::onednn {

bool IsReduceSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFloat32(layer, reason) && FitsOneDnnRank(layer.GetInputInfo(0).shape, reason);
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
  const auto algorithm = descriptor.operation == ReduceOperation::kMean ? dnnl::algorithm::reduction_mean
                                                                        : dnnl::algorithm::reduction_sum;
  try {
    const dnnl::memory::desc src = PlainDesc(dims);
    const dnnl::memory::desc dst = PlainDesc(reduced);
    auto pd = compat::Reduction(execution->engine, algorithm, src, dst, execution->Attr());
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
