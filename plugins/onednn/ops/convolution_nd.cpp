// ConvolutionNd (ONNX Conv over 3 spatial axes; 1 and 2 work too), f32: oneDNN's convolution on
// 5-D ncdhw tensors. Source, destination and weights in the layouts oneDNN picks ("any": its
// blocked nCdhw16c kernels), so consecutive convolutions pass their blocked output on unchanged
// and other readers get a reorder (elementwise ops take 5-D tensors dense: ActivationLayout).
// ONNX weights [M, C/groups, k...] are oneDNN's [groups, M/groups, C/groups, k...] without a
// move; weights and bias are packed once at load. Post-ops (activations, a residual add) fuse
// as into Convolution2d: the residual add as a sum post-op where oneDNN takes it, another
// run-time operand shaped like the output read in the layout the convolution writes.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../dnnl_desc.hpp"

#include <optional>
#include <vector>

namespace backplane::onednn {

namespace {
using dnnl::memory;

struct ConvNdShapes {
  memory::dims x_dims, y_dims, w_dims;  // w_dims: oneDNN's ([groups,] M/groups, C/groups, k...)
  memory::dims strides, dilations, pad_l, pad_r;
};

ConvNdShapes ShapesOf(const OpSpec& spec) {
  const auto& d = static_cast<const ConvolutionNdDescriptor&>(*spec.descriptor);
  ConvNdShapes s;
  s.x_dims = DimsOf(spec.inputs[0].info);
  s.y_dims = DimsOf(spec.output);
  s.w_dims = DimsOf(spec.inputs[1].info);  // [M, C/groups, k...]
  const std::size_t rank = s.x_dims.size() - 2;
  if (d.groups > 1) {
    s.w_dims[0] /= d.groups;
    s.w_dims.insert(s.w_dims.begin(), d.groups);
  }
  for (std::size_t a = 0; a < rank; ++a) {
    s.strides.push_back(d.strides[a]);
    s.dilations.push_back(d.dilations[a]);
    s.pad_l.push_back(d.pads[a]);
    s.pad_r.push_back(d.pads[rank + a]);  // oneDNN rounds the output down as ONNX does
  }
  return s;
}

struct Made {
  dnnl::convolution_forward::primitive_desc pd;
  std::vector<memory::desc> operands;
  std::size_t sum_index = kNoResidual;
};

// The primitive in `type`, layouts oneDNN's choice, post-op `sum_index` (a residual add) as a
// sum; asked again with the chosen destination layout when another post-op operand must be
// read in it. Throws dnnl::error when oneDNN has no kernel for it.
Made Make(const ConvNdShapes& s, const OpSpec& spec, const ExecutionSettings& execution, memory::data_type type,
          std::size_t sum_index) {
  const auto any = [type](const memory::dims& dims) { return memory::desc(dims, type, memory::format_tag::any); };
  const memory::desc bias_desc = PlainDesc({s.y_dims[1]});
  const memory::desc* bias = spec.inputs.size() == 3 ? &bias_desc : nullptr;
  Made made;
  made.sum_index = sum_index;
  auto attr = PostOpAttr(execution, spec.post_ops, s.y_dims, nullptr, made.operands, sum_index);
  made.pd = compat::Convolution(execution.engine, any(s.x_dims), any(s.w_dims), bias, any(s.y_dims), s.strides,
                                s.dilations, s.pad_l, s.pad_r, attr);
  if (HasSameShapeOperand(spec.post_ops, s.y_dims, sum_index)) {
    const memory::desc chosen = made.pd.dst_desc();
    attr = PostOpAttr(execution, spec.post_ops, s.y_dims, &chosen, made.operands, sum_index);
    made.pd = compat::Convolution(execution.engine, made.pd.src_desc(), made.pd.weights_desc(), bias, chosen,
                                  s.strides, s.dilations, s.pad_l, s.pad_r, attr);
  }
  return made;
}

// The first of, per activation type, a residual add as a sum (which keeps oneDNN on its blocked
// kernels) and as a binary post-op, that oneDNN runs on a non-reference kernel; else the last
// one made. Throws dnnl::error when none could be made.
Made MakeBest(const ConvNdShapes& s, const OpSpec& spec, const ExecutionSettings& execution) {
  const std::size_t residual = ResidualPostOp(spec.post_ops, s.y_dims);
  std::vector<std::size_t> sums{residual};
  if (residual != kNoResidual) sums.push_back(kNoResidual);
  std::optional<Made> made;
  std::optional<dnnl::error> failure;
  for (const memory::data_type type : ActivationTypes(execution)) {
    for (const std::size_t sum_index : sums) {
      try {
        made = Make(s, spec, execution, type, sum_index);
      } catch (const dnnl::error& error) {
        failure = error;
        continue;
      }
      if (!IsReference(made->pd)) return *made;
    }
  }
  if (!made) throw *failure;
  return *made;
}

std::unique_ptr<backend::IWorkload> Build(const Made& made, const ConvNdShapes& s, const OpSpec& spec,
                                          const ExecutionSettingsPtr& execution) {
  const auto& pd = made.pd;
  auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
  workload->SetPrimitive(dnnl::convolution_forward(pd), pd.scratchpad_desc());
  workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, PlainDesc(s.x_dims), pd.src_desc());
  workload->AddConstant(DNNL_ARG_WEIGHTS,
                        PackConstant(execution->engine, spec.inputs[1].constant, PlainDesc(s.w_dims), pd.weights_desc()));
  if (spec.inputs.size() == 3) {
    const memory::desc bias = PlainDesc({s.y_dims[1]});
    workload->AddConstant(DNNL_ARG_BIAS, PackConstant(execution->engine, spec.inputs[2].constant, bias, bias));
  }
  workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(s.y_dims), pd.dst_desc());
  AddPostOpOperands(*workload, spec.post_ops, made.operands, made.sum_index);
  return workload;
}
}  // namespace

std::unique_ptr<backend::IWorkload> CreateConvolutionNdWorkload(const OpSpec& spec,
                                                                const ExecutionSettingsPtr& execution) {
  try {
    const ConvNdShapes s = ShapesOf(spec);
    return Build(MakeBest(s, spec, *execution), s, spec, execution);
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("convolution: ") + error.what());
  }
}

}  // namespace backplane::onednn
