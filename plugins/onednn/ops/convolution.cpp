// Convolution2d: Winograd or direct convolution in the backend's activation layout (weights
// "any": oneDNN's choice), weights reordered once at load, bias and post-ops (activations,
// residual add) fused.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace backplane::onednn {

namespace {
using dnnl::memory;

const Convolution2dDescriptor& Desc(const LayerDescriptor* d) { return static_cast<const Convolution2dDescriptor&>(*d); }

constexpr std::size_t kNoResidual = static_cast<std::size_t>(-1);

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

// Whether a post-op other than the sum at `sum_index` reads a run-time tensor shaped like the
// output (the operand is then read in the destination's layout).
bool HasSameShapeOperand(const std::vector<PostOp>& post_ops, const memory::dims& y_dims, std::size_t sum_index) {
  for (std::size_t i = 0; i < post_ops.size(); ++i) {
    const PostOp& post_op = post_ops[i];
    if (i != sum_index && post_op.kind == PostOp::Kind::kBinary && !post_op.operand.constant &&
        Expand(DimsOf(post_op.operand.info), 4) == y_dims) {
      return true;
    }
  }
  return false;
}
}  // namespace

bool IsConvolution2dSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  if (!layer.GetConstantInput(1) || (layer.GetNumInputs() == 3 && !layer.GetConstantInput(2))) {
    reason = "weights and bias computed at run time are not supported (CpuOneDnn prepacks constant weights)";
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateConvolution2d(const OpSpec& spec, const ExecutionPtr& execution) {
  const auto& d = Desc(spec.descriptor);
  auto x_dims = DimsOf(spec.inputs[0].info);  // the primitive's (channels padded: see below)
  const auto w_plain_dims = DimsOf(spec.inputs[1].info);
  auto y_dims = DimsOf(spec.output);
  memory::dim groups = d.groups;
  const void* weights = spec.inputs[1].constant;
  const void* bias = spec.inputs.size() == 3 ? spec.inputs[2].constant : nullptr;
  // Groups of half a channel block (8 channels in nChw16c: RegNet's, ResNeXt's second stage)
  // have no kernel in the blocked layout, and oneDNN's own layouts for them cost a reorder on
  // each side. Pairs of them run as one group of a whole block with block-diagonal weights:
  // twice the multiply-adds of a small layer, no reorders. Measured here: regnet_y_400mf's
  // 48-channel stride-2 layer 0.35 -> 0.20 ms, resnext50's 256-channel one 0.52 -> 0.26 ms;
  // quarter-block groups, at four times the work, gained nothing. An odd count (104 channels,
  // 13 groups) pairs its last group with the padding of the last channel block: the primitive
  // runs on the padded channel count, where zero weights and bias (and post-ops that keep
  // zero) write zero, as blocked layouts keep their padding. Measured: regnet_y_400mf's
  // 104-channel layers 0.28 -> 0.12 ms (stride 2) and 0.18 -> 0.11 ms with their reorders.
  const memory::dim per_group = w_plain_dims[1];
  const memory::dim block = ChannelBlock(execution->activation_tag);
  const bool keeps_zero = !spec.input_channel_scale &&
                          std::all_of(spec.post_ops.begin(), spec.post_ops.end(), [](const PostOp& post_op) {
                            return post_op.kind == PostOp::Kind::kEltwise && KeepsZero(post_op.eltwise);
                          });
  std::vector<float> paired, padded_bias;
  bool padded = false;  // the primitive's channels include the last block's padding
  if (groups > 1 && 2 * per_group == block && w_plain_dims[0] == groups * per_group &&
      x_dims[1] == groups * per_group && (groups % 2 == 0 || keeps_zero)) {
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
  const memory::dim inputs_per_group = paired.empty() ? per_group : block;
  memory::dims w_dims{y_dims[1], inputs_per_group, w_plain_dims[2], w_plain_dims[3]};
  if (groups > 1) {  // [groups, outputs per group, inputs per group, kh, kw]
    w_dims.insert(w_dims.begin(), groups);
    w_dims[1] /= groups;
  }
  const memory::dims strides{d.strides[0], d.strides[1]};
  const memory::dims dilations{d.dilations[0], d.dilations[1]};
  const memory::dims pad_l{d.pads[0], d.pads[1]};
  // The bottom/right padding that yields exactly the output size the graph inferred.
  memory::dims pad_r(2);
  for (int i = 0; i < 2; ++i) {
    const memory::dim extent = (w_plain_dims[2 + i] - 1) * dilations[i] + 1;
    pad_r[i] = (y_dims[2 + i] - 1) * strides[i] + extent - x_dims[2 + i] - pad_l[i];
  }
  const bool has_bias = spec.inputs.size() == 3;
  const memory::desc bias_desc = PlainDesc({y_dims[1]});
  const auto any = [](const memory::dims& dims, memory::data_type type) {
    return memory::desc(dims, type, memory::format_tag::any);
  };

  try {
    // The first residual add (a run-time operand shaped like the output), if any.
    std::size_t residual = kNoResidual;
    for (std::size_t i = 0; i < spec.post_ops.size() && residual == kNoResidual; ++i) {
      const PostOp& post_op = spec.post_ops[i];
      if (post_op.kind == PostOp::Kind::kBinary && post_op.binary == dnnl::algorithm::binary_add &&
          !post_op.operand.constant && DimsOf(post_op.operand.info) == y_dims) {
        residual = i;
      }
    }
    // Candidates, best first, in each activation type (ActivationTypes: bf16 with fast_math,
    // so consecutive convolutions pass bf16 activations; then f32); the first oneDNN has a
    // non-reference kernel for wins (else the last it can make at all):
    // 1. 3x3 stride-1: Winograd F(2x2,3x3) in the activation layout (measured ~18% faster on
    //    resnet18, ~5% on resnet50 with 2 threads here). Its kernel takes a residual only as a
    //    sum post-op (the residual is copied into the destination first).
    // 2. Direct in the activation layout; in f32 a residual is a binary post-op read in place
    //    (on resnet50 ~10% faster than a sum with its copy). In bf16 a sum comes first:
    //    oneDNN's AMX (brgemm) convolutions take no full-tensor binary operand and fall back
    //    to an older kernel with one (mobilenet_v2 1.9 -> 1.7 ms, resnet50 7.2 -> 6.7 ms).
    // 3. Direct in the layouts oneDNN picks by itself ("any"); a residual is a sum post-op.
    struct Candidate {
      dnnl::algorithm algorithm;
      bool activation_layout;
      bool residual_as_sum;
    };
    // (Not for weights scaled per run: Winograd's are transformed, no longer one per channel.)
    const bool winograd_shape = !spec.input_channel_scale && groups == 1 && w_plain_dims[2] == 3 && w_plain_dims[3] == 3 && strides == memory::dims{1, 1} &&
                                dilations == memory::dims{1, 1};
    const auto candidates_in = [&](memory::data_type type) {
      std::vector<Candidate> candidates;
      if (winograd_shape) candidates.push_back({dnnl::algorithm::convolution_winograd, true, true});
      if (type != memory::data_type::f32) candidates.push_back({dnnl::algorithm::convolution_direct, true, true});
      candidates.push_back({dnnl::algorithm::convolution_direct, true, false});
      // (Padded channels are the activation layout's padding: read in no other layout.)
      if (!padded) candidates.push_back({dnnl::algorithm::convolution_direct, false, true});
      return candidates;
    };

    std::optional<dnnl::convolution_forward::primitive_desc> pd;
    std::vector<memory::desc> operands;
    std::size_t sum_index = kNoResidual;
    std::string failure;
    // Makes `candidate` in `type` (pd and friends); true when it has a non-reference kernel.
    const auto make = [&](const Candidate& candidate, memory::data_type type) {
      try {
        const std::size_t sum = candidate.residual_as_sum ? residual : kNoResidual;
        // Run-time operands shaped like the output are read in the layout the convolution
        // writes: its activation layout, or (with "any") whatever oneDNN chose, asked twice.
        const memory::desc y_layout = ActivationLayout(*execution, y_dims, type);
        const memory::desc src = candidate.activation_layout ? ActivationLayout(*execution, x_dims, type) : any(x_dims, type);
        const memory::desc dst = candidate.activation_layout ? y_layout : any(y_dims, type);
        std::vector<memory::desc> descs;
        auto attr = PostOpAttr(*execution, spec.post_ops, y_dims, &y_layout, descs, sum);
        auto made = compat::Convolution(execution->engine, src, any(w_dims, type), has_bias ? &bias_desc : nullptr, dst,
                                        strides, dilations, pad_l, pad_r, attr, candidate.algorithm);
        if (HasSameShapeOperand(spec.post_ops, y_dims, sum) && made.dst_desc() != y_layout) {
          const memory::desc chosen = made.dst_desc();
          attr = PostOpAttr(*execution, spec.post_ops, y_dims, &chosen, descs, sum);
          made = compat::Convolution(execution->engine, made.src_desc(), made.weights_desc(),
                                     has_bias ? &bias_desc : nullptr, chosen, strides, dilations, pad_l, pad_r, attr,
                                     candidate.algorithm);
        }
        pd = made;
        operands = descs;
        sum_index = sum;
        return !IsReference(made);
      } catch (const dnnl::error& error) {
        failure = error.what();  // no kernel for this candidate: try the next
        return false;
      }
    };
    bool fast = false;
    // Weights scaled per run (a channel gate folded in) are scaled in f32.
    const auto types = spec.input_channel_scale ? std::vector<memory::data_type>{memory::data_type::f32}
                                                : ActivationTypes(*execution);
    for (const memory::data_type type : types) {
      for (const Candidate& candidate : candidates_in(type)) {
        if ((fast = make(candidate, type))) break;
      }
      if (fast) break;
    }
    if (!pd) ThrowCreateError(spec.name, "convolution: " + failure);
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::convolution_forward(*pd), pd->scratchpad_desc());
    const memory::data_type type = pd->src_desc().data_type();
    if (padded) {
      workload->AddPaddedInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info,
                               ActivationLayout(*execution, DimsOf(spec.inputs[0].info), type), pd->src_desc());
    } else {
      workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, PlainDesc(x_dims), pd->src_desc());
    }
    if (spec.input_channel_scale) {
      workload->AddChannelScaledWeights(DNNL_ARG_WEIGHTS, weights, PlainDesc(w_dims),
                                        pd->weights_desc(), spec.input_channel_scale->index,
                                        spec.input_channel_scale->info);
    } else {
      workload->AddConstant(DNNL_ARG_WEIGHTS,
                            PackConstant(execution->engine, weights, PlainDesc(w_dims), pd->weights_desc()));
    }
    if (has_bias) workload->AddConstant(DNNL_ARG_BIAS, PackConstant(execution->engine, bias, bias_desc, bias_desc));
    if (padded) {
      workload->SetPaddedOutput(DNNL_ARG_DST, 0, spec.output,
                                ActivationLayout(*execution, DimsOf(spec.output), pd->dst_desc().data_type()),
                                pd->dst_desc());
    } else {
      workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(y_dims), pd->dst_desc());
    }
    AddPostOpOperands(*workload, spec.post_ops, operands, sum_index);
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("convolution: ") + error.what());
  }
}

}  // namespace backplane::onednn
