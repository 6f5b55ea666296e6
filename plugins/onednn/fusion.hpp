// Fusion (IBackend::OptimizeSubgraph): chains that start at a convolution, fully connected or
// matmul layer and continue with layers oneDNN can apply as post-ops become one PreCompiled
// layer. The chain grammar (each part optional): anchor -> constant operations (bias, scale;
// binary post-ops) -> either an activation (eltwise post-op), the ONNX GELU pattern
// Div(sqrt 2) -> Erf -> Add(1) -> Mul(x) -> Mul(0.5) (gelu_erf) or x * HardSigmoid(x) /
// x * Sigmoid(x) (hardswish / swish), or a residual Add of a same-shaped run-time tensor (a sum
// or binary post-op) followed by an activation.
//
// Folded data movement (matmuls of two run-time operands, as in attention): the layers between
// an operand's source tensor and the matmul - Slice (unit steps), Reshape, Flatten, Transpose,
// and a Mul or Div by a constant scalar - join the chain when each is read by the next alone
// and the composition is a strided view of the source (dims, strides, offset). The matmul
// then reads the source through that view, the scalars become one scale post-op in front, and
// a Transpose right after the matmul becomes a strided destination. Nothing is copied.
//
// Channel gates (squeeze-and-excitation): a convolution reading x * s, with s [1, C, 1, 1]
// computed at run time and the product read by the convolution alone, takes the Mul in; the
// convolution scales its weights by s each run instead of a pass over x. Only where the weights
// have at most half as many elements as x (early, wide layers), so scaling and reordering them
// costs less than the multiply it replaces.
//
// Connectivity: a chain is consecutive layers of the SubgraphView (topological order) each of
// which reads the chain's current tensor (ILayerView::GetInputProducer, Backend API 1.1), and
// every tensor inside the chain is read by the chain alone (GetOutputConsumerCount); otherwise
// the chain stops there. A broadcast run-time operand is never fused: it might be computed from
// the chain on another backend (a cycle). The runtime gives the
// PreCompiled layer every tensor entering the chain as an input and every tensor leaving it as
// an output; CreateFusedWorkload checks both against what the chain needs (one output; the
// expected constants by address and run-time operands by shape) and fails the load with a
// message naming the layers when they differ.
#pragma once

#include "ops/onednn_ops.hpp"

#include <backplane/backend/optimization.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace backplane::onednn {

// One input the fused layer expects, in the runtime's order (tensors entering the chain in
// the order the chain's layers use them).
struct FusedRole {
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  enum class Kind { kAnchorInput, kOperand, kInputChannelScale, kUnused };
  Kind kind = Kind::kUnused;
  std::size_t slot = 0;          // kAnchorInput: which input of the anchor
  TensorInfo info;
  const void* constant = nullptr;  // non-null: this constant (matched by address)
  // A run-time tensor an earlier role reads too: that role (the runtime passes it once).
  std::size_t same_as = kNone;
  // kAnchorInput through folded data movement: the view the anchor reads the tensor in.
  std::optional<dnnl::memory::desc> view;
  std::int64_t view_offset = 0;
};

struct FusedStep {
  PostOp::Kind kind = PostOp::Kind::kEltwise;
  EltwiseStep eltwise;
  dnnl::algorithm binary = dnnl::algorithm::binary_add;
  std::size_t role = 0;  // kBinary: the operand's index in roles
};

// The PreCompiled descriptor CpuOneDnn makes. Immutable; shared by the runtime's graph.
struct FusedDescriptor final : LayerDescriptor {
  backend::LayerType anchor_type = backend::LayerType::kConvolution2d;
  std::shared_ptr<const LayerDescriptor> anchor;  // a copy of the anchor's descriptor
  std::size_t anchor_inputs = 0;
  std::vector<FusedRole> roles;
  std::vector<FusedStep> steps;
  TensorInfo output;
  std::optional<dnnl::memory::desc> output_view;  // a folded Transpose after the anchor
  std::string members;  // "conv1, relu1", for messages
};

// Finds the chains in `subgraph` (layers CpuOneDnn already accepted). Never throws for a
// layer it does not understand: that layer stays untouched.
backend::OptimizationViews FuseSubgraph(const backend::SubgraphView& subgraph);

// When the fused primitive `whole` would run oneDNN's reference kernel (a binary post-op of a
// broadcast oneDNN's optimized kernels do not take, as Swin's attention bias on a strided
// matmul): the anchor with the most leading post-ops that keep it off the reference kernel,
// then the rest as a binary primitive rewriting the output in place. `whole` itself when no
// such split exists.
std::unique_ptr<backend::IWorkload> SplitAtSlowPostOp(const OpSpec& spec, const OpKernel& anchor,
                                                      const ExecutionPtr& execution,
                                                      std::unique_ptr<backend::IWorkload> whole);

// The workload of a PreCompiled layer FuseSubgraph described. Throws backplane::Exception
// (kUnsupported) when the layer is not one, or its tensors do not match the chain.
std::unique_ptr<backend::IWorkload> CreateFusedWorkload(const backend::ILayerView& layer, const ExecutionPtr& execution);

}  // namespace backplane::onednn
