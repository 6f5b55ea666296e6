// ConvolutionTranspose (ONNX ConvTranspose), f32, 1 to 3 spatial axes: oneDNN's deconvolution,
// activations in the backend's activation layout, weights ("any": oneDNN's choice) and bias
// reordered once at load. Groups are the weights' leading group dimension. ONNX weights
// [C, M/groups, k...] are oneDNN's [groups, M/groups, C/groups, k...] read through strides
// (input channels outermost), so the one reorder at load also transposes them.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../dnnl_desc.hpp"

#include <optional>
#include <vector>

namespace backplane::onednn {

namespace {
using dnnl::memory;

// The primitive's shapes, from the layer's descriptor and tensors.
struct DeconvGeometry {
  memory::dims x_dims, y_dims, w_dims;  // w_dims: oneDNN's ([groups,] M/groups, C/groups, k...)
  memory::desc w_plain;                 // the ONNX weights' bytes in w_dims
  memory::dims strides, dilations, pad_l, pad_r;
};

DeconvGeometry GeometryOf(const OpSpec& spec) {
  const auto& d = static_cast<const ConvolutionTransposeDescriptor&>(*spec.descriptor);
  DeconvGeometry g;
  g.x_dims = DimsOf(spec.inputs[0].info);
  g.y_dims = DimsOf(spec.output);
  const memory::dims onnx_w = DimsOf(spec.inputs[1].info);  // [C, M/groups, k...]
  const std::size_t rank = g.x_dims.size() - 2;
  const memory::dim groups = d.groups, in_per_group = onnx_w[0] / groups, out_per_group = onnx_w[1];
  memory::dim kernel = 1;
  for (std::size_t a = 0; a < rank; ++a) kernel *= onnx_w[2 + a];
  // Dims [G, M/G, C/G, k...]; element (g, m, c, k...) sits at ((g * C/G + c) * M/G + m) * kernel + k.
  memory::dims dims{groups, out_per_group, in_per_group};
  memory::dims strides{in_per_group * out_per_group * kernel, kernel, out_per_group * kernel};
  memory::dim tap_stride = kernel;
  for (std::size_t a = 0; a < rank; ++a) {
    dims.push_back(onnx_w[2 + a]);
    tap_stride /= onnx_w[2 + a];
    strides.push_back(tap_stride);
  }
  if (groups == 1) {  // oneDNN's plain [M, C, k...] without the group dimension
    dims.erase(dims.begin());
    strides.erase(strides.begin());
  }
  g.w_dims = dims;
  g.w_plain = memory::desc(dims, memory::data_type::f32, strides);
  for (std::size_t a = 0; a < rank; ++a) {
    g.strides.push_back(d.strides[a]);
    g.dilations.push_back(d.dilations[a]);
    g.pad_l.push_back(d.pads[a]);
    // The end padding that yields exactly the inferred output: the ONNX end pad less
    // output_padding, which may make it negative (oneDNN then extends the output).
    const memory::dim extent = (onnx_w[2 + a] - 1) * g.dilations[a] + 1;
    g.pad_r.push_back((g.x_dims[2 + a] - 1) * g.strides[a] + extent - g.y_dims[2 + a] - g.pad_l[a]);
  }
  return g;
}

// The workload of `pd`: input in the layout it reads, weights and bias packed once.
std::unique_ptr<backend::IWorkload> Build(const dnnl::deconvolution_forward::primitive_desc& pd,
                                          const DeconvGeometry& g, const OpSpec& spec,
                                          const ExecutionSettingsPtr& execution) {
  auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
  workload->SetPrimitive(dnnl::deconvolution_forward(pd), pd.scratchpad_desc());
  workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, PlainDesc(g.x_dims), pd.src_desc());
  workload->AddConstant(DNNL_ARG_WEIGHTS,
                        PackConstant(execution->engine, spec.inputs[1].constant, g.w_plain, pd.weights_desc()));
  if (spec.inputs.size() == 3) {
    const memory::desc bias = PlainDesc({g.y_dims[1]});
    workload->AddConstant(DNNL_ARG_BIAS, PackConstant(execution->engine, spec.inputs[2].constant, bias, bias));
  }
  workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(g.y_dims), pd.dst_desc());
  return workload;
}
}  // namespace

std::unique_ptr<backend::IWorkload> CreateConvolutionTransposeWorkload(const OpSpec& spec,
                                                                       const ExecutionSettingsPtr& execution) {
  try {
    const DeconvGeometry g = GeometryOf(spec);
    std::vector<memory::desc> operands;
    const auto attr = PostOpAttr(*execution, spec.post_ops, g.y_dims, nullptr, operands);
    const memory::desc bias_desc = PlainDesc({g.y_dims[1]});
    const memory::desc* bias = spec.inputs.size() == 3 ? &bias_desc : nullptr;
    // In the activation type of the convolutions where oneDNN has a non-reference kernel for
    // it (the last one made otherwise); activations in the layout the other ops assume.
    std::optional<dnnl::deconvolution_forward::primitive_desc> pd;
    for (const memory::data_type type : ActivationTypes(*execution)) {
      pd = compat::Deconvolution(execution->engine, ActivationLayout(*execution, g.x_dims, type),
                                 memory::desc(g.w_dims, type, memory::format_tag::any), bias,
                                 ActivationLayout(*execution, g.y_dims, type), g.strides, g.dilations, g.pad_l,
                                 g.pad_r, attr);
      if (!IsReference(*pd)) break;
    }
    if (!pd) ThrowCreateError(spec.name, "deconvolution: no activation type to run it in");
    return Build(*pd, g, spec, execution);
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("deconvolution: ") + error.what());
  }
}

}  // namespace backplane::onednn
