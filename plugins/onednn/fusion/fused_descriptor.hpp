// The PreCompiled layer CpuOneDnn's fusion makes: the anchor's descriptor, the roles of the
// tensors entering the chain and the post-op steps after the anchor. Written by the chain
// builder (chain_builder.hpp), read by the fused workload (fused_workload.cpp). Immutable once
// built; shared by the runtime's graph.
#pragma once

#include "../ops/onednn_ops.hpp"

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

}  // namespace backplane::onednn
