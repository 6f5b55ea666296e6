#include "fusion.hpp"

#include "ops/epilogue.hpp"
#include "ops/op_kernels.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace backplane::opencl {

namespace {

using backend::ILayerView;
using backend::LayerType;

// The anchor's own descriptor, kept by value.
using AnchorDescriptor = std::variant<Convolution2dDescriptor, FullyConnectedDescriptor, MatMulDescriptor>;

// What FuseSubgraph hands the runtime for a chain. Immutable; shared by the runtime's graph.
struct FusedDescriptor final : LayerDescriptor {
  LayerType anchor_type = LayerType::kConvolution2d;
  AnchorDescriptor anchor;
  std::size_t anchor_inputs = 0;
  Epilogue epilogue;
  std::string members;  // "conv1, add1, relu1", for messages

  const LayerDescriptor* Anchor() const {
    return std::visit([](const auto& d) -> const LayerDescriptor* { return &d; }, anchor);
  }
};

// The PreCompiled layer shown as its anchor: the anchor's type and descriptor, its first
// inputs; the rest (name, output, constants) is the fused layer's.
class AnchorView final : public ILayerView {
 public:
  AnchorView(const ILayerView& fused, const FusedDescriptor& descriptor) : fused_(fused), descriptor_(descriptor) {}
  LayerType GetType() const override { return descriptor_.anchor_type; }
  const std::string& GetName() const override { return fused_.GetName(); }
  std::size_t GetNumInputs() const override { return descriptor_.anchor_inputs; }
  std::size_t GetNumOutputs() const override { return 1; }
  const TensorInfo& GetInputInfo(std::size_t index) const override { return fused_.GetInputInfo(index); }
  const TensorInfo& GetOutputInfo(std::size_t index) const override { return fused_.GetOutputInfo(index); }
  const LayerDescriptor* GetDescriptor() const override { return descriptor_.Anchor(); }
  const void* GetConstantInput(std::size_t index) const override { return fused_.GetConstantInput(index); }

 private:
  const ILayerView& fused_;
  const FusedDescriptor& descriptor_;
};

std::optional<AnchorDescriptor> AnchorOf(const ILayerView& layer) {
  const LayerDescriptor* d = layer.GetDescriptor();
  if (!d || layer.GetNumOutputs() != 1) return std::nullopt;
  switch (layer.GetType()) {
    case LayerType::kConvolution2d: return *static_cast<const Convolution2dDescriptor*>(d);
    case LayerType::kFullyConnected: return *static_cast<const FullyConnectedDescriptor*>(d);
    case LayerType::kMatMul: return *static_cast<const MatMulDescriptor*>(d);
    default: return std::nullopt;
  }
}

// A tensor by its producer's name and output; empty name when the view cannot say.
using TensorId = std::pair<std::string, std::size_t>;

TensorId InputOf(const ILayerView& layer, std::size_t index) {
  std::size_t output = 0;
  std::string producer = layer.GetInputProducer(index, &output);
  return {std::move(producer), output};
}

// Which input of `layer` reads output 0 of `tail`, when `tail`'s output 0 is read by `layer`
// alone; none otherwise.
std::optional<std::size_t> ReadsAlone(const ILayerView& layer, const ILayerView& tail) {
  if (tail.GetOutputConsumerCount(0) != 1) return std::nullopt;
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (InputOf(layer, i) == TensorId{tail.GetName(), 0}) return i;
  }
  return std::nullopt;
}

// The chain starting at layers[first], or none.
std::optional<backend::Substitution> ChainAt(const std::vector<const ILayerView*>& layers, std::size_t first) {
  const ILayerView& anchor = *layers[first];
  std::optional<AnchorDescriptor> anchor_descriptor = AnchorOf(anchor);
  if (!anchor_descriptor) return std::nullopt;
  std::vector<TensorId> inputs;
  for (std::size_t i = 0; i < anchor.GetNumInputs(); ++i) {
    TensorId id = InputOf(anchor, i);
    if (id.first.empty()) return std::nullopt;  // a view that cannot say
    for (const TensorId& earlier : inputs) {
      if (id == earlier) return std::nullopt;  // passed once for two inputs
    }
    inputs.push_back(std::move(id));
  }
  auto descriptor = std::make_shared<FusedDescriptor>();
  descriptor->anchor_type = anchor.GetType();
  descriptor->anchor = std::move(*anchor_descriptor);
  descriptor->anchor_inputs = inputs.size();
  backend::Substitution substitution;
  substitution.replaced.layers.push_back(&anchor);
  std::size_t next = first + 1;
  const ILayerView* tail = &anchor;

  // A residual add: the chain's tensor plus a same-shaped run-time tensor.
  if (next < layers.size() && layers[next] && layers[next]->GetType() == LayerType::kElementwiseBinary) {
    const ILayerView& add = *layers[next];
    const auto* d = static_cast<const ElementwiseBinaryDescriptor*>(add.GetDescriptor());
    const std::optional<std::size_t> slot = ReadsAlone(add, *tail);
    if (d && d->operation == BinaryOperation::kAdd && slot && add.GetNumInputs() == 2) {
      const std::size_t other = 1 - *slot;
      const TensorId residual = InputOf(add, other);
      if (!residual.first.empty() && !add.GetConstantInput(other) &&
          add.GetInputInfo(other) == anchor.GetOutputInfo(0) && add.GetOutputInfo(0) == anchor.GetOutputInfo(0) &&
          residual != TensorId{anchor.GetName(), 0}) {
        std::size_t index = inputs.size();
        for (std::size_t i = 0; i < inputs.size(); ++i) {
          if (inputs[i] == residual) index = i;
        }
        descriptor->epilogue.residual = index;
        substitution.replaced.layers.push_back(&add);
        tail = &add;
        ++next;
      }
    }
  }
  // An activation of the chain's tensor.
  if (next < layers.size() && layers[next] && layers[next]->GetType() == LayerType::kActivation &&
      ReadsAlone(*layers[next], *tail)) {
    const auto* d = static_cast<const ActivationDescriptor*>(layers[next]->GetDescriptor());
    if (d) {
      descriptor->epilogue.function = static_cast<int>(d->function);
      descriptor->epilogue.alpha = d->alpha;
      descriptor->epilogue.beta = d->beta;
      substitution.replaced.layers.push_back(layers[next]);
    }
  }
  if (substitution.replaced.layers.size() == 1) return std::nullopt;
  for (const ILayerView* member : substitution.replaced.layers) {
    descriptor->members += (descriptor->members.empty() ? "" : ", ") + member->GetName();
    substitution.name += (substitution.name.empty() ? "" : "+") + member->GetName();
  }
  substitution.descriptor = std::move(descriptor);
  return substitution;
}

}  // namespace

backend::OptimizationViews FuseSubgraph(const backend::SubgraphView& subgraph) {
  backend::OptimizationViews views;
  backend::SubgraphView untouched;
  const auto& layers = subgraph.layers;
  for (std::size_t i = 0; i < layers.size();) {
    std::optional<backend::Substitution> chain = layers[i] ? ChainAt(layers, i) : std::nullopt;
    if (!chain) {
      if (layers[i]) untouched.layers.push_back(layers[i]);
      ++i;
      continue;
    }
    i += chain->replaced.layers.size();
    views.substitutions.push_back(std::move(*chain));
  }
  if (!untouched.layers.empty()) views.untouched.push_back(std::move(untouched));
  return views;
}

std::unique_ptr<backend::IWorkload> CreateFusedWorkload(const ILayerView& layer, OpenClDevice& device) {
  const auto* fused = dynamic_cast<const FusedDescriptor*>(layer.GetDescriptor());
  if (!fused) {
    throw Exception(ErrorCode::kUnsupported,
                    "GpuOpenCl cannot run layer '" + layer.GetName() + "': a PreCompiled layer it did not make");
  }
  const Epilogue& epilogue = fused->epilogue;
  const std::size_t expected =
      fused->anchor_inputs + (epilogue.residual != Epilogue::kNoResidual && epilogue.residual >= fused->anchor_inputs);
  if (layer.GetNumInputs() != expected || layer.GetNumOutputs() != 1) {
    throw Exception(ErrorCode::kUnsupported, "GpuOpenCl cannot run fused layer '" + layer.GetName() + "' (" +
                                                 fused->members + "): it has " + std::to_string(layer.GetNumInputs()) +
                                                 " inputs and " + std::to_string(layer.GetNumOutputs()) +
                                                 " outputs, the chain " + std::to_string(expected) + " and 1");
  }
  const AnchorView anchor(layer, *fused);
  switch (fused->anchor_type) {
    case LayerType::kConvolution2d: return CreateConvolution2dWorkload(anchor, device, epilogue);
    case LayerType::kFullyConnected: return CreateFullyConnectedWorkload(anchor, device, epilogue);
    default: return CreateMatMulWorkload(anchor, device, epilogue);
  }
}

}  // namespace backplane::opencl
