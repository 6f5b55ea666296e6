#include "chain_builder.hpp"

#include "layer_match.hpp"
#include "../dnnl_desc.hpp"

#include <backplane/backend/op_geometry.hpp>

namespace backplane::onednn::fusion {

namespace {
using backend::ILayerView;
using backend::LayerType;

template <typename Descriptor>
const Descriptor& DescriptorOf(const ILayerView& layer) {
  return static_cast<const Descriptor&>(*layer.GetDescriptor());
}

// A copy of the anchor's descriptor (the fused layer outlives the layer views).
std::shared_ptr<const LayerDescriptor> CopyDescriptor(const ILayerView& layer) {
  switch (layer.GetType()) {
    case LayerType::kConvolution2d:
      return std::make_shared<Convolution2dDescriptor>(DescriptorOf<Convolution2dDescriptor>(layer));
    case LayerType::kConvolutionNd:
      return std::make_shared<ConvolutionNdDescriptor>(DescriptorOf<ConvolutionNdDescriptor>(layer));
    case LayerType::kFullyConnected:
      return std::make_shared<FullyConnectedDescriptor>(DescriptorOf<FullyConnectedDescriptor>(layer));
    case LayerType::kMatMul:
      return std::make_shared<MatMulDescriptor>(DescriptorOf<MatMulDescriptor>(layer));
    default:
      return nullptr;
  }
}

bool Broadcasts(const TensorInfo& operand, const TensorInfo& to) {
  if (operand.type != DataType::kFloat32 || operand.shape.Rank() > to.shape.Rank()) return false;
  const auto a = Expand(DimsOf(operand), to.shape.Rank());
  const auto b = DimsOf(to);
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != 1 && a[i] != b[i]) return false;
  }
  return true;
}
}  // namespace

std::size_t RoleTable::Add(FusedRole::Kind kind, std::size_t slot, const ILayerView& reader, std::size_t input,
                           const StridedView* view) {
  FusedRole role;
  role.kind = kind;
  role.slot = slot;
  role.info = reader.GetInputInfo(input);
  role.constant = reader.GetConstantInput(input);
  if (view) {
    role.view = dnnl::memory::desc(view->dims, dnnl::memory::data_type::f32, view->strides);
    role.view_offset = view->offset;
  }
  std::size_t output = 0;
  const auto source = std::make_pair(role.constant ? std::string() : reader.GetInputProducer(input, &output), output);
  for (std::size_t i = 0; i < roles_.size(); ++i) {
    FusedRole& seen = roles_[i];
    if (role.constant && seen.constant == role.constant) {
      if (role.kind != FusedRole::Kind::kUnused && seen.kind == FusedRole::Kind::kUnused) seen = role;
      return i;
    }
    if (!role.constant && !seen.constant && seen.same_as == FusedRole::kNone && sources_[i] == source) {
      role.same_as = i;
      break;
    }
  }
  roles_.push_back(role);
  sources_.push_back(source);
  return roles_.size() - 1;
}

ChainBuilder::ChainBuilder(const ILayerView& anchor, const std::vector<FoldedOperand>& folded)
    : descriptor_(std::make_shared<FusedDescriptor>()), roles_(descriptor_->roles) {
  descriptor_->anchor_type = anchor.GetType();
  descriptor_->anchor = CopyDescriptor(anchor);
  descriptor_->anchor_inputs = anchor.GetNumInputs();
  float scale = 1.0f;
  for (std::size_t slot = 0; slot < folded.size(); ++slot) {
    AddFoldedRoles(slot, folded[slot]);
    scale *= folded[slot].scale;
  }
  for (std::size_t i = 0; i < anchor.GetNumInputs(); ++i) {
    if (i < folded.size() && !folded[i].layers.empty()) continue;  // read through its view
    roles_.Add(FusedRole::Kind::kAnchorInput, i, anchor, i);
  }
  // (s A) B = s (A B): the folded scalars scale the product, before any other post-op.
  if (scale != 1.0f) AddEltwise({dnnl::algorithm::eltwise_linear, scale, 0.0f});
  chain_ = anchor.GetOutputInfo(0);
  members_.push_back(&anchor);
  tail_ = &anchor;
}

void ChainBuilder::AddFoldedRoles(std::size_t slot, const FoldedOperand& operand) {
  for (const ILayerView* layer : operand.layers) {
    for (std::size_t i = 0; i < layer->GetNumInputs(); ++i) {
      if (layer == operand.layers.front() && i == operand.source_input) {
        const StridedView* view = operand.channel_scale_input ? nullptr : &operand.view;
        roles_.Add(FusedRole::Kind::kAnchorInput, slot, *layer, i, view);
      } else if (operand.channel_scale_input == i) {
        roles_.Add(FusedRole::Kind::kInputChannelScale, slot, *layer, i);
      } else if (layer->GetConstantInput(i)) {
        roles_.Add(FusedRole::Kind::kUnused, 0, *layer, i);
      }  // else: the previous folded layer's output, inside the chain
    }
    members_.push_back(layer);
  }
}

std::size_t ChainBuilder::Extend(const std::vector<const ILayerView*>& layers, std::size_t next) {
  const ILayerView* layer = layers[next];
  if (stage_ == Stage::kAnchor && Is(layer, LayerType::kTranspose)) return ExtendOutputTranspose(*layer);
  if (stage_ == Stage::kDone) return 0;
  if (ExtendActivation(*layer)) {
    stage_ = Stage::kDone;
    return 1;
  }
  if (stage_ == Stage::kResidual) return 0;  // only an activation may follow the residual
  return ExtendBinary(*layer);
}

backend::Substitution ChainBuilder::Finish() {
  backend::Substitution substitution;
  std::string name;
  for (const auto* member : members_) {
    substitution.replaced.layers.push_back(member);
    descriptor_->members += (descriptor_->members.empty() ? "" : ", ") + member->GetName();
    name += (name.empty() ? "" : "+") + member->GetName();
  }
  descriptor_->output = chain_;
  substitution.name = name;
  substitution.descriptor = descriptor_;
  return substitution;
}

void ChainBuilder::Take(const ILayerView& layer) {
  members_.push_back(&layer);
  tail_ = &layer;
}

void ChainBuilder::AddEltwise(const EltwiseStep& eltwise) {
  FusedStep step;
  step.kind = PostOp::Kind::kEltwise;
  step.eltwise = eltwise;
  descriptor_->steps.push_back(step);
}

// MatMul (FoldsOperands) -> Transpose: the matmul writes through a strided destination. Ends
// the chain (a later post-op would see the anchor's dims, not the transposed ones).
std::size_t ChainBuilder::ExtendOutputTranspose(const ILayerView& layer) {
  backend::TransposeGeometry transpose;
  std::string reason;
  if (!FoldsOperands(*tail_) || !Reads(layer, 0, *tail_) || !ReadBy(*tail_, 1) ||
      !backend::DescribeTranspose(layer, transpose, reason)) {
    return 0;
  }
  const StridedView written = DenseView(DimsOf(layer.GetOutputInfo(0)));
  dnnl::memory::dims strides(written.dims.size());
  for (std::size_t k = 0; k < transpose.permutation.size(); ++k) strides[transpose.permutation[k]] = written.strides[k];
  descriptor_->output_view = dnnl::memory::desc(DimsOf(chain_), dnnl::memory::data_type::f32, strides);
  chain_ = layer.GetOutputInfo(0);
  stage_ = Stage::kDone;
  Take(layer);
  return 1;
}

std::size_t ChainBuilder::ExtendActivation(const ILayerView& layer) {
  if (!Is(&layer, LayerType::kActivation) || layer.GetNumInputs() != 1 || layer.GetInputInfo(0) != chain_ ||
      layer.GetOutputInfo(0) != chain_ || !Reads(layer, 0, *tail_) || !ReadBy(*tail_, 1)) {
    return 0;
  }
  std::vector<EltwiseStep> steps;
  std::string reason;
  if (!ActivationSteps(static_cast<const ActivationDescriptor&>(*layer.GetDescriptor()), steps, reason)) return 0;
  for (const auto& step : steps) AddEltwise(step);
  Take(layer);
  return 1;
}

std::size_t ChainBuilder::ExtendBinary(const ILayerView& layer) {
  if (!Is(&layer, LayerType::kElementwiseBinary) || layer.GetNumInputs() != 2 || layer.GetOutputInfo(0) != chain_) {
    return 0;
  }
  dnnl::algorithm algorithm;
  if (!BinaryAlgorithm(BinaryOf(layer), algorithm) || !ReadBy(*tail_, 1)) return 0;
  std::size_t chain_input = 0;
  const Stage stage = BinaryStage(layer, chain_input);
  if (stage == Stage::kAnchor) return 0;
  const std::size_t other = 1 - chain_input;
  if (!Broadcasts(layer.GetInputInfo(other), chain_)) return 0;
  stage_ = stage;
  FusedStep step;
  step.kind = PostOp::Kind::kBinary;
  step.binary = algorithm;
  step.role = roles_.Add(FusedRole::Kind::kOperand, 0, layer, other);
  descriptor_->steps.push_back(step);
  Take(layer);
  return 1;
}

ChainBuilder::Stage ChainBuilder::BinaryStage(const ILayerView& layer, std::size_t& chain_input) const {
  const BinaryOperation op = BinaryOf(layer);
  const bool commutative = op == BinaryOperation::kAdd || op == BinaryOperation::kMul ||
                           op == BinaryOperation::kMax || op == BinaryOperation::kMin;
  const bool constant0 = layer.GetConstantInput(0) != nullptr;
  const bool constant1 = layer.GetConstantInput(1) != nullptr;
  if (constant0 != constant1) {
    // A constant operation: the chain is the run-time input (first, or second when commutative).
    chain_input = constant0 ? 1 : 0;
    if (chain_input == 1 && !commutative) return Stage::kAnchor;
    if (layer.GetInputInfo(chain_input) != chain_ || !Reads(layer, chain_input, *tail_)) return Stage::kAnchor;
    return Stage::kConstant;
  }
  if (!constant0 && op == BinaryOperation::kAdd && layer.GetInputInfo(0) == chain_ &&
      layer.GetInputInfo(1) == chain_ && Reads(layer, 0, *tail_) != Reads(layer, 1, *tail_)) {
    // A residual Add of a same-shaped run-time tensor, on either side. Broadcast run-time
    // operands are not taken: they may be computed from the chain on another backend
    // (x - mean(x)), and fusing them would make a cycle.
    chain_input = Reads(layer, 0, *tail_) ? 0 : 1;
    return Stage::kResidual;
  }
  return Stage::kAnchor;
}

}  // namespace backplane::onednn::fusion
