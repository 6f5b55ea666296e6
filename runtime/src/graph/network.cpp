#include "graph/graph.hpp"

#include <backplane/checked_size.hpp>
#include <backplane/exception.hpp>
#include <backplane/network.hpp>

#include <unordered_map>

namespace backplane {

namespace {

[[noreturn]] void Invalid(const std::string& message) {
  throw Exception(ErrorCode::kInvalidArgument, message);
}

void CheckNewName(const graph::Graph& graph, const std::string& name) {
  if (name.empty()) Invalid("a layer name must not be empty");
  if (graph.HasName(name)) Invalid("the network already has a layer named '" + name + "'");
}

void CheckOutputSlot(const graph::Graph& graph, OutputSlot slot, const std::string& what) {
  if (slot.layer >= graph.Size()) {
    Invalid(what + " refers to layer " + std::to_string(slot.layer) + ", but the network has " +
            std::to_string(graph.Size()) + " layers");
  }
  const auto& layer = graph.At(slot.layer);
  if (slot.index >= layer.num_outputs) {
    Invalid(what + " refers to output " + std::to_string(slot.index) + " of layer " +
            layer.Describe() + ", which has " + std::to_string(layer.num_outputs));
  }
}

}  // namespace

Network::Network() : impl_(std::make_unique<Impl>()) {}
Network::~Network() = default;
Network::Network(Network&&) noexcept = default;
Network& Network::operator=(Network&&) noexcept = default;

OutputSlot Network::AddInput(const std::string& name, const TensorInfo& info) {
  CheckNewName(impl_->graph, name);
  for (auto dim : info.shape.Dims()) {
    if (dim <= 0) {
      Invalid("input '" + name + "' has shape " + ToString(info.shape) +
              "; every dimension must be positive (fix dynamic dimensions before building)");
    }
  }
  CheckedNumBytes(info.shape.Dims(), info.type, "input '" + name + "'");
  graph::Layer layer;
  layer.type = LayerType::kInput;
  layer.name = name;
  layer.output_infos = {info};
  const LayerId id = impl_->graph.Add(std::move(layer));
  impl_->inputs.push_back(id);
  return {id, 0};
}

void Network::AddOutput(const std::string& name, OutputSlot source) {
  CheckNewName(impl_->graph, name);
  CheckOutputSlot(impl_->graph, source, "output '" + name + "'");
  graph::Layer layer;
  layer.type = LayerType::kOutput;
  layer.name = name;
  layer.num_outputs = 0;
  layer.inputs = {source};
  impl_->outputs.push_back(impl_->graph.Add(std::move(layer)));
}

OutputSlot Network::AddConstant(const std::string& name, const TensorInfo& info,
                                std::shared_ptr<const std::vector<std::uint8_t>> data) {
  CheckNewName(impl_->graph, name);
  const std::uint64_t bytes = CheckedNumBytes(info.shape.Dims(), info.type, "constant '" + name + "'");
  if (!data || data->size() != bytes) {
    Invalid("constant '" + name + "' of " + ToString(info.type) + " " + ToString(info.shape) +
            " needs " + std::to_string(info.NumBytes()) + " bytes, got " +
            std::to_string(data ? data->size() : 0));
  }
  auto descriptor = std::make_shared<ConstantDescriptor>();
  descriptor->info = info;
  descriptor->data = std::move(data);
  graph::Layer layer;
  layer.type = LayerType::kConstant;
  layer.name = name;
  layer.descriptor = std::move(descriptor);
  layer.output_infos = {info};
  return {impl_->graph.Add(std::move(layer)), 0};
}

LayerId Network::AddLayer(LayerType type, std::shared_ptr<const LayerDescriptor> descriptor,
                          const std::string& name, const std::vector<OutputSlot>& inputs,
                          std::uint32_t num_outputs) {
  if (type == LayerType::kInput || type == LayerType::kOutput || type == LayerType::kConstant ||
      type == LayerType::kPreCompiled || type >= LayerType::kCount) {
    Invalid(std::string("AddLayer cannot add a ") + backend::ToString(type) +
            " layer; use AddInput, AddOutput or AddConstant");
  }
  if (!descriptor) Invalid(std::string("a ") + backend::ToString(type) + " layer needs a descriptor");
  const std::string layer_name =
      name.empty() ? std::string(backend::ToString(type)) + "_" + std::to_string(impl_->graph.Size()) : name;
  CheckNewName(impl_->graph, layer_name);
  if (num_outputs == 0) Invalid("layer '" + layer_name + "' must have at least one output");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    CheckOutputSlot(impl_->graph, inputs[i], "input " + std::to_string(i) + " of layer '" + layer_name + "'");
  }
  graph::Layer layer;
  layer.type = type;
  layer.name = layer_name;
  layer.descriptor = std::move(descriptor);
  layer.num_outputs = num_outputs;
  layer.inputs.assign(inputs.begin(), inputs.end());
  return impl_->graph.Add(std::move(layer));
}

void Network::Connect(OutputSlot from, InputSlot to) {
  CheckOutputSlot(impl_->graph, from, "a connection");
  if (to.layer >= impl_->graph.Size()) {
    Invalid("a connection targets layer " + std::to_string(to.layer) + ", but the network has " +
            std::to_string(impl_->graph.Size()) + " layers");
  }
  auto& layer = impl_->graph.At(to.layer);
  if (layer.type == LayerType::kInput || layer.type == LayerType::kConstant) {
    Invalid("layer " + layer.Describe() + " takes no inputs");
  }
  if (to.index >= 64) Invalid("input " + std::to_string(to.index) + " of layer " + layer.Describe() + " is out of range");
  if (layer.inputs.size() <= to.index) layer.inputs.resize(to.index + 1);
  if (layer.inputs[to.index]) {
    Invalid("input " + std::to_string(to.index) + " of layer " + layer.Describe() + " is already connected");
  }
  layer.inputs[to.index] = from;
  std::lock_guard<std::mutex> lock(impl_->info_mutex);
  impl_->inferred.clear();  // the layer and everything downstream may infer differently now
}

void Network::PinLayer(const std::string& layer_name, const BackendId& backend) {
  const graph::Layer* layer = impl_->graph.Find(layer_name);
  if (!layer) throw Exception(ErrorCode::kNotFound, "the network has no layer named '" + layer_name + "'");
  impl_->graph.At(layer->id).pin = backend;
}

namespace {

// Resolves a copy holding only the layer of `slot` and what it depends on, so a problem
// elsewhere in the network does not affect the answer. Costs a copy of the whole graph: used
// only to report what GetOutputInfo's incremental walk found wrong (an unconnected input, a
// cycle) with Graph::Resolve's own messages.
TensorInfo ResolveCopy(const graph::Graph& graph, OutputSlot slot) {
  graph::Graph copy = graph;
  std::vector<bool> needed(copy.Size(), false);
  std::vector<LayerId> stack{slot.layer};
  needed[slot.layer] = true;
  while (!stack.empty()) {
    const LayerId id = stack.back();
    stack.pop_back();
    for (const auto& input : copy.At(id).inputs) {
      if (input && input->layer < copy.Size() && !needed[input->layer]) {
        needed[input->layer] = true;
        stack.push_back(input->layer);
      }
    }
  }
  for (auto& layer : copy.Layers()) layer.removed = !needed[layer.id];
  copy.Resolve();
  return copy.At(slot.layer).output_infos.at(slot.index);
}

}  // namespace

TensorInfo Network::GetOutputInfo(OutputSlot slot) const {
  CheckOutputSlot(impl_->graph, slot, "GetOutputInfo");
  // Infers only the layers the memo lacks, in dependency order (an iterative depth-first walk
  // from the slot's layer that stops at inferred layers), so building a network layer by layer
  // and asking each new layer's info costs time linear in the network, not quadratic.
  const graph::Graph& graph = impl_->graph;
  std::lock_guard<std::mutex> lock(impl_->info_mutex);
  auto& memo = impl_->inferred;
  if (memo.size() < graph.Size()) memo.resize(graph.Size());
  if (!memo[slot.layer]) {
    enum : std::uint8_t { kVisiting = 1, kDone = 2 };
    std::unordered_map<LayerId, std::uint8_t> state;
    std::vector<std::pair<LayerId, std::size_t>> stack{{slot.layer, 0}};  // layer, next input
    std::vector<LayerId> order;
    state[slot.layer] = kVisiting;
    while (!stack.empty()) {
      const LayerId id = stack.back().first;
      const graph::Layer& layer = graph.At(id);
      if (stack.back().second == layer.inputs.size()) {
        state[id] = kDone;
        order.push_back(id);
        stack.pop_back();
        continue;
      }
      const auto& input = layer.inputs[stack.back().second++];
      if (!input || input->layer >= graph.Size() || input->index >= graph.At(input->layer).num_outputs) {
        return ResolveCopy(graph, slot);  // throws naming the unconnected or dangling input
      }
      if (memo[input->layer]) continue;
      std::uint8_t& seen = state[input->layer];
      if (seen == kDone) continue;
      if (seen == kVisiting) return ResolveCopy(graph, slot);  // throws naming the cycle
      seen = kVisiting;
      stack.emplace_back(input->layer, 0);
    }
    for (const LayerId id : order) {
      graph::Layer view = graph.At(id);
      for (const auto& input : view.inputs) {
        const graph::Layer& producer = graph.At(input->layer);
        view.input_producers.push_back(producer.name);
        view.input_infos.push_back(memo[input->layer]->at(input->index));
        view.constant_inputs.push_back(
            producer.type == LayerType::kConstant
                ? static_cast<const ConstantDescriptor&>(*producer.descriptor).data->data()
                : nullptr);
      }
      memo[id] = view.type == LayerType::kInput ? view.output_infos : graph::InferOutputInfos(view);
    }
  }
  return memo[slot.layer]->at(slot.index);
}

std::size_t Network::GetNumLayers() const { return impl_->graph.Size(); }

LayerId Network::FindLayer(const std::string& name) const {
  const graph::Layer* layer = impl_->graph.Find(name);
  if (!layer) throw Exception(ErrorCode::kNotFound, "the network has no layer named '" + name + "'");
  return layer->id;
}

std::vector<std::string> Network::GetInputNames() const {
  std::vector<std::string> names;
  for (LayerId id : impl_->inputs) names.push_back(impl_->graph.At(id).name);
  return names;
}

std::vector<std::string> Network::GetOutputNames() const {
  std::vector<std::string> names;
  for (LayerId id : impl_->outputs) names.push_back(impl_->graph.At(id).name);
  return names;
}

}  // namespace backplane
