#include "fusion.hpp"

#include "dnnl_compat.hpp"
#include "onednn_tensor_handle.hpp"

#include <backplane/exception.hpp>

#include <cmath>
#include <cstring>

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

// Builds one chain; `roles` dedupes constants by address as the runtime dedupes tensors. Each
// layer taken reads the chain's current tensor (the output of `tail_`), which nothing else
// reads: the chain follows the network's connections, not merely the layer order.
class ChainBuilder {
 public:
  explicit ChainBuilder(const ILayerView& anchor) : descriptor_(std::make_shared<FusedDescriptor>()) {
    descriptor_->anchor_type = anchor.GetType();
    descriptor_->anchor = CopyDescriptor(anchor);
    descriptor_->anchor_inputs = anchor.GetNumInputs();
    for (std::size_t i = 0; i < anchor.GetNumInputs(); ++i) {
      AddRole({FusedRole::Kind::kAnchorInput, i, anchor.GetInputInfo(i), anchor.GetConstantInput(i)});
    }
    chain_ = anchor.GetOutputInfo(0);
    members_.push_back(&anchor);
    tail_ = &anchor;
  }

  // Tries to append the layers at `layers[next]...`; returns how many it took (0: none).
  // The chain grammar (each part optional, in this order):
  //   anchor, one constant operation (bias or scale), then either an activation (or the GELU
  //   or x * gate(x) pattern) or a residual Add followed by an activation.
  // Every tensor inside the chain must be read by the chain alone (GPT-2's tanh GELU reads the
  // biased x three times: that chain stops before it); the layer connections tell.
  std::size_t Extend(const std::vector<const ILayerView*>& layers, std::size_t next) {
    const ILayerView* layer = layers[next];
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
      if (stage_ != Stage::kAnchor) return 0;
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
    step.role = AddRole({FusedRole::Kind::kOperand, 0, layer->GetInputInfo(other), layer->GetConstantInput(other)});
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
  std::size_t AddRole(FusedRole role) {
    if (role.constant) {
      for (std::size_t i = 0; i < descriptor_->roles.size(); ++i) {
        if (descriptor_->roles[i].constant == role.constant) {
          if (role.kind != FusedRole::Kind::kUnused && descriptor_->roles[i].kind == FusedRole::Kind::kUnused) {
            descriptor_->roles[i] = role;
          }
          return i;
        }
      }
    }
    descriptor_->roles.push_back(role);
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
          AddRole({FusedRole::Kind::kUnused, 0, layer->GetInputInfo(i), layer->GetConstantInput(i)});
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
  TensorInfo chain_;
  std::vector<const ILayerView*> members_;
  const ILayerView* tail_ = nullptr;  // the member whose output 0 is the chain's tensor now
  enum class Stage { kAnchor, kConstant, kResidual, kDone };
  Stage stage_ = Stage::kAnchor;
};

bool IsAnchor(const ILayerView& layer) {
  const OpKernel* op = FindOpKernel(layer.GetType());
  std::string reason;
  return op && op->takes_post_ops && layer.GetNumOutputs() == 1 && IsSupported(*op, layer, reason);
}
}  // namespace

backend::OptimizationViews FuseSubgraph(const backend::SubgraphView& subgraph) {
  backend::OptimizationViews views;
  backend::SubgraphView untouched;
  const auto& layers = subgraph.layers;
  for (std::size_t i = 0; i < layers.size();) {
    const ILayerView* layer = layers[i];
    if (layer && IsAnchor(*layer)) {
      ChainBuilder chain(*layer);
      std::size_t next = i + 1;
      while (next < layers.size()) {
        const std::size_t taken = chain.Extend(layers, next);
        if (taken == 0) break;
        next += taken;
      }
      if (!chain.Empty()) {
        views.substitutions.push_back(chain.Finish());
        i = next;
        continue;
      }
    }
    untouched.layers.push_back(layer);
    ++i;
  }
  if (!untouched.layers.empty()) views.untouched.push_back(std::move(untouched));
  return views;
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
          refs[r] = {layer.GetInputInfo(i), role.constant, i};
          used[i] = found = true;
        }
      }
    } else {
      for (; runtime_cursor < layer.GetNumInputs() && !found; ++runtime_cursor) {
        const std::size_t i = runtime_cursor;
        if (used[i] || layer.GetConstantInput(i)) continue;
        if (layer.GetInputInfo(i) != role.info) fail("input " + std::to_string(i) + " has an unexpected shape");
        refs[r] = {layer.GetInputInfo(i), nullptr, i};
        used[i] = found = true;
      }
    }
    if (!found && !role.constant) {
      // The runtime passes a tensor once however often the chain reads it (x + f(x) with x
      // also the anchor's input): an earlier run-time input of the same shape, when unique.
      std::size_t candidates = 0;
      for (std::size_t k = 0; k < r; ++k) {
        if (!fused->roles[k].constant && refs[k].info == role.info) {
          if (candidates == 0 || refs[k].index != refs[r].index) ++candidates;
          refs[r] = refs[k];
        }
      }
      found = candidates == 1;
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
    if (fused->roles[r].kind == FusedRole::Kind::kAnchorInput) spec.inputs[fused->roles[r].slot] = refs[r];
  }
  for (const auto& step : fused->steps) {
    PostOp post_op;
    post_op.kind = step.kind;
    post_op.eltwise = step.eltwise;
    post_op.binary = step.binary;
    if (step.kind == PostOp::Kind::kBinary) post_op.operand = refs[step.role];
    spec.post_ops.push_back(post_op);
  }
  const OpKernel* op = FindOpKernel(fused->anchor_type);
  if (!op) fail("no kernel for the anchor layer");
  return op->create(spec, execution);
}

}  // namespace backplane::onednn
