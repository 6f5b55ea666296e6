// The workload of a fused PreCompiled layer (fusion.hpp): the layer's tensors matched with the
// chain's roles, the anchor's op created with the chain's post-ops, and the split at a slow
// post-op.
#include "fusion.hpp"

#include "fused_descriptor.hpp"

#include <backplane/exception.hpp>

#include <algorithm>
#include <functional>

namespace backplane::onednn {

namespace {
using backend::ILayerView;

BinaryOperation BinaryOperationOf(dnnl::algorithm algorithm) {
  switch (algorithm) {
    case dnnl::algorithm::binary_sub: return BinaryOperation::kSub;
    case dnnl::algorithm::binary_mul: return BinaryOperation::kMul;
    case dnnl::algorithm::binary_div: return BinaryOperation::kDiv;
    case dnnl::algorithm::binary_max: return BinaryOperation::kMax;
    case dnnl::algorithm::binary_min: return BinaryOperation::kMin;
    default: return BinaryOperation::kAdd;
  }
}

// A fused layer run as two primitives: `head` (the anchor with the leading post-ops) writes the
// output, then `tail` (a binary of the output and an operand, with the remaining post-ops)
// rewrites it in place. `tail` reads WorkloadArgs {output, the layer's inputs...}. Immutable;
// thread-safe as its workloads are.
class SplitChainWorkload final : public backend::IWorkload {
 public:
  SplitChainWorkload(std::unique_ptr<backend::IWorkload> head, std::unique_ptr<backend::IWorkload> tail)
      : head_(std::move(head)), tail_(std::move(tail)) {}
  void Execute(const backend::WorkloadArgs& args) const override {
    head_->Execute(args);
    std::vector<backend::ITensorHandle*> inputs{args.outputs.at(0)};
    inputs.insert(inputs.end(), args.inputs.begin(), args.inputs.end());
    tail_->Execute(backend::WorkloadArgs{inputs, args.outputs, args.scratch});
  }
  // The two run one after the other: one scratch serves both.
  std::size_t GetScratchSize() const override { return std::max(head_->GetScratchSize(), tail_->GetScratchSize()); }
  backend::WorkloadInfo GetInfo() const override {
    backend::WorkloadInfo info = head_->GetInfo();
    const backend::WorkloadInfo tail = tail_->GetInfo();
    info.implementation += " + " + tail.implementation;
    info.slow_path = tail.slow_path;
    return info;
  }

 private:
  std::unique_ptr<backend::IWorkload> head_;
  std::unique_ptr<backend::IWorkload> tail_;
};

using Fail = std::function<void(const std::string&)>;  // throws

// The layer's inputs for the chain's roles: constants by address, the others in order. Calls
// `fail` when an input is missing, unexpected or shaped otherwise.
std::vector<TensorRef> MatchRoles(const ILayerView& layer, const FusedDescriptor& fused, const Fail& fail) {
  std::vector<TensorRef> refs(fused.roles.size());
  std::vector<bool> used(layer.GetNumInputs(), false);
  std::size_t runtime_cursor = 0;
  for (std::size_t r = 0; r < fused.roles.size(); ++r) {
    const FusedRole& role = fused.roles[r];
    bool found = false;
    if (role.constant) {
      for (std::size_t i = 0; i < layer.GetNumInputs() && !found; ++i) {
        if (!used[i] && layer.GetConstantInput(i) == role.constant) {
          refs[r] = InputRef(layer, i);
          used[i] = found = true;
        }
      }
    } else if (role.same_as != FusedRole::kNone) {
      // The runtime passes a tensor once however often the chain reads it.
      refs[r] = refs[role.same_as];
      found = true;
    } else {
      for (; runtime_cursor < layer.GetNumInputs() && !found; ++runtime_cursor) {
        const std::size_t i = runtime_cursor;
        if (used[i] || layer.GetConstantInput(i)) continue;
        if (layer.GetInputInfo(i) != role.info) fail("input " + std::to_string(i) + " has an unexpected shape");
        refs[r] = InputRef(layer, i);
        used[i] = found = true;
      }
    }
    if (!found) fail("input for role " + std::to_string(r) + " is missing");
  }
  for (std::size_t i = 0; i < used.size(); ++i) {
    if (!used[i]) fail("input " + std::to_string(i) + " is not part of the chain");
  }
  return refs;
}

// The anchor's spec: its inputs (through their views), channel scale and output view from the
// roles, and the chain's steps as post-ops.
OpSpec AnchorSpec(const ILayerView& layer, const FusedDescriptor& fused, const std::vector<TensorRef>& refs) {
  OpSpec spec;
  spec.name = layer.GetName();
  spec.type = fused.anchor_type;
  spec.descriptor = fused.anchor.get();
  spec.output = fused.output;
  spec.inputs.resize(fused.anchor_inputs);
  for (std::size_t r = 0; r < fused.roles.size(); ++r) {
    const FusedRole& role = fused.roles[r];
    if (role.kind == FusedRole::Kind::kInputChannelScale) spec.input_channel_scale = refs[r];
    if (role.kind != FusedRole::Kind::kAnchorInput) continue;
    spec.inputs[role.slot] = refs[r];
    spec.inputs[role.slot].view = role.view;
    spec.inputs[role.slot].view_offset = role.view_offset;
  }
  spec.output_view = fused.output_view;
  for (const auto& step : fused.steps) {
    PostOp post_op;
    post_op.kind = step.kind;
    post_op.eltwise = step.eltwise;
    post_op.binary = step.binary;
    if (step.kind == PostOp::Kind::kBinary) post_op.operand = refs[step.role];
    spec.post_ops.push_back(post_op);
  }
  return spec;
}
}  // namespace

std::unique_ptr<backend::IWorkload> SplitAtSlowPostOp(const OpSpec& spec, const OpKernel& anchor,
                                                      const ExecutionSettingsPtr& execution,
                                                      std::unique_ptr<backend::IWorkload> whole) {
  // The most leading post-ops the anchor takes on a non-reference kernel, up to a binary one.
  for (std::size_t kept = spec.post_ops.size(); kept-- > 0;) {
    if (spec.post_ops[kept].kind != PostOp::Kind::kBinary) continue;
    OpSpec head = spec;
    head.post_ops.resize(kept);
    auto head_workload = anchor.create(head, execution);
    if (!head_workload->GetInfo().slow_path.empty()) continue;
    const PostOp& first = spec.post_ops[kept];
    ElementwiseBinaryDescriptor binary;
    binary.operation = BinaryOperationOf(first.binary);
    OpSpec tail;
    tail.name = spec.name;
    tail.type = backend::LayerType::kElementwiseBinary;
    tail.descriptor = &binary;
    tail.output = spec.output;
    TensorRef chain;
    chain.info = spec.output;
    tail.inputs = {chain, first.operand};
    tail.post_ops.assign(spec.post_ops.begin() + static_cast<std::ptrdiff_t>(kept) + 1, spec.post_ops.end());
    for (PostOp& post_op : tail.post_ops) post_op.operand.index += 1;  // after the output
    tail.inputs[1].index += 1;
    return std::make_unique<SplitChainWorkload>(std::move(head_workload),
                                                CreateElementwiseBinaryWorkload(tail, execution));
  }
  return whole;
}

std::unique_ptr<backend::IWorkload> CreateFusedWorkload(const ILayerView& layer,
                                                        const ExecutionSettingsPtr& execution) {
  const auto* fused = dynamic_cast<const FusedDescriptor*>(layer.GetDescriptor());
  if (!fused) {
    throw Exception(ErrorCode::kUnsupported,
                    "CpuOneDnn cannot run layer '" + layer.GetName() + "': a PreCompiled layer it did not make");
  }
  const Fail fail = [&](const std::string& what) {
    throw Exception(ErrorCode::kUnsupported, "CpuOneDnn cannot run fused layer '" + layer.GetName() + "' (" +
                                                 fused->members + "): " + what);
  };
  if (layer.GetNumOutputs() != 1 || layer.GetOutputInfo(0) != fused->output) {
    fail("an intermediate tensor of the chain is used outside it (" + std::to_string(layer.GetNumOutputs()) +
         " outputs); the layers were not one chain");
  }
  const OpSpec spec = AnchorSpec(layer, *fused, MatchRoles(layer, *fused, fail));
  const OpKernel* op = Ops().Find(fused->anchor_type);
  if (!op) fail("no kernel for the anchor layer");
  auto whole = op->create(spec, execution);
  if (whole->GetInfo().slow_path.empty()) return whole;
  return SplitAtSlowPostOp(spec, *op, execution, std::move(whole));
}

}  // namespace backplane::onednn
