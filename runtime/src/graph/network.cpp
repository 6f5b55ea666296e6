#include "graph/graph.hpp"

#include <backplane/exception.hpp>
#include <backplane/network.hpp>

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
  if (!data || data->size() != info.NumBytes()) {
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
}

void Network::PinLayer(const std::string& layer_name, const BackendId& backend) {
  const graph::Layer* layer = impl_->graph.Find(layer_name);
  if (!layer) throw Exception(ErrorCode::kNotFound, "the network has no layer named '" + layer_name + "'");
  impl_->graph.At(layer->id).pin = backend;
}

TensorInfo Network::GetOutputInfo(OutputSlot slot) const {
  CheckOutputSlot(impl_->graph, slot, "GetOutputInfo");
  // Resolve a copy holding only the layer and what it depends on: the network stays as
  // built, and a problem elsewhere in it does not affect this answer.
  graph::Graph copy = impl_->graph;
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
