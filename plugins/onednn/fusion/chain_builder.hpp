// The chain grammar: one chain from its anchor (a convolution, fully connected or matmul layer)
// through the layers oneDNN can apply as its post-ops, described as a FusedDescriptor. The
// grammar (each part optional, in this order):
//   anchor (with data movement or a channel gate folded into its inputs, folded_operand.hpp),
//   then constant operations (bias, scale; binary post-ops),
//   then either an activation (eltwise post-ops) or a residual Add of a same-shaped run-time
//   tensor (a sum or binary post-op) followed by an activation;
//   or, after a matmul of two run-time operands, a Transpose (a strided destination) alone.
// Activations arrive as one Activation layer each: GELU, SiLU and HardSwish written out in
// elementwise layers are recognized by the runtime before placement (runtime/src/graph/
// composite_ops.hpp, their one owner); a form it leaves decomposed (a layer of it pinned) is
// not fused here and its layers run one by one.
//
// Connectivity: each layer taken reads the chain's current tensor (the output of the last
// member; ILayerView::GetInputProducer, Backend API 1.1), and every tensor inside the chain is
// read by the chain alone (GetOutputConsumerCount); otherwise the chain stops there. A
// broadcast run-time operand is never fused: it might be computed from the chain on another
// backend (a cycle).
//
// Not thread-safe (one builder per chain, on the thread running OptimizeSubgraph); the layer
// views must outlive it.
#pragma once

#include "folded_operand.hpp"
#include "fused_descriptor.hpp"

#include <backplane/backend/optimization.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace backplane::onednn::fusion {

// The roles of the tensors entering one chain (FusedDescriptor::roles, in the runtime's order),
// deduplicated as the runtime dedupes tensors: a constant seen before (by address) is that
// role; a run-time tensor seen before (by producer) gets a role the same as the first.
class RoleTable {
 public:
  explicit RoleTable(std::vector<FusedRole>& roles) : roles_(roles) {}
  // The role of input `input` of member `reader` (read through `view` when given).
  std::size_t Add(FusedRole::Kind kind, std::size_t slot, const backend::ILayerView& reader, std::size_t input,
                  const StridedView* view = nullptr);

 private:
  std::vector<FusedRole>& roles_;
  std::vector<std::pair<std::string, std::size_t>> sources_;  // per role: producer and output, "" for constants
};

class ChainBuilder {
 public:
  // `folded`: per anchor input, the data movement folded into it (FoldOperand), or none. The
  // members are listed in the order the runtime gives their entering tensors (folded layers
  // first, input by input, then the anchor, then the chain), and the roles follow that order.
  ChainBuilder(const backend::ILayerView& anchor, const std::vector<FoldedOperand>& folded);

  // Tries to append `layers[next]` by the grammar above; returns how many layers it took
  // (0: none, the chain ends before it).
  std::size_t Extend(const std::vector<const backend::ILayerView*>& layers, std::size_t next);
  // Whether nothing joined the anchor (no chain to substitute).
  bool Empty() const { return members_.size() < 2; }
  // The substitution of the chain's members by one PreCompiled layer named after them.
  backend::Substitution Finish();

 private:
  enum class Stage { kAnchor, kConstant, kResidual, kDone };

  void AddFoldedRoles(std::size_t slot, const FoldedOperand& operand);
  // `layer` joins the chain; its output is the chain's tensor from now on.
  void Take(const backend::ILayerView& layer);
  void AddEltwise(const EltwiseStep& eltwise);
  // Each takes `layer` into the chain and returns 1, or returns 0 when it is not that step.
  std::size_t ExtendOutputTranspose(const backend::ILayerView& layer);
  std::size_t ExtendActivation(const backend::ILayerView& layer);
  std::size_t ExtendBinary(const backend::ILayerView& layer);
  // For a binary `layer`: which of its inputs carries the chain (`chain_input`) and the stage a
  // constant operation or residual Add brings the chain to; kAnchor when it is neither.
  Stage BinaryStage(const backend::ILayerView& layer, std::size_t& chain_input) const;

  std::shared_ptr<FusedDescriptor> descriptor_;
  RoleTable roles_;
  TensorInfo chain_;
  std::vector<const backend::ILayerView*> members_;
  const backend::ILayerView* tail_ = nullptr;  // the member whose output 0 is the chain's tensor now
  Stage stage_ = Stage::kAnchor;
};

}  // namespace backplane::onednn::fusion
