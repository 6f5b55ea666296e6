#include "fusion.hpp"

#include "dnnl_compat.hpp"
#include "onednn_tensor_handle.hpp"

#include <backplane/backend/broadcast.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

namespace backplane::onednn {

namespace {
using backend::ILayerView;
using backend::LayerType;

std::shared_ptr<const LayerDescriptor> CopyDescriptor(const ILayerView& layer) {
  switch (layer.GetType()) {
    case LayerType::kConvolution2d:
      return std::make_shared<Convolution2dDescriptor>(static_cast<const Convolution2dDescriptor&>(*layer.GetDescriptor()));
    case LayerType::kFullyConnected:
      return std::make_shared<FullyConnectedDescriptor>(static_cast<const FullyConnectedDescriptor&>(*layer.GetDescriptor()));
    case LayerType::kMatMul:
      return std::make_shared<MatMulDescriptor>(static_cast<const MatMulDescriptor&>(*layer.GetDescriptor()));
    default:
      return nullptr;
  }
}

// The value of a constant f32 scalar (any shape with one element); false if not one.
bool ConstantScalar(const ILayerView& layer, std::size_t input, float& value) {
  const void* data = layer.GetConstantInput(input);
  const TensorInfo& info = layer.GetInputInfo(input);
  if (!data || info.type != DataType::kFloat32 || info.shape.NumElements() != 1) return false;
  std::memcpy(&value, data, sizeof(float));
  return true;
}

bool Is(const ILayerView* layer, LayerType type) { return layer && layer->GetType() == type && layer->GetDescriptor(); }

BinaryOperation BinaryOf(const ILayerView& layer) {
  return static_cast<const ElementwiseBinaryDescriptor&>(*layer.GetDescriptor()).operation;
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

// Whether input `input` of `layer` reads output 0 of `producer` (Backend API 1.1 connections).
bool Reads(const ILayerView& layer, std::size_t input, const ILayerView& producer) {
  std::size_t output = 0;
  return layer.GetInputProducer(input, &output) == producer.GetName() && output == 0;
}

// Whether output 0 of `layer` is read by exactly `count` layer inputs in the whole network: a
// tensor inside a chain must be read only by the chain, or the fused layer could not give it.
bool ReadBy(const ILayerView& layer, std::size_t count) { return layer.GetOutputConsumerCount(0) == count; }

// ---- Folded data movement -------------------------------------------------------------------

// A strided view of a tensor's dense elements: element (i_0, ..) is offset + sum(i_k strides_k).
struct StridedView {
  dnnl::memory::dims dims, strides;
  std::int64_t offset = 0;
};

StridedView DenseView(const dnnl::memory::dims& dims) {
  return {dims, backend::DenseStrides(TensorShape(dims)), 0};
}

// `view` read in the shape `to` (as many elements) without moving any; false when its strides
// do not allow that (numpy's no-copy reshape: the dims merged or split must be contiguous).
bool ReshapeView(StridedView& view, const dnnl::memory::dims& to) {
  dnnl::memory::dims old_dims, old_strides;
  for (std::size_t i = 0; i < view.dims.size(); ++i) {
    if (view.dims[i] == 0) return false;
    if (view.dims[i] != 1) {
      old_dims.push_back(view.dims[i]);
      old_strides.push_back(view.strides[i]);
    }
  }
  dnnl::memory::dims strides(to.size(), 1);
  std::size_t oi = 0, ni = 0;
  while (oi < old_dims.size() && ni < to.size()) {
    // The smallest groups of old and new dims with equal products.
    std::size_t oj = oi + 1, nj = ni + 1;
    std::int64_t old_product = old_dims[oi], new_product = to[ni];
    while (old_product != new_product) {
      if (new_product < old_product) {
        if (nj == to.size()) return false;
        new_product *= to[nj++];
      } else {
        if (oj == old_dims.size()) return false;
        old_product *= old_dims[oj++];
      }
    }
    for (std::size_t k = oi; k + 1 < oj; ++k) {
      if (old_strides[k] != old_dims[k + 1] * old_strides[k + 1]) return false;
    }
    strides[nj - 1] = old_strides[oj - 1];
    for (std::size_t k = nj - 1; k > ni; --k) strides[k - 1] = strides[k] * to[k];
    oi = oj;
    ni = nj;
  }
  view.dims = to;
  view.strides = strides;  // new trailing 1s keep stride 1: never stepped along
  return true;
}

// The input of a foldable data-movement layer that carries the data (its other inputs are
// constants), or false when `layer` is not one: Slice with positive steps, Reshape, Flatten,
// Transpose, or a Mul / Div by a constant scalar that keeps the shape.
bool MovementInput(const ILayerView& layer, std::size_t& input) {
  if (layer.GetNumOutputs() != 1 || !layer.GetDescriptor()) return false;
  float value = 0.0f;
  switch (layer.GetType()) {
    case LayerType::kSlice:
    case LayerType::kReshape:
    case LayerType::kFlatten:
    case LayerType::kTranspose:
      input = 0;
      return true;
    case LayerType::kElementwiseBinary:
      if (layer.GetNumInputs() != 2) return false;
      if (BinaryOf(layer) == BinaryOperation::kDiv && ConstantScalar(layer, 1, value) && value != 0.0f) {
        input = 0;
      } else if (BinaryOf(layer) == BinaryOperation::kMul && ConstantScalar(layer, 1, value)) {
        input = 0;
      } else if (BinaryOf(layer) == BinaryOperation::kMul && ConstantScalar(layer, 0, value)) {
        input = 1;
      } else {
        return false;
      }
      return !layer.GetConstantInput(input) && layer.GetInputInfo(input) == layer.GetOutputInfo(0);
    default:
      return false;
  }
}

// Applies a layer MovementInput accepted to `view` (a Mul / Div to `scale`); false when the
// result is not a strided view.
bool ApplyMovement(const ILayerView& layer, StridedView& view, float& scale) {
  std::string reason;
  switch (layer.GetType()) {
    case LayerType::kSlice: {
      backend::SliceGeometry slice;
      if (!backend::DescribeSlice(layer, slice, reason)) return false;
      for (std::size_t k = 0; k < view.dims.size(); ++k) {
        if (slice.step[k] <= 0) return false;
        view.offset += slice.start[k] * view.strides[k];
        view.strides[k] *= slice.step[k];
      }
      view.dims = DimsOf(layer.GetOutputInfo(0));
      return true;
    }
    case LayerType::kReshape:
    case LayerType::kFlatten:
      return ReshapeView(view, DimsOf(layer.GetOutputInfo(0)));
    case LayerType::kTranspose: {
      backend::TransposeGeometry transpose;
      if (!backend::DescribeTranspose(layer, transpose, reason)) return false;
      StridedView permuted = view;
      for (std::size_t k = 0; k < transpose.permutation.size(); ++k) {
        permuted.dims[k] = view.dims[transpose.permutation[k]];
        permuted.strides[k] = view.strides[transpose.permutation[k]];
      }
      view = permuted;
      return true;
    }
    case LayerType::kElementwiseBinary: {
      float value = 0.0f;
      const bool divides = BinaryOf(layer) == BinaryOperation::kDiv;
      if (!ConstantScalar(layer, divides || layer.GetConstantInput(1) ? 1 : 0, value)) return false;
      scale *= divides ? 1.0f / value : value;
      return true;
    }
    default:
      return false;
  }
}

// A matmul of two run-time operands of one rank (attention): data movement may fold into it.
bool FoldsOperands(const ILayerView& layer) {
  return layer.GetType() == LayerType::kMatMul && layer.GetNumInputs() == 2 && !layer.GetConstantInput(0) &&
         !layer.GetConstantInput(1) && layer.GetInputInfo(0).shape.Rank() >= 2 &&
         layer.GetInputInfo(0).shape.Rank() == layer.GetInputInfo(1).shape.Rank();
}

// The data movement between a matmul operand and the tensor it comes from, folded into a view;
// or the channel gate in front of a convolution's input.
struct FoldedOperand {
  std::vector<const ILayerView*> layers;  // source side first; empty when nothing folds
  std::size_t source_input = 0;           // the input of layers.front() that is the source
  StridedView view;
  float scale = 1.0f;
  // A channel gate (FoldChannelGate): the input of the Mul holding the per-channel scale. The
  // source is then read as it is, not through `view`.
  std::optional<std::size_t> channel_scale_input;
};

// Walks up from input `slot` of `matmul` through layers of this subgraph (by name) that are
// foldable, not yet taken (`taken`) and read by the next one alone; keeps the longest run,
// nearest the matmul, that composes into one view.
FoldedOperand FoldOperand(const ILayerView& matmul, std::size_t slot,
                          const std::map<std::string, const ILayerView*>& by_name,
                          const std::set<const ILayerView*>& taken) {
  std::vector<std::pair<const ILayerView*, std::size_t>> path;  // matmul side first, with data input
  const ILayerView* reader = &matmul;
  std::size_t input = slot;
  while (true) {
    std::size_t output = 0;
    const auto found = by_name.find(reader->GetInputProducer(input, &output));
    if (found == by_name.end() || output != 0) break;
    const ILayerView* layer = found->second;
    std::size_t data = 0;
    // A constant source stays a layer: constants are read where they are, without a view.
    if (taken.count(layer) || !ReadBy(*layer, 1) || !MovementInput(*layer, data) || layer->GetConstantInput(data)) {
      break;
    }
    path.emplace_back(layer, data);
    reader = layer;
    input = data;
  }
  // Compose from the source down; when a step fails, start after it.
  while (!path.empty()) {
    FoldedOperand folded;
    const auto& [top, top_input] = path.back();
    folded.source_input = top_input;
    folded.view = DenseView(DimsOf(top->GetInputInfo(top_input)));
    bool composed = true;
    for (auto it = path.rbegin(); it != path.rend() && composed; ++it) {
      composed = ApplyMovement(*it->first, folded.view, folded.scale);
      folded.layers.push_back(it->first);
    }
    if (composed) return folded;
    path.pop_back();
  }
  return {};
}

// A convolution's input computed as x * s (either order), s a run-time [1, C, 1, 1] tensor and
// the product read by the convolution alone, when its constant weights have at most half as
// many elements as x: the Mul folds into the convolution (fusion.hpp, channel gates).
FoldedOperand FoldChannelGate(const ILayerView& conv, const std::map<std::string, const ILayerView*>& by_name,
                              const std::set<const ILayerView*>& taken) {
  const TensorInfo& x_info = conv.GetInputInfo(0);
  if (conv.GetType() != LayerType::kConvolution2d || x_info.shape.Rank() != 4 || !conv.GetConstantInput(1) ||
      2 * conv.GetInputInfo(1).shape.NumElements() > x_info.shape.NumElements()) {
    return {};
  }
  std::size_t output = 0;
  const auto found = by_name.find(conv.GetInputProducer(0, &output));
  if (found == by_name.end() || output != 0) return {};
  const ILayerView& mul = *found->second;
  if (taken.count(&mul) || !Is(&mul, LayerType::kElementwiseBinary) || BinaryOf(mul) != BinaryOperation::kMul ||
      mul.GetNumInputs() != 2 || mul.GetNumOutputs() != 1 || !ReadBy(mul, 1)) {
    return {};
  }
  const TensorInfo gate{TensorShape{1, x_info.shape[1], 1, 1}, DataType::kFloat32};
  for (std::size_t x = 0; x < 2; ++x) {
    const std::size_t s = 1 - x;
    if (mul.GetConstantInput(x) || mul.GetConstantInput(s) || mul.GetInputInfo(x) != x_info ||
        mul.GetInputInfo(s) != gate) {
      continue;
    }
    FoldedOperand folded;
    folded.layers = {&mul};
    folded.source_input = x;
    folded.channel_scale_input = s;
    return folded;
  }
  return {};
}

// Builds one chain; `roles` dedupes constants by address as the runtime dedupes tensors. Each
// layer taken reads the chain's current tensor (the output of `tail_`), which nothing else
// reads: the chain follows the network's connections, not merely the layer order.
class ChainBuilder {
 public:
  // `folded`: per anchor input, the data movement folded into it (FoldOperand), or none. The
  // members are listed in the order the runtime gives their entering tensors (folded layers
  // first, input by input, then the anchor, then the chain), and the roles follow that order.
  explicit ChainBuilder(const ILayerView& anchor, const std::vector<FoldedOperand>& folded = {})
      : descriptor_(std::make_shared<FusedDescriptor>()) {
    descriptor_->anchor_type = anchor.GetType();
    descriptor_->anchor = CopyDescriptor(anchor);
    descriptor_->anchor_inputs = anchor.GetNumInputs();
    float scale = 1.0f;
    for (std::size_t slot = 0; slot < folded.size(); ++slot) {
      const FoldedOperand& operand = folded[slot];
      for (const ILayerView* layer : operand.layers) {
        for (std::size_t i = 0; i < layer->GetNumInputs(); ++i) {
          if (layer == operand.layers.front() && i == operand.source_input) {
            AddRole(FusedRole::Kind::kAnchorInput, slot, *layer, i,
                    operand.channel_scale_input ? nullptr : &operand.view);
          } else if (operand.channel_scale_input == i) {
            AddRole(FusedRole::Kind::kInputChannelScale, slot, *layer, i);
          } else if (layer->GetConstantInput(i)) {
            AddRole(FusedRole::Kind::kUnused, 0, *layer, i);
          }  // else: the previous folded layer's output, inside the chain
        }
        members_.push_back(layer);
      }
      scale *= operand.scale;
    }
    for (std::size_t i = 0; i < anchor.GetNumInputs(); ++i) {
      if (i < folded.size() && !folded[i].layers.empty()) continue;  // read through its view
      AddRole(FusedRole::Kind::kAnchorInput, i, anchor, i);
    }
    // (s A) B = s (A B): the folded scalars scale the product, before any other post-op.
    if (scale != 1.0f) AddEltwise({dnnl::algorithm::eltwise_linear, scale, 0.0f});
    chain_ = anchor.GetOutputInfo(0);
    members_.push_back(&anchor);
    tail_ = &anchor;
  }

  // Tries to append the layers at `layers[next]...`; returns how many it took (0: none).
  // The chain grammar (each part optional, in this order):
  //   anchor, constant operations (bias, scale), then either an activation (or the GELU
  //   or x * gate(x) pattern) or a residual Add followed by an activation.
  // Every tensor inside the chain must be read by the chain alone (GPT-2's tanh GELU reads the
  // biased x three times: that chain stops before it); the layer connections tell.
  std::size_t Extend(const std::vector<const ILayerView*>& layers, std::size_t next) {
    const ILayerView* layer = layers[next];
    if (stage_ == Stage::kAnchor && Is(layer, LayerType::kTranspose)) return ExtendOutputTranspose(*layer);
    const bool activation_allowed = stage_ == Stage::kAnchor || stage_ == Stage::kConstant || stage_ == Stage::kResidual;
    if (activation_allowed) {
      std::size_t taken = 0;
      if (stage_ != Stage::kResidual) taken = ExtendSelfGated(layers, next);
      if (!taken && stage_ != Stage::kResidual) taken = ExtendGelu(layers, next);
      if (!taken) taken = ExtendActivation(*layer);
      if (taken) {
        stage_ = Stage::kDone;
        return taken;
      }
    }
    if (stage_ != Stage::kAnchor && stage_ != Stage::kConstant) return 0;
    if (!Is(layer, LayerType::kElementwiseBinary) || layer->GetNumInputs() != 2 || layer->GetOutputInfo(0) != chain_) {
      return 0;
    }
    const BinaryOperation op = BinaryOf(*layer);
    dnnl::algorithm algorithm;
    if (!BinaryAlgorithm(op, algorithm)) return 0;
    const bool commutative = op == BinaryOperation::kAdd || op == BinaryOperation::kMul ||
                             op == BinaryOperation::kMax || op == BinaryOperation::kMin;
    const bool constant0 = layer->GetConstantInput(0) != nullptr;
    const bool constant1 = layer->GetConstantInput(1) != nullptr;
    std::size_t chain_input;
    if (!ReadBy(*tail_, 1)) return 0;
    Stage stage;
    if (constant0 != constant1) {
      // A constant operation: the chain is the run-time input (first, or second when commutative).
      chain_input = constant0 ? 1 : 0;
      if (chain_input == 1 && !commutative) return 0;
      if (layer->GetInputInfo(chain_input) != chain_ || !Reads(*layer, chain_input, *tail_)) return 0;
      stage = Stage::kConstant;
    } else if (!constant0 && op == BinaryOperation::kAdd && layer->GetInputInfo(0) == chain_ &&
               layer->GetInputInfo(1) == chain_ && Reads(*layer, 0, *tail_) != Reads(*layer, 1, *tail_)) {
      // A residual Add of a same-shaped run-time tensor, on either side. Broadcast run-time
      // operands are not taken: they may be computed from the chain on another backend
      // (x - mean(x)), and fusing them would make a cycle.
      chain_input = Reads(*layer, 0, *tail_) ? 0 : 1;
      stage = Stage::kResidual;
    } else {
      return 0;
    }
    const std::size_t other = 1 - chain_input;
    if (!Broadcasts(layer->GetInputInfo(other), chain_)) return 0;
    stage_ = stage;
    FusedStep step;
    step.kind = PostOp::Kind::kBinary;
    step.binary = algorithm;
    step.role = AddRole(FusedRole::Kind::kOperand, 0, *layer, other);
    descriptor_->steps.push_back(step);
    Take(*layer);
    return 1;
  }

  bool Empty() const { return members_.size() < 2; }

  backend::Substitution Finish() {
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

 private:
  // The role of input `input` of member `reader` (read through `view` when given). A constant
  // already seen (by address) is that role; a run-time tensor already seen (by producer) gets
  // a role the same as the first.
  std::size_t AddRole(FusedRole::Kind kind, std::size_t slot, const ILayerView& reader, std::size_t input,
                      const StridedView* view = nullptr) {
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
    for (std::size_t i = 0; i < descriptor_->roles.size(); ++i) {
      FusedRole& seen = descriptor_->roles[i];
      if (role.constant && seen.constant == role.constant) {
        if (role.kind != FusedRole::Kind::kUnused && seen.kind == FusedRole::Kind::kUnused) seen = role;
        return i;
      }
      if (!role.constant && !seen.constant && seen.same_as == FusedRole::kNone && sources_[i] == source) {
        role.same_as = i;
        break;
      }
    }
    descriptor_->roles.push_back(role);
    sources_.push_back(source);
    return descriptor_->roles.size() - 1;
  }
  // `layer` joins the chain; its output is the chain's tensor from now on.
  void Take(const ILayerView& layer) {
    members_.push_back(&layer);
    tail_ = &layer;
  }
  void AddEltwise(const EltwiseStep& eltwise) {
    FusedStep step;
    step.kind = PostOp::Kind::kEltwise;
    step.eltwise = eltwise;
    descriptor_->steps.push_back(step);
  }

  // MatMul (FoldsOperands) -> Transpose: the matmul writes through a strided destination. Ends
  // the chain (a later post-op would see the anchor's dims, not the transposed ones).
  std::size_t ExtendOutputTranspose(const ILayerView& layer) {
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

  std::size_t ExtendActivation(const ILayerView& layer) {
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

  // x -> HardSigmoid(1/6, 1/2) -> Mul(x, .): hardswish; x -> Sigmoid -> Mul(x, .): swish.
  std::size_t ExtendSelfGated(const std::vector<const ILayerView*>& layers, std::size_t next) {
    if (next + 2 > layers.size()) return 0;
    const ILayerView* gate = layers[next];
    const ILayerView* times_x = layers[next + 1];
    if (!Is(gate, LayerType::kActivation) || gate->GetNumInputs() != 1 || gate->GetInputInfo(0) != chain_ ||
        !Reads(*gate, 0, *tail_) || !ReadBy(*tail_, 2) || !ReadBy(*gate, 1)) {
      return 0;
    }
    const auto& d = static_cast<const ActivationDescriptor&>(*gate->GetDescriptor());
    EltwiseStep step;
    if (d.function == ActivationFunction::kHardSigmoid && std::abs(d.alpha - 1.0f / 6.0f) < 1e-6f &&
        std::abs(d.beta - 0.5f) < 1e-6f) {
      step.algorithm = dnnl::algorithm::eltwise_hardswish;
      compat::HardSwishParameters(step.alpha, step.beta);
    } else if (d.function == ActivationFunction::kSigmoid) {
      step = {dnnl::algorithm::eltwise_swish, 1.0f, 0.0f};
    } else {
      return 0;
    }
    if (!Is(times_x, LayerType::kElementwiseBinary) || BinaryOf(*times_x) != BinaryOperation::kMul ||
        times_x->GetNumInputs() != 2 || times_x->GetInputInfo(0) != chain_ || times_x->GetInputInfo(1) != chain_ ||
        times_x->GetConstantInput(0) || times_x->GetConstantInput(1) || !ReadsBoth(*times_x, *tail_, *gate)) {
      return 0;
    }
    AddEltwise(step);
    members_.push_back(gate);
    Take(*times_x);
    return 2;
  }

  // x -> Div(sqrt 2) | Mul(1/sqrt 2) -> Erf -> Add(1) -> Mul(x, .) -> Mul(0.5): gelu_erf.
  std::size_t ExtendGelu(const std::vector<const ILayerView*>& layers, std::size_t next) {
    if (next + 5 > layers.size()) return 0;
    const ILayerView* scale = layers[next];
    const ILayerView* erf = layers[next + 1];
    const ILayerView* one = layers[next + 2];
    const ILayerView* times_x = layers[next + 3];
    const ILayerView* half = layers[next + 4];
    float value = 0.0f;
    if (!Is(scale, LayerType::kElementwiseBinary) || scale->GetNumInputs() != 2 || scale->GetInputInfo(0) != chain_ ||
        !ConstantScalar(*scale, 1, value) || !Reads(*scale, 0, *tail_) || !ReadBy(*tail_, 2)) {
      return 0;
    }
    const bool divides = BinaryOf(*scale) == BinaryOperation::kDiv && std::abs(value - std::sqrt(2.0f)) < 1e-4f;
    const bool multiplies = BinaryOf(*scale) == BinaryOperation::kMul && std::abs(value - std::sqrt(0.5f)) < 1e-4f;
    if (!divides && !multiplies) return 0;
    if (!Is(erf, LayerType::kElementwiseUnary) ||
        static_cast<const ElementwiseUnaryDescriptor&>(*erf->GetDescriptor()).operation != UnaryOperation::kErf ||
        erf->GetInputInfo(0) != chain_ || !Reads(*erf, 0, *scale) || !ReadBy(*scale, 1)) {
      return 0;
    }
    if (!Is(one, LayerType::kElementwiseBinary) || BinaryOf(*one) != BinaryOperation::kAdd || one->GetNumInputs() != 2) return 0;
    const std::size_t one_constant = one->GetConstantInput(1) ? 1 : 0;
    if (!ConstantScalar(*one, one_constant, value) || value != 1.0f || one->GetInputInfo(1 - one_constant) != chain_ ||
        !Reads(*one, 1 - one_constant, *erf) || !ReadBy(*erf, 1)) {
      return 0;
    }
    if (!Is(times_x, LayerType::kElementwiseBinary) || BinaryOf(*times_x) != BinaryOperation::kMul ||
        times_x->GetNumInputs() != 2 || times_x->GetInputInfo(0) != chain_ || times_x->GetInputInfo(1) != chain_ ||
        times_x->GetConstantInput(0) || times_x->GetConstantInput(1) || !ReadsBoth(*times_x, *tail_, *one) ||
        !ReadBy(*one, 1)) {
      return 0;
    }
    if (!Is(half, LayerType::kElementwiseBinary) || BinaryOf(*half) != BinaryOperation::kMul || half->GetNumInputs() != 2) return 0;
    const std::size_t half_constant = half->GetConstantInput(1) ? 1 : 0;
    if (!ConstantScalar(*half, half_constant, value) || value != 0.5f || half->GetInputInfo(1 - half_constant) != chain_ ||
        !Reads(*half, 1 - half_constant, *times_x) || !ReadBy(*times_x, 1)) {
      return 0;
    }
    // The pattern's constants enter the fused layer but are not read.
    for (const ILayerView* layer : {scale, one, half}) {
      for (std::size_t i = 0; i < layer->GetNumInputs(); ++i) {
        if (layer->GetConstantInput(i)) {
          AddRole(FusedRole::Kind::kUnused, 0, *layer, i);
        }
      }
    }
    AddEltwise({dnnl::algorithm::eltwise_gelu_erf, 0.0f, 0.0f});
    for (const ILayerView* layer : {scale, erf, one, times_x}) members_.push_back(layer);
    Take(*half);
    return 5;
  }

  // Whether the two inputs of `layer` are the outputs of `a` and `b`, in either order.
  static bool ReadsBoth(const ILayerView& layer, const ILayerView& a, const ILayerView& b) {
    return (Reads(layer, 0, a) && Reads(layer, 1, b)) || (Reads(layer, 0, b) && Reads(layer, 1, a));
  }

  std::shared_ptr<FusedDescriptor> descriptor_;
  std::vector<std::pair<std::string, std::size_t>> sources_;  // per role: producer and output, "" for constants
  TensorInfo chain_;
  std::vector<const ILayerView*> members_;
  const ILayerView* tail_ = nullptr;  // the member whose output 0 is the chain's tensor now
  enum class Stage { kAnchor, kConstant, kResidual, kDone };
  Stage stage_ = Stage::kAnchor;
};

bool IsAnchor(const ILayerView& layer) {
  const OpKernel* op = Ops().Find(layer.GetType());
  std::string why;
  return op && op->takes_post_ops && layer.GetNumOutputs() == 1 && Ops().Supporting(layer, why);
}
}  // namespace

backend::OptimizationViews FuseSubgraph(const backend::SubgraphView& subgraph) {
  backend::OptimizationViews views;
  const auto& layers = subgraph.layers;
  std::map<std::string, const ILayerView*> by_name;
  for (const ILayerView* layer : layers) {
    if (layer) by_name[layer->GetName()] = layer;
  }
  std::set<const ILayerView*> taken;  // members of a chain already
  for (std::size_t i = 0; i < layers.size();) {
    const ILayerView* layer = layers[i];
    if (!layer || taken.count(layer) || !IsAnchor(*layer)) {
      ++i;
      continue;
    }
    std::vector<FoldedOperand> folded;
    for (std::size_t slot = 0; slot < (FoldsOperands(*layer) ? 2 : 1); ++slot) {
      folded.push_back(FoldsOperands(*layer) ? FoldOperand(*layer, slot, by_name, taken)
                                             : FoldChannelGate(*layer, by_name, taken));
      taken.insert(folded.back().layers.begin(), folded.back().layers.end());
    }
    ChainBuilder chain(*layer, folded);
    std::size_t next = i + 1;
    while (next < layers.size() && !taken.count(layers[next])) {
      const std::size_t count = chain.Extend(layers, next);
      if (count == 0) break;
      next += count;
    }
    if (!chain.Empty()) {
      views.substitutions.push_back(chain.Finish());
      const auto& members = views.substitutions.back().replaced.layers;
      taken.insert(members.begin(), members.end());
      i = next;
      continue;
    }
    ++i;
  }
  backend::SubgraphView untouched;
  for (const ILayerView* layer : layers) {
    if (!taken.count(layer)) untouched.layers.push_back(layer);
  }
  if (!untouched.layers.empty()) views.untouched.push_back(std::move(untouched));
  return views;
}

namespace {

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
}  // namespace

std::unique_ptr<backend::IWorkload> SplitAtSlowPostOp(const OpSpec& spec, const OpKernel& anchor,
                                                      const ExecutionPtr& execution,
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
    return std::make_unique<SplitChainWorkload>(std::move(head_workload), CreateElementwiseBinary(tail, execution));
  }
  return whole;
}

std::unique_ptr<backend::IWorkload> CreateFusedWorkload(const ILayerView& layer, const ExecutionPtr& execution) {
  const auto* fused = dynamic_cast<const FusedDescriptor*>(layer.GetDescriptor());
  if (!fused) {
    throw Exception(ErrorCode::kUnsupported,
                    "CpuOneDnn cannot run layer '" + layer.GetName() + "': a PreCompiled layer it did not make");
  }
  auto fail = [&](const std::string& what) {
    throw Exception(ErrorCode::kUnsupported, "CpuOneDnn cannot run fused layer '" + layer.GetName() + "' (" +
                                                 fused->members + "): " + what);
  };
  if (layer.GetNumOutputs() != 1 || layer.GetOutputInfo(0) != fused->output) {
    fail("an intermediate tensor of the chain is used outside it (" + std::to_string(layer.GetNumOutputs()) +
         " outputs); the layers were not one chain");
  }
  // Match the layer's inputs with the roles: constants by address, the others in order.
  std::vector<TensorRef> refs(fused->roles.size());
  std::vector<bool> used(layer.GetNumInputs(), false);
  std::size_t runtime_cursor = 0;
  for (std::size_t r = 0; r < fused->roles.size(); ++r) {
    const FusedRole& role = fused->roles[r];
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

  OpSpec spec;
  spec.name = layer.GetName();
  spec.type = fused->anchor_type;
  spec.descriptor = fused->anchor.get();
  spec.output = fused->output;
  spec.inputs.resize(fused->anchor_inputs);
  for (std::size_t r = 0; r < fused->roles.size(); ++r) {
    const FusedRole& role = fused->roles[r];
    if (role.kind == FusedRole::Kind::kInputChannelScale) spec.input_channel_scale = refs[r];
    if (role.kind != FusedRole::Kind::kAnchorInput) continue;
    spec.inputs[role.slot] = refs[r];
    spec.inputs[role.slot].view = role.view;
    spec.inputs[role.slot].view_offset = role.view_offset;
  }
  spec.output_view = fused->output_view;
  for (const auto& step : fused->steps) {
    PostOp post_op;
    post_op.kind = step.kind;
    post_op.eltwise = step.eltwise;
    post_op.binary = step.binary;
    if (step.kind == PostOp::Kind::kBinary) post_op.operand = refs[step.role];
    spec.post_ops.push_back(post_op);
  }
  const OpKernel* op = Ops().Find(fused->anchor_type);
  if (!op) fail("no kernel for the anchor layer");
  auto whole = op->create(spec, execution);
  if (whole->GetInfo().slow_path.empty()) return whole;
  return SplitAtSlowPostOp(spec, *op, execution, std::move(whole));
}

}  // namespace backplane::onednn
