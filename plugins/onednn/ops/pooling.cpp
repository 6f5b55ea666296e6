// Pooling2d: max and average (with or without the padding counted), global, dilated, ceil mode,
// on the blocked layout convolutions write.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <optional>

namespace backplane::onednn {

namespace {
using dnnl::memory;
const Pooling2dDescriptor& Desc(const LayerDescriptor* d) { return static_cast<const Pooling2dDescriptor&>(*d); }
}  // namespace

bool IsPooling2dSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const auto& d = Desc(layer.GetDescriptor());
  if (d.global) return true;
  if (d.type == PoolingType::kAverage && d.count_include_pad && d.ceil_mode) {
    reason = "average pooling counting the padding with ceil mode";
    return false;
  }
  for (int i = 0; i < 2; ++i) {
    if (d.pads[i] >= d.kernel[i] || d.pads[i + 2] >= d.kernel[i]) {
      reason = "padding not smaller than the kernel";
      return false;
    }
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreatePooling2dWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const auto& d = Desc(spec.descriptor);
  const auto x_dims = DimsOf(spec.inputs[0].info);
  const auto y_dims = DimsOf(spec.output);
  memory::dims kernel{d.kernel[0], d.kernel[1]}, strides{d.strides[0], d.strides[1]};
  memory::dims dilations{d.dilations[0], d.dilations[1]}, pad_l{d.pads[0], d.pads[1]}, pad_r(2);
  if (d.global) {
    kernel = {x_dims[2], x_dims[3]};
    strides = {1, 1};
    dilations = {1, 1};
    pad_l = {0, 0};
  }
  for (int i = 0; i < 2; ++i) {
    const memory::dim extent = (kernel[i] - 1) * dilations[i] + 1;
    pad_r[i] = (y_dims[2 + i] - 1) * strides[i] + extent - x_dims[2 + i] - pad_l[i];
    if (pad_r[i] < 0) pad_r[i] = 0;
  }
  const auto algorithm = d.type == PoolingType::kMax ? dnnl::algorithm::pooling_max
                         : d.count_include_pad       ? dnnl::algorithm::pooling_avg_include_padding
                                                     : dnnl::algorithm::pooling_avg_exclude_padding;
  try {
    std::vector<memory::desc> operands;
    const auto attr = PostOpAttr(*execution, spec.post_ops, y_dims, nullptr, operands);
    // In the convolutions' activation type where oneDNN has a non-reference kernel for it.
    std::optional<compat::PoolingPrimitive::primitive_desc> pd;
    for (const memory::data_type type : ActivationTypes(*execution)) {
      const memory::desc src = ActivationLayout(*execution, x_dims, type);
      const memory::desc dst(y_dims, type, memory::format_tag::any);
      pd = compat::Pooling(execution->engine, algorithm, src, dst, strides, kernel, dilations, pad_l, pad_r, attr);
      if (!IsReference(*pd)) break;
    }
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(compat::PoolingPrimitive(*pd), pd->scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, PlainDesc(x_dims), pd->src_desc());
    AddPostOpOperands(*workload, spec.post_ops, operands);
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(y_dims), pd->dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("pooling: ") + error.what());
  }
}

}  // namespace backplane::onednn
