// Pooling2d and PoolingNd: max and average (with or without the padding counted), global,
// dilated, ceil mode, over 1 to 3 spatial axes; 2-D on the blocked layout convolutions write,
// other ranks dense (ActivationLayout).
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <optional>

namespace backplane::onednn {

namespace {
using dnnl::memory;

// One pooling, whatever its descriptor type: the window per spatial axis (pads: begins, then
// ends), unused when global.
struct PoolWindow {
  PoolingType type = PoolingType::kMax;
  bool count_include_pad = false, ceil_mode = false, global = false;
  memory::dims kernel, strides, dilations, pads;
};

PoolWindow WindowOf(const Pooling2dDescriptor& d) {
  return {d.type,
          d.count_include_pad,
          d.ceil_mode,
          d.global,
          {d.kernel[0], d.kernel[1]},
          {d.strides[0], d.strides[1]},
          {d.dilations[0], d.dilations[1]},
          {d.pads[0], d.pads[1], d.pads[2], d.pads[3]}};
}

PoolWindow WindowOf(const PoolingNdDescriptor& d) {
  const auto dims = [](const std::vector<std::uint32_t>& values) { return memory::dims(values.begin(), values.end()); };
  return {d.type, d.count_include_pad, d.ceil_mode, d.global, dims(d.kernel), dims(d.strides), dims(d.dilations),
          dims(d.pads)};
}

PoolWindow WindowOf(const backend::LayerType type, const LayerDescriptor* d) {
  if (type == backend::LayerType::kPooling2d) return WindowOf(static_cast<const Pooling2dDescriptor&>(*d));
  return WindowOf(static_cast<const PoolingNdDescriptor&>(*d));
}

// CpuOneDnn's own limits of a pooling window (oneDNN's pooling takes neither).
bool IsWindowSupported(const PoolWindow& w, std::string& reason) {
  if (w.global) return true;
  if (w.type == PoolingType::kAverage && w.count_include_pad && w.ceil_mode) {
    reason = "average pooling counting the padding with ceil mode";
    return false;
  }
  const std::size_t rank = w.kernel.size();
  for (std::size_t i = 0; i < rank; ++i) {
    if (w.pads[i] >= w.kernel[i] || w.pads[i + rank] >= w.kernel[i]) {
      reason = "padding not smaller than the kernel";
      return false;
    }
  }
  return true;
}

bool IsPoolingSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFloat32(layer, reason) && IsWindowSupported(WindowOf(layer.GetType(), layer.GetDescriptor()), reason);
}

std::unique_ptr<backend::IWorkload> CreatePoolingWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  PoolWindow w = WindowOf(spec.type, spec.descriptor);
  const auto x_dims = DimsOf(spec.inputs[0].info);
  const auto y_dims = DimsOf(spec.output);
  const std::size_t rank = x_dims.size() - 2;
  if (w.global) {
    w.kernel.assign(x_dims.begin() + 2, x_dims.end());
    w.strides.assign(rank, 1);
    w.dilations.assign(rank, 1);
    w.pads.assign(2 * rank, 0);
  }
  const memory::dims pad_l(w.pads.begin(), w.pads.begin() + static_cast<std::ptrdiff_t>(rank));
  memory::dims pad_r(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    // The end padding that yields exactly the inferred output (ceil mode's partial window).
    const memory::dim extent = (w.kernel[i] - 1) * w.dilations[i] + 1;
    pad_r[i] = std::max<memory::dim>(0, (y_dims[2 + i] - 1) * w.strides[i] + extent - x_dims[2 + i] - pad_l[i]);
  }
  const auto algorithm = w.type == PoolingType::kMax ? dnnl::algorithm::pooling_max
                         : w.count_include_pad       ? dnnl::algorithm::pooling_avg_include_padding
                                                     : dnnl::algorithm::pooling_avg_exclude_padding;
  try {
    std::vector<memory::desc> operands;
    const auto attr = PostOpAttr(*execution, spec.post_ops, y_dims, nullptr, operands);
    // In the convolutions' activation type where oneDNN has a non-reference kernel for it.
    std::optional<compat::PoolingPrimitive::primitive_desc> pd;
    for (const memory::data_type type : ActivationTypes(*execution)) {
      const memory::desc src = ActivationLayout(*execution, x_dims, type);
      const memory::desc dst(y_dims, type, memory::format_tag::any);
      pd = compat::Pooling(execution->engine, algorithm, src, dst, w.strides, w.kernel, w.dilations, pad_l, pad_r,
                           attr);
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
}  // namespace

bool IsPooling2dSupported(const backend::ILayerView& layer, std::string& reason) {
  return IsPoolingSupported(layer, reason);
}

std::unique_ptr<backend::IWorkload> CreatePooling2dWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  return CreatePoolingWorkload(spec, execution);
}

bool IsPoolingNdSupported(const backend::ILayerView& layer, std::string& reason) {
  return IsPoolingSupported(layer, reason);
}

std::unique_ptr<backend::IWorkload> CreatePoolingNdWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  return CreatePoolingWorkload(spec, execution);
}

}  // namespace backplane::onednn
