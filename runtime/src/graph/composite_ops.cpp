#include "graph/composite_ops.hpp"

#include "graph/passes.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>

namespace backplane::graph {

namespace {

using ConsumerTable = std::vector<std::vector<std::vector<InputSlot>>>;

// A pattern found in the graph: the layers it replaces (the last one's output is the result)
// and the one layer that replaces them.
struct Match {
  std::vector<LayerId> layers;
  LayerType type = LayerType::kActivation;
  std::shared_ptr<const LayerDescriptor> descriptor;
  std::vector<OutputSlot> inputs;  // tensors of the graph the new layer reads, in its order
  // LayerNormalization without a scale: a scale of ones (info, bytes) to add as input 1.
  std::optional<std::pair<TensorInfo, std::vector<std::uint8_t>>> ones_scale;
};

// Read-only questions about the graph, for the matchers: the consumers of the layers it was made
// with. Valid until a layer is rewired; a layer added later that nothing reads leaves it valid.
class View {
 public:
  explicit View(const Graph& graph) : graph_(graph), consumers_(graph.Consumers()) {}

  const Layer& At(LayerId id) const { return graph_.At(id); }
  const Layer& Producer(const Layer& layer, std::size_t input) const { return graph_.At(layer.inputs[input]->layer); }

  // The one layer reading `layer`'s only output (which it may read through both inputs), or null.
  const Layer* SoleConsumer(const Layer& layer) const {
    if (layer.num_outputs != 1 || consumers_[layer.id][0].empty()) return nullptr;
    const LayerId first = consumers_[layer.id][0].front().layer;
    for (const auto& slot : consumers_[layer.id][0]) {
      if (slot.layer != first) return nullptr;
    }
    return &graph_.At(first);
  }
  const std::vector<InputSlot>& Readers(const Layer& layer) const { return consumers_[layer.id][0]; }
  const ConstantDescriptor* Constant(const Layer& layer, std::size_t input) const {
    return ConstantOf(graph_, layer.inputs[input]);
  }

  // The f32 value of a one-element constant input, if it is one.
  std::optional<float> Scalar(const Layer& layer, std::size_t input) const {
    const ConstantDescriptor* constant = Constant(layer, input);
    if (!constant || constant->info.type != DataType::kFloat32 || constant->info.shape.NumElements() != 1) {
      return std::nullopt;
    }
    float value = 0.0f;
    std::memcpy(&value, constant->data->data(), sizeof value);
    return value;
  }

 private:
  const Graph& graph_;
  ConsumerTable consumers_;
};

bool IsF32(const Layer& layer) {
  return !layer.removed && layer.num_outputs == 1 && layer.output_infos.size() == 1 &&
         layer.output_infos[0].type == DataType::kFloat32;
}

template <typename Descriptor>
const Descriptor* DescriptorOf(const Layer* layer) {
  if (!layer || !IsF32(*layer) || layer->type != Descriptor::kType || !layer->descriptor) return nullptr;
  return static_cast<const Descriptor*>(layer->descriptor.get());
}

bool IsBinary(const Layer* layer, BinaryOperation operation) {
  const auto* descriptor = DescriptorOf<ElementwiseBinaryDescriptor>(layer);
  return descriptor && descriptor->operation == operation && layer->inputs.size() == 2;
}

bool IsUnary(const Layer* layer, UnaryOperation operation) {
  const auto* descriptor = DescriptorOf<ElementwiseUnaryDescriptor>(layer);
  return descriptor && descriptor->operation == operation;
}

OutputSlot OutputOf(const Layer& layer) { return {layer.id, 0}; }

bool Same(OutputSlot a, OutputSlot b) { return a.layer == b.layer && a.index == b.index; }

bool Near(std::optional<float> value, double target) {
  return value && std::abs(*value - target) <= 1e-5 * std::abs(target);
}

// Which input of the binary `layer` is `slot`, if one is (the first when both are).
std::optional<std::size_t> InputIndexOf(const Layer& layer, OutputSlot slot) {
  for (std::size_t i = 0; i < layer.inputs.size(); ++i) {
    if (layer.inputs[i] && Same(*layer.inputs[i], slot)) return i;
  }
  return std::nullopt;
}

// For a commutative binary layer reading `slot`: the index of its other input.
std::optional<std::size_t> OtherInput(const Layer& layer, OutputSlot slot) {
  const auto index = InputIndexOf(layer, slot);
  if (!index) return std::nullopt;
  return 1 - *index;
}

// The reduced axes of a keep_dims ReduceMean over the last axes of its input: the first of
// them, or nothing when `layer` is not one.
std::optional<std::int32_t> TailMeanAxis(const Layer* layer) {
  const auto* descriptor = DescriptorOf<ReduceDescriptor>(layer);
  if (!descriptor || descriptor->operation != ReduceOperation::kMean || !descriptor->keep_dims ||
      descriptor->axes.empty() || layer->input_infos.empty()) {
    return std::nullopt;
  }
  const auto rank = static_cast<std::int32_t>(layer->input_infos[0].shape.Rank());
  std::vector<std::int32_t> axes;
  for (std::int32_t axis : descriptor->axes) axes.push_back(axis < 0 ? axis + rank : axis);
  std::sort(axes.begin(), axes.end());
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] != rank - static_cast<std::int32_t>(axes.size() - i)) return std::nullopt;
  }
  return axes.front();
}

// ReduceMean(x) -> Sub(x, mean) = d -> Pow(d, 2) | Mul(d, d) -> ReduceMean -> Add(eps) -> Sqrt
// -> Div(d, .) [-> Mul(scale)] [-> Add(bias)], rooted at the first ReduceMean.
std::vector<Match> MatchLayerNormalization(const View& view, const Layer& mean) {
  const auto axis = TailMeanAxis(&mean);
  if (!axis) return {};
  const OutputSlot x = *mean.inputs[0];
  const Layer* sub = view.SoleConsumer(mean);
  if (!IsBinary(sub, BinaryOperation::kSub) || InputIndexOf(*sub, x) != 0u || InputIndexOf(*sub, OutputOf(mean)) != 1u) {
    return {};
  }
  // d is read by the square and by the division, nothing else.
  const Layer* square = nullptr;
  const Layer* div = nullptr;
  for (const auto& reader : view.Readers(*sub)) {
    const Layer& layer = view.At(reader.layer);
    if (IsBinary(&layer, BinaryOperation::kDiv) && reader.index == 0 && !div) {
      div = &layer;
    } else if ((IsBinary(&layer, BinaryOperation::kPow) && reader.index == 0 && Near(view.Scalar(layer, 1), 2.0)) ||
               (IsBinary(&layer, BinaryOperation::kMul) && Same(*layer.inputs[0], *layer.inputs[1]))) {
      if (square && square != &layer) return {};
      square = &layer;
    } else {
      return {};
    }
  }
  if (!square || !div) return {};
  const Layer* variance = view.SoleConsumer(*square);
  if (TailMeanAxis(variance) != axis) return {};
  const Layer* add_epsilon = view.SoleConsumer(*variance);
  if (!IsBinary(add_epsilon, BinaryOperation::kAdd)) return {};
  const auto epsilon_input = OtherInput(*add_epsilon, OutputOf(*variance));
  const auto epsilon = epsilon_input ? view.Scalar(*add_epsilon, *epsilon_input) : std::nullopt;
  if (!epsilon || !(*epsilon >= 0.0f)) return {};
  const Layer* sqrt = view.SoleConsumer(*add_epsilon);
  if (!IsUnary(sqrt, UnaryOperation::kSqrt) || view.SoleConsumer(*sqrt) != div || InputIndexOf(*div, OutputOf(*sqrt)) != 1u) {
    return {};
  }

  Match match;
  match.type = LayerType::kLayerNormalization;
  auto descriptor = std::make_shared<LayerNormalizationDescriptor>();
  descriptor->axis = *axis;
  descriptor->epsilon = *epsilon;
  match.descriptor = std::move(descriptor);
  match.layers = {mean.id, sub->id, square->id, variance->id, add_epsilon->id, sqrt->id, div->id};
  match.inputs = {x};
  // Then a scale and a bias by constants, each optional: the alternatives, longest first, since
  // the schema (asked when a match is tried) may refuse a scale or bias of another shape.
  // Without a scale, a scale of ones.
  const TensorShape& x_dims = mean.input_infos[0].shape;
  std::vector<std::int64_t> normalized;
  for (std::size_t a = static_cast<std::size_t>(*axis); a < x_dims.Rank(); ++a) normalized.push_back(x_dims[a]);
  const TensorInfo ones_info{TensorShape(normalized), DataType::kFloat32};
  std::vector<std::uint8_t> ones(static_cast<std::size_t>(ones_info.NumBytes()));
  for (std::size_t i = 0; i < ones.size(); i += sizeof(float)) {
    const float one = 1.0f;
    std::memcpy(ones.data() + i, &one, sizeof one);
  }
  match.ones_scale.emplace(ones_info, std::move(ones));
  std::vector<Match> alternatives{match};
  // `layer` applied to the last alternative's result by a constant: the next alternative.
  const auto extend = [&](BinaryOperation operation, bool replaces_ones) {
    const Layer& last = view.At(alternatives.back().layers.back());
    const Layer* next = view.SoleConsumer(last);
    if (!IsBinary(next, operation)) return false;
    const auto other = OtherInput(*next, OutputOf(last));
    if (!other || !view.Constant(*next, *other)) return false;
    Match longer = alternatives.back();
    longer.layers.push_back(next->id);
    longer.inputs.push_back(*next->inputs[*other]);
    if (replaces_ones) longer.ones_scale.reset();
    alternatives.push_back(std::move(longer));
    return true;
  };
  extend(BinaryOperation::kMul, true);
  extend(BinaryOperation::kAdd, false);
  std::reverse(alternatives.begin(), alternatives.end());
  return alternatives;
}

// The end both GELU forms share, after their Erf or Tanh (`core`): Add(1), then x and 0.5
// multiplied in: Mul(x, .) -> Mul(0.5), Mul(0.5, .) -> Mul(x, .), or Mul(Mul(x, 0.5), .).
// `match` gets the GELU Activation of `function` over x, its layers `core_layers` then the end's.
std::vector<Match> MatchGeluEnd(const View& view, const Layer& core, OutputSlot x, std::vector<LayerId> core_layers,
                                ActivationFunction function) {
  const Layer* add_one = view.SoleConsumer(core);
  if (!IsBinary(add_one, BinaryOperation::kAdd)) return {};
  const auto one = OtherInput(*add_one, OutputOf(core));
  if (!one || !Near(view.Scalar(*add_one, *one), 1.0)) return {};
  const Layer* first = view.SoleConsumer(*add_one);
  if (!IsBinary(first, BinaryOperation::kMul)) return {};
  const auto other = OtherInput(*first, OutputOf(*add_one));
  if (!other) return {};

  Match match;
  match.layers = std::move(core_layers);
  match.layers.push_back(add_one->id);
  const OutputSlot operand = *first->inputs[*other];
  const Layer& operand_layer = view.At(operand.layer);
  const auto half_of_x = [&](const Layer& layer) {  // Mul(x, 0.5) in either order
    if (!IsBinary(&layer, BinaryOperation::kMul)) return false;
    const auto x_index = InputIndexOf(layer, x);
    return x_index && Near(view.Scalar(layer, 1 - *x_index), 0.5);
  };
  if (Same(operand, x) || Near(view.Scalar(*first, *other), 0.5)) {
    // The second Mul brings what the first did not: 0.5 after x, or x after 0.5.
    const Layer* second = view.SoleConsumer(*first);
    if (!IsBinary(second, BinaryOperation::kMul)) return {};
    const auto rest = OtherInput(*second, OutputOf(*first));
    if (!rest) return {};
    const bool completes = Same(operand, x) ? Near(view.Scalar(*second, *rest), 0.5) : Same(*second->inputs[*rest], x);
    if (!completes) return {};
    match.layers.insert(match.layers.end(), {first->id, second->id});
  } else if (half_of_x(operand_layer) && view.SoleConsumer(operand_layer) == first) {
    match.layers.insert(match.layers.end(), {operand_layer.id, first->id});
  } else {
    return {};
  }
  auto descriptor = std::make_shared<ActivationDescriptor>();
  descriptor->function = function;
  match.descriptor = std::move(descriptor);
  match.inputs = {x};
  return {match};
}

// For a commutative binary `layer` one of whose inputs is the f32 scalar `value`: the index of
// the other input.
std::optional<std::size_t> ByScalar(const View& view, const Layer& layer, double value) {
  for (std::size_t i = 0; i < 2; ++i) {
    if (Near(view.Scalar(layer, 1 - i), value)) return i;
  }
  return std::nullopt;
}

// Div(x, sqrt 2) | Mul(x, 1/sqrt 2) -> Erf -> the GELU end (MatchGeluEnd). Rooted at the Erf.
std::vector<Match> MatchGelu(const View& view, const Layer& erf) {
  if (!IsUnary(&erf, UnaryOperation::kErf)) return {};
  const Layer& scaled = view.Producer(erf, 0);
  std::optional<OutputSlot> x;
  if (IsBinary(&scaled, BinaryOperation::kDiv) && Near(view.Scalar(scaled, 1), std::sqrt(2.0))) {
    x = scaled.inputs[0];
  } else if (IsBinary(&scaled, BinaryOperation::kMul)) {
    if (const auto i = ByScalar(view, scaled, 1.0 / std::sqrt(2.0))) x = scaled.inputs[*i];
  }
  if (!x || view.SoleConsumer(scaled) != &erf) return {};
  return MatchGeluEnd(view, erf, *x, {scaled.id, erf.id}, ActivationFunction::kGelu);
}

// GELU's tanh approximation (GPT-2, PyTorch's approximate='tanh'): Pow(x, 3) | Mul(x, Mul(x, x))
// -> Mul(0.044715) -> Add(x, .) -> Mul(sqrt(2 / pi)) -> Tanh -> the GELU end (MatchGeluEnd),
// each Mul and Add in either operand order. Rooted at the Tanh.
std::vector<Match> MatchGeluTanh(const View& view, const Layer& tanh) {
  const auto* activation = DescriptorOf<ActivationDescriptor>(&tanh);
  if (!activation || activation->function != ActivationFunction::kTanh) return {};
  const Layer& scaled = view.Producer(tanh, 0);
  constexpr double kSqrtTwoOverPi = 0.7978845608028654;
  const auto inner_index =
      IsBinary(&scaled, BinaryOperation::kMul) ? ByScalar(view, scaled, kSqrtTwoOverPi) : std::nullopt;
  if (!inner_index || view.SoleConsumer(scaled) != &tanh) return {};
  const Layer& inner = view.Producer(scaled, *inner_index);
  if (!IsBinary(&inner, BinaryOperation::kAdd) || view.SoleConsumer(inner) != &scaled) return {};
  for (std::size_t j = 0; j < 2; ++j) {
    const OutputSlot x = *inner.inputs[j];
    const Layer& weighted = view.Producer(inner, 1 - j);
    const auto cube_index = IsBinary(&weighted, BinaryOperation::kMul) ? ByScalar(view, weighted, 0.044715)
                                                                        : std::nullopt;
    if (!cube_index || view.SoleConsumer(weighted) != &inner) continue;
    const Layer& cube = view.Producer(weighted, *cube_index);
    if (view.SoleConsumer(cube) != &weighted) continue;
    std::vector<LayerId> layers;
    if (IsBinary(&cube, BinaryOperation::kPow) && Same(*cube.inputs[0], x) && Near(view.Scalar(cube, 1), 3.0)) {
      layers = {cube.id};
    } else if (IsBinary(&cube, BinaryOperation::kMul) && InputIndexOf(cube, x)) {
      const Layer& square = view.Producer(cube, 1 - *InputIndexOf(cube, x));
      if (!IsBinary(&square, BinaryOperation::kMul) || !Same(*square.inputs[0], x) || !Same(*square.inputs[1], x) ||
          view.SoleConsumer(square) != &cube) {
        continue;
      }
      layers = {square.id, cube.id};
    } else {
      continue;
    }
    layers.insert(layers.end(), {weighted.id, inner.id, scaled.id, tanh.id});
    return MatchGeluEnd(view, tanh, x, std::move(layers), ActivationFunction::kGeluTanh);
  }
  return {};
}

// Mul(x, Sigmoid(x)) -> SiLU; Mul(x, HardSigmoid(x; 1/6, 1/2)) -> HardSwish. Rooted at the Mul.
std::vector<Match> MatchGatedActivation(const View& view, const Layer& mul) {
  if (!IsBinary(&mul, BinaryOperation::kMul)) return {};
  for (std::size_t i = 0; i < 2; ++i) {
    const Layer& gate = view.Producer(mul, i);
    const auto* activation = DescriptorOf<ActivationDescriptor>(&gate);
    if (!activation || view.SoleConsumer(gate) != &mul || !Same(*gate.inputs[0], *mul.inputs[1 - i])) continue;
    ActivationFunction function;
    if (activation->function == ActivationFunction::kSigmoid) {
      function = ActivationFunction::kSilu;
    } else if (activation->function == ActivationFunction::kHardSigmoid && Near(activation->alpha, 1.0 / 6.0) &&
               Near(activation->beta, 0.5)) {
      function = ActivationFunction::kHardSwish;
    } else {
      continue;
    }
    Match match;
    auto descriptor = std::make_shared<ActivationDescriptor>();
    descriptor->function = function;
    match.descriptor = std::move(descriptor);
    match.layers = {gate.id, mul.id};
    match.inputs = {*mul.inputs[1 - i]};
    return {match};
  }
  return {};
}

// Pad (constant 0, only along H and W of a 4-D tensor) -> Convolution2d, or -> average
// Pooling2d that counts padding (or has none, and no ceil mode): the convolution or pooling
// with those pads added to its own. Rooted at the Pad.
std::vector<Match> MatchPaddedWindow(const View& view, const Layer& pad) {
  const auto* padding = DescriptorOf<PadDescriptor>(&pad);
  if (!padding || padding->mode != PadMode::kConstant || padding->value != 0.0f || pad.input_infos.empty() ||
      pad.input_infos[0].shape.Rank() != 4 || padding->pads.size() != 8) {
    return {};
  }
  const auto& p = padding->pads;  // begin N C H W, end N C H W
  if (p[0] != 0 || p[1] != 0 || p[4] != 0 || p[5] != 0 ||
      std::any_of(p.begin(), p.end(), [](std::int64_t v) { return v < 0 || v > 65535; })) {
    return {};
  }
  const std::array<std::uint32_t, 4> added{static_cast<std::uint32_t>(p[2]), static_cast<std::uint32_t>(p[3]),
                                           static_cast<std::uint32_t>(p[6]), static_cast<std::uint32_t>(p[7])};
  const Layer* window = view.SoleConsumer(pad);
  if (!window || window->inputs.empty() || !Same(*window->inputs[0], OutputOf(pad))) return {};
  Match match;
  match.layers = {pad.id, window->id};
  match.inputs = {*pad.inputs[0]};
  for (std::size_t i = 1; i < window->inputs.size(); ++i) match.inputs.push_back(*window->inputs[i]);
  if (const auto* conv = DescriptorOf<Convolution2dDescriptor>(window)) {
    auto descriptor = std::make_shared<Convolution2dDescriptor>(*conv);
    for (std::size_t i = 0; i < 4; ++i) descriptor->pads[i] += added[i];
    match.type = LayerType::kConvolution2d;
    match.descriptor = std::move(descriptor);
    return {match};
  }
  if (const auto* pool = DescriptorOf<Pooling2dDescriptor>(window)) {
    const bool no_pads = pool->pads == std::array<std::uint32_t, 4>{0, 0, 0, 0};
    if (pool->type != PoolingType::kAverage || pool->global || pool->ceil_mode || !(no_pads || pool->count_include_pad)) {
      return {};
    }
    auto descriptor = std::make_shared<Pooling2dDescriptor>(*pool);
    for (std::size_t i = 0; i < 4; ++i) descriptor->pads[i] += added[i];
    descriptor->count_include_pad = true;  // the zeros were counted
    match.type = LayerType::kPooling2d;
    match.descriptor = std::move(descriptor);
    return {match};
  }
  return {};
}

// The layer `match` would add, complete as a resolved ILayerView (so backends can be asked
// about it), reading `inputs`. Throws Exception when its shapes do not fit its op (the op
// schema is the one owner of that rule) or its output is not the pattern's.
Layer Candidate(const Graph& graph, const ConsumerTable& consumers, const Match& match,
                const std::vector<OutputSlot>& inputs) {
  const Layer& last = graph.At(match.layers.back());
  Layer layer;
  layer.type = match.type;
  layer.name = last.name;
  layer.descriptor = match.descriptor;
  for (const OutputSlot& input : inputs) {
    const Layer& producer = graph.At(input.layer);
    const ConstantDescriptor* constant = ConstantOf(graph, input);
    layer.inputs.push_back(input);
    layer.input_infos.push_back(producer.output_infos.at(input.index));
    layer.input_producers.push_back(producer.name);
    layer.constant_inputs.push_back(constant ? constant->data->data() : nullptr);
  }
  layer.output_infos = InferOutputInfos(layer);
  if (layer.output_infos != last.output_infos) {
    throw Exception(ErrorCode::kInvalidArgument, "the recognized layer's output differs from the pattern's");
  }
  layer.output_consumer_counts = {consumers[last.id][0].size()};
  return layer;
}

// Replaces `match`'s layers by its one layer when that layer is valid and placeable; false
// (the graph as it was) otherwise.
bool TryReplace(Graph& graph, Match match, const CompositeOpRules& rules, std::vector<std::string>& log) {
  const LayerId last = match.layers.back();
  const std::string name = graph.At(last).name;
  std::vector<OutputSlot> inputs = match.inputs;
  std::optional<LayerId> ones;  // the scale of ones a LayerNormalization without a scale reads
  if (match.ones_scale) {
    ones = AddConstant(graph, name + ".scale", match.ones_scale->first, std::move(match.ones_scale->second));
    inputs.insert(inputs.begin() + 1, OutputSlot{*ones, 0});
  }
  const ConsumerTable consumers = graph.Consumers();
  std::optional<Layer> candidate;
  try {
    candidate = Candidate(graph, consumers, match, inputs);
  } catch (const Exception&) {
    // shapes the single op does not take (a scale of another shape): not this alternative
  }
  if (!candidate || !rules.placeable(*candidate)) {
    if (ones) graph.At(*ones).removed = true;
    return false;
  }
  std::string described;
  for (LayerId id : match.layers) described += (described.empty() ? "" : ", ") + graph.At(id).Describe();
  graph.Rename(last, name + " (decomposed)");
  const LayerId replacement = graph.Add(std::move(*candidate));
  Rewire(graph, consumers[last][0], OutputSlot{replacement, 0});
  for (LayerId id : match.layers) graph.At(id).removed = true;
  log.push_back("recognized '" + name + "' as " + backend::ToString(match.type) + " in " + described);
  return true;
}

}  // namespace

void RecognizeCompositeOps(Graph& graph, const CompositeOpRules& rules, std::vector<std::string>& log) {
  graph.Resolve();
  const std::size_t original = graph.Size();
  // Made again only after a replacement: the consumers of every layer it does not replace stay
  // the same when an attempt fails (its scale of ones is a removed constant nothing reads).
  std::optional<View> view;
  for (std::size_t index = 0; index < original; ++index) {
    std::vector<Match> alternatives;
    if (graph.At(static_cast<LayerId>(index)).removed) continue;
    if (!view) view.emplace(graph);
    const Layer& root = graph.At(static_cast<LayerId>(index));
    for (const auto matcher :
         {MatchLayerNormalization, MatchGelu, MatchGeluTanh, MatchGatedActivation, MatchPaddedWindow}) {
      alternatives = matcher(*view, root);
      if (!alternatives.empty()) break;
    }
    for (Match& match : alternatives) {
      const bool pinned = std::any_of(match.layers.begin(), match.layers.end(),
                                      [&](LayerId id) { return rules.pinned(graph.At(id)); });
      if (!pinned && TryReplace(graph, std::move(match), rules, log)) {
        view.reset();
        break;
      }
    }
  }
  graph.Resolve();
}

}  // namespace backplane::graph
