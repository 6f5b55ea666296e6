// Convolution2d: Winograd or direct convolution in the backend's activation layout (weights
// "any": oneDNN's choice), weights reordered once at load, bias and post-ops (activations,
// residual add) fused. Which implementation: the ordered candidates of
// convolution_candidates.hpp.
#include "onednn_ops.hpp"

#include "convolution_candidates.hpp"
#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../dnnl_desc.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace backplane::onednn {

namespace {
using dnnl::memory;

const Convolution2dDescriptor& Desc(const LayerDescriptor* d) {
  return static_cast<const Convolution2dDescriptor&>(*d);
}

// Weights [groups * c, c, kernel...] (dense, `kernel` elements per filter tap set) as half as many
// groups of 2c channels, [(groups + 1) / 2, 2c, 2c, kernel...]: each pair's two filters side by
// side on the diagonal, zeros elsewhere (and in the second half of an odd count's last pair).
std::vector<float> PairGroups(const float* weights, memory::dim groups, memory::dim c, memory::dim kernel) {
  const memory::dim pair_size = 2 * c * 2 * c * kernel;
  std::vector<float> paired(static_cast<std::size_t>((groups + 1) / 2 * pair_size), 0.0f);
  for (memory::dim g = 0; g < groups; ++g) {
    float* pair = paired.data() + (g / 2) * pair_size;
    const memory::dim side = g % 2 * c;  // where this group's channels sit within the pair
    for (memory::dim o = 0; o < c; ++o) {
      for (memory::dim i = 0; i < c; ++i) {
        const float* from = weights + ((g * c + o) * c + i) * kernel;
        std::copy(from, from + kernel, pair + ((side + o) * 2 * c + side + i) * kernel);
      }
    }
  }
  return paired;
}

// The primitive's shapes and constants: the layer's, or with groups of half a channel block
// paired. Groups of half a channel block (8 channels in nChw16c: RegNet's, ResNeXt's second
// stage) have no kernel in the blocked layout, and oneDNN's own layouts for them cost a reorder
// on each side. Pairs of them run as one group of a whole block with block-diagonal weights:
// twice the multiply-adds of a small layer, no reorders. Measured here: regnet_y_400mf's
// 48-channel stride-2 layer 0.35 -> 0.20 ms, resnext50's 256-channel one 0.52 -> 0.26 ms;
// quarter-block groups, at four times the work, gained nothing. An odd count (104 channels,
// 13 groups) pairs its last group with the padding of the last channel block: the primitive
// runs on the padded channel count, where zero weights and bias (and post-ops that keep
// zero) write zero, as blocked layouts keep their padding. Measured: regnet_y_400mf's
// 104-channel layers 0.28 -> 0.12 ms (stride 2) and 0.18 -> 0.11 ms with their reorders.
// Owns the paired weights and padded bias it points at; not copyable (they are pointed at).
struct Geometry {
  memory::dims x_dims, y_dims, w_plain_dims, w_dims;  // the primitive's x, y (channels padded: see above)
  memory::dims strides, dilations, pad_l, pad_r;
  memory::dim groups = 1;
  const void* weights = nullptr;
  const void* bias = nullptr;
  bool has_bias = false;
  memory::desc bias_desc;
  bool padded = false;  // the primitive's channels include the last block's padding
  std::vector<float> paired, padded_bias;

  Geometry(const OpSpec& spec, const ExecutionSettings& execution);
  Geometry(const Geometry&) = delete;
  Geometry& operator=(const Geometry&) = delete;

 private:
  void PairGroupsOfHalfABlock(const OpSpec& spec, const ExecutionSettings& execution);
};

Geometry::Geometry(const OpSpec& spec, const ExecutionSettings& execution)
    : x_dims(DimsOf(spec.inputs[0].info)),
      y_dims(DimsOf(spec.output)),
      w_plain_dims(DimsOf(spec.inputs[1].info)),
      groups(Desc(spec.descriptor).groups),
      weights(spec.inputs[1].constant),
      bias(spec.inputs.size() == 3 ? spec.inputs[2].constant : nullptr),
      has_bias(spec.inputs.size() == 3) {
  const auto& d = Desc(spec.descriptor);
  PairGroupsOfHalfABlock(spec, execution);
  const memory::dim per_group = w_plain_dims[1];
  const memory::dim inputs_per_group = paired.empty() ? per_group : ChannelBlock(execution.activation_tag);
  w_dims = {y_dims[1], inputs_per_group, w_plain_dims[2], w_plain_dims[3]};
  if (groups > 1) {  // [groups, outputs per group, inputs per group, kh, kw]
    w_dims.insert(w_dims.begin(), groups);
    w_dims[1] /= groups;
  }
  strides = {d.strides[0], d.strides[1]};
  dilations = {d.dilations[0], d.dilations[1]};
  pad_l = {d.pads[0], d.pads[1]};
  // The bottom/right padding that yields exactly the output size the graph inferred.
  pad_r.resize(2);
  for (int i = 0; i < 2; ++i) {
    const memory::dim extent = (w_plain_dims[2 + i] - 1) * dilations[i] + 1;
    pad_r[i] = (y_dims[2 + i] - 1) * strides[i] + extent - x_dims[2 + i] - pad_l[i];
  }
  bias_desc = PlainDesc({y_dims[1]});
}

void Geometry::PairGroupsOfHalfABlock(const OpSpec& spec, const ExecutionSettings& execution) {
  const memory::dim per_group = w_plain_dims[1];
  const memory::dim block = ChannelBlock(execution.activation_tag);
  const bool keeps_zero = !spec.input_channel_scale &&
                          std::all_of(spec.post_ops.begin(), spec.post_ops.end(), [](const PostOp& post_op) {
                            return post_op.kind == PostOp::Kind::kEltwise && KeepsZero(post_op.eltwise);
                          });
  if (groups <= 1 || 2 * per_group != block || w_plain_dims[0] != groups * per_group ||
      x_dims[1] != groups * per_group || (groups % 2 != 0 && !keeps_zero)) {
    return;
  }
  paired = PairGroups(static_cast<const float*>(weights), groups, per_group, w_plain_dims[2] * w_plain_dims[3]);
  weights = paired.data();
  padded = groups % 2 == 1;
  groups = (groups + 1) / 2;
  x_dims[1] = y_dims[1] = groups * block;
  if (padded && bias) {
    const auto* from = static_cast<const float*>(bias);
    padded_bias.assign(from, from + w_plain_dims[0]);
    padded_bias.resize(static_cast<std::size_t>(y_dims[1]), 0.0f);
    bias = padded_bias.data();
  }
}

// A candidate made: the primitive descriptor, its binary post-op operands' layouts and which
// post-op became a sum.
struct Made {
  dnnl::convolution_forward::primitive_desc pd;
  std::vector<memory::desc> operands;
  std::size_t sum_index = kNoResidual;
};

// Makes `attempt` for `g`. Run-time operands shaped like the output are read in the layout the
// convolution writes: its activation layout, or (with "any") whatever oneDNN chose, asked twice.
// Throws dnnl::error when oneDNN has no kernel for it.
Made Make(const ConvolutionTry& attempt, const Geometry& g, const OpSpec& spec, const ExecutionSettings& execution,
          std::size_t residual) {
  const ConvolutionCandidate& candidate = *attempt.candidate;
  const memory::data_type type = attempt.type;
  const auto any = [](const memory::dims& dims, memory::data_type t) {
    return memory::desc(dims, t, memory::format_tag::any);
  };
  const memory::desc* bias = g.has_bias ? &g.bias_desc : nullptr;
  Made made;
  made.sum_index = candidate.residual_as_sum ? residual : kNoResidual;
  const memory::desc y_layout = ActivationLayout(execution, g.y_dims, type);
  const memory::desc src =
      candidate.activation_layout ? ActivationLayout(execution, g.x_dims, type) : any(g.x_dims, type);
  const memory::desc dst = candidate.activation_layout ? y_layout : any(g.y_dims, type);
  auto attr = PostOpAttr(execution, spec.post_ops, g.y_dims, &y_layout, made.operands, made.sum_index);
  made.pd = compat::Convolution(execution.engine, src, any(g.w_dims, type), bias, dst, g.strides, g.dilations, g.pad_l,
                                g.pad_r, attr, candidate.algorithm);
  if (HasSameShapeOperand(spec.post_ops, g.y_dims, made.sum_index) && made.pd.dst_desc() != y_layout) {
    const memory::desc chosen = made.pd.dst_desc();
    attr = PostOpAttr(execution, spec.post_ops, g.y_dims, &chosen, made.operands, made.sum_index);
    made.pd = compat::Convolution(execution.engine, made.pd.src_desc(), made.pd.weights_desc(), bias, chosen,
                                  g.strides, g.dilations, g.pad_l, g.pad_r, attr, candidate.algorithm);
  }
  return made;
}

// The workload running `made`: input, weights (packed once, or scaled per run by a channel
// gate), bias, output (through the padded layout when `g.padded`) and post-op operands.
std::unique_ptr<backend::IWorkload> Build(const Made& made, const Geometry& g, const OpSpec& spec,
                                          const ExecutionSettingsPtr& execution) {
  const auto& pd = made.pd;
  auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
  workload->SetPrimitive(dnnl::convolution_forward(pd), pd.scratchpad_desc());
  const memory::data_type type = pd.src_desc().data_type();
  if (g.padded) {
    workload->AddPaddedInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info,
                             ActivationLayout(*execution, DimsOf(spec.inputs[0].info), type), pd.src_desc());
  } else {
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, PlainDesc(g.x_dims), pd.src_desc());
  }
  if (spec.input_channel_scale) {
    workload->AddChannelScaledWeights(DNNL_ARG_WEIGHTS, g.weights, PlainDesc(g.w_dims), pd.weights_desc(),
                                      spec.input_channel_scale->index, spec.input_channel_scale->info);
  } else {
    workload->AddConstant(DNNL_ARG_WEIGHTS,
                          PackConstant(execution->engine, g.weights, PlainDesc(g.w_dims), pd.weights_desc()));
  }
  if (g.has_bias) {
    workload->AddConstant(DNNL_ARG_BIAS, PackConstant(execution->engine, g.bias, g.bias_desc, g.bias_desc));
  }
  if (g.padded) {
    workload->SetPaddedOutput(DNNL_ARG_DST, 0, spec.output,
                              ActivationLayout(*execution, DimsOf(spec.output), pd.dst_desc().data_type()),
                              pd.dst_desc());
  } else {
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(g.y_dims), pd.dst_desc());
  }
  AddPostOpOperands(*workload, spec.post_ops, made.operands, made.sum_index);
  return workload;
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string joined;
  for (const auto& line : lines) joined += (joined.empty() ? "" : "; ") + line;
  return joined;
}
}  // namespace

std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const OpSpec& spec,
                                                                const ExecutionSettingsPtr& execution) {
  try {
    const Geometry g(spec, *execution);
    ConvolutionTraits traits;
    traits.winograd_shape = !spec.input_channel_scale && g.groups == 1 && g.w_plain_dims[2] == 3 &&
                            g.w_plain_dims[3] == 3 && g.strides == memory::dims{1, 1} &&
                            g.dilations == memory::dims{1, 1};
    traits.winograd_allowed = execution->settings.winograd;
    traits.padded = g.padded;
    // Weights scaled per run (a channel gate folded in) are scaled in f32.
    const auto types = spec.input_channel_scale ? std::vector<memory::data_type>{memory::data_type::f32}
                                                : ActivationTypes(*execution);
    std::vector<std::string> verdicts;
    const std::size_t residual = ResidualPostOp(spec.post_ops, g.y_dims);
    std::optional<Made> made;  // the last candidate made: taken when none has a non-reference kernel
    for (const ConvolutionTry& attempt : ConvolutionTries(traits, types, verdicts)) {
      try {
        made = Make(attempt, g, spec, *execution, residual);
      } catch (const dnnl::error& error) {
        verdicts.push_back(Describe(attempt) + ": oneDNN has no kernel (" + error.what() + ")");
        continue;
      }
      if (!IsReference(made->pd)) break;
      verdicts.push_back(Describe(attempt) + ": reference kernel only");
    }
    if (!made) ThrowCreateError(spec.name, "convolution: no candidate could be made: " + Joined(verdicts));
    return Build(*made, g, spec, execution);
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("convolution: ") + error.what());
  }
}

}  // namespace backplane::onednn
