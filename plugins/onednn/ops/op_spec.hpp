// What a CpuOneDnn op is asked to build (OpSpec): the layer's descriptor and tensors plus the
// post-ops fused into it, so a plain layer and a fused PreCompiled layer (fusion/) go through
// the same op code. Value types; a spec is alive while its op's workload is created.
#pragma once

#include "../onednn_backend_context.hpp"

#include <backplane/backend/layer.hpp>
#include <backplane/descriptors.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace backplane::onednn {

// One tensor an op reads: its info, its data when constant (valid while the network is
// loaded), and its position in WorkloadArgs::inputs when it is not.
struct TensorRef {
  TensorInfo info;
  const void* constant = nullptr;
  std::size_t index = 0;
  // Data movement folded into the reader (fusion/fusion.hpp): when set, the op reads the tensor's
  // dense bytes through this strided view, starting `view_offset` elements in, instead of in
  // the tensor's own shape. Run-time tensors only.
  std::optional<dnnl::memory::desc> view;
  std::int64_t view_offset = 0;
};

// One elementwise step oneDNN applies after the main computation (a post-op), or as the whole
// computation of an eltwise primitive.
struct EltwiseStep {
  dnnl::algorithm algorithm = dnnl::algorithm::eltwise_relu;
  float alpha = 0.0f;
  float beta = 0.0f;
};

struct PostOp {
  enum class Kind { kEltwise, kBinary };
  static PostOp Eltwise(const EltwiseStep& step) {
    PostOp post_op;
    post_op.eltwise = step;
    return post_op;
  }
  Kind kind = Kind::kEltwise;
  EltwiseStep eltwise;                                       // kEltwise
  dnnl::algorithm binary = dnnl::algorithm::binary_add;      // kBinary: dst = dst (op) operand
  TensorRef operand;                                         // kBinary
};

// What an op is asked to build. Descriptor: the layer's (type `type`), alive during creation.
struct OpSpec {
  std::string name;
  backend::LayerType type = backend::LayerType::kInput;
  const LayerDescriptor* descriptor = nullptr;
  std::vector<TensorRef> inputs;
  TensorInfo output;
  // Every output's info, output 0 (`output`) first: more than one for Split. Plain layers only
  // (a fused layer's spec has none).
  std::vector<TensorInfo> outputs;
  std::vector<PostOp> post_ops;
  // A folded Transpose after the op: it writes its result through this strided view (in its
  // own result's dims) of the output tensor's dense bytes. Its post-ops are then elementwise
  // only (a binary operand would be read in the untransposed dims).
  std::optional<dnnl::memory::desc> output_view;
  // How many layer inputs read the output (ILayerView::GetOutputConsumerCount; SIZE_MAX when
  // unknown). Plain layers only.
  std::size_t output_readers = SIZE_MAX;
  // Convolutions: a run-time tensor [1, C, 1, 1] that input 0 is multiplied by, channel by
  // channel, before the convolution (a squeeze-and-excitation gate folded by
  // fusion/channel_gate.cpp). The convolution scales its weights by it each run instead:
  // conv(x * s, W) = conv(x, W * s).
  std::optional<TensorRef> input_channel_scale;
};

// Input `input` of `layer` as WorkloadArgs input `input`, read in its own shape.
TensorRef InputRef(const backend::ILayerView& layer, std::size_t input);
// The spec of a plain (unfused) layer: input i is WorkloadArgs input i.
OpSpec SpecOf(const backend::ILayerView& layer);

using ExecutionSettingsPtr = std::shared_ptr<const ExecutionSettings>;

}  // namespace backplane::onednn
