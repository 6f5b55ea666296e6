#include "graph/graph.hpp"

#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::graph {

std::string Layer::Describe() const {
  return "'" + name + "' (" + backend::ToString(type) + ")";
}

LayerId Graph::Add(Layer layer) {
  layer.id = static_cast<LayerId>(layers_.size());
  names_[layer.name] = layer.id;
  layers_.push_back(std::move(layer));
  return layers_.back().id;
}

const Layer* Graph::Find(const std::string& name) const {
  const auto it = names_.find(name);
  if (it == names_.end() || layers_[it->second].removed) return nullptr;
  return &layers_[it->second];
}

void Graph::Rename(LayerId id, const std::string& name) {
  names_.erase(layers_.at(id).name);
  layers_.at(id).name = name;
  names_[name] = id;
}

std::vector<LayerId> Graph::TopologicalOrder() const {
  // Kahn's algorithm, taking ready layers in id order so the result is deterministic.
  std::vector<std::size_t> pending(layers_.size(), 0);
  std::vector<std::vector<LayerId>> consumers(layers_.size());
  for (const auto& layer : layers_) {
    if (layer.removed) continue;
    for (std::size_t i = 0; i < layer.inputs.size(); ++i) {
      const auto& input = layer.inputs[i];
      if (!input) {
        throw Exception(ErrorCode::kInvalidArgument, "input " + std::to_string(i) + " of layer " +
                                                         layer.Describe() + " is not connected");
      }
      if (input->layer >= layers_.size() || layers_[input->layer].removed ||
          input->index >= layers_[input->layer].num_outputs) {
        throw Exception(ErrorCode::kInvalidArgument, "input " + std::to_string(i) + " of layer " +
                                                         layer.Describe() + " refers to a missing output");
      }
      ++pending[layer.id];
      consumers[input->layer].push_back(layer.id);
    }
  }
  std::vector<LayerId> order;
  std::vector<LayerId> ready;
  for (const auto& layer : layers_) {
    if (!layer.removed && pending[layer.id] == 0) ready.push_back(layer.id);
  }
  std::sort(ready.rbegin(), ready.rend());
  while (!ready.empty()) {
    const LayerId id = ready.back();
    ready.pop_back();
    order.push_back(id);
    for (LayerId consumer : consumers[id]) {
      if (--pending[consumer] == 0) {
        ready.insert(std::upper_bound(ready.begin(), ready.end(), consumer, std::greater<>()), consumer);
      }
    }
  }
  std::size_t live = 0;
  for (const auto& layer : layers_) live += layer.removed ? 0 : 1;
  if (order.size() != live) {
    // The layers left pending are on a cycle or downstream of one; peel off those that feed
    // no other pending layer until only the cycles remain.
    std::vector<bool> on_cycle(layers_.size(), false);
    for (const auto& layer : layers_) on_cycle[layer.id] = !layer.removed && pending[layer.id] != 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& layer : layers_) {
        if (!on_cycle[layer.id]) continue;
        const bool feeds_cycle = std::any_of(consumers[layer.id].begin(), consumers[layer.id].end(),
                                             [&](LayerId consumer) { return on_cycle[consumer]; });
        if (!feeds_cycle) {
          on_cycle[layer.id] = false;
          changed = true;
        }
      }
    }
    std::string cycle;
    for (const auto& layer : layers_) {
      if (on_cycle[layer.id]) cycle += (cycle.empty() ? "" : ", ") + layer.Describe();
    }
    throw Exception(ErrorCode::kInvalidArgument,
                    "the network has a cycle; these layers depend on themselves: " + cycle);
  }
  return order;
}

std::vector<LayerId> Graph::Resolve() {
  const auto order = TopologicalOrder();
  for (LayerId id : order) {
    Layer& layer = layers_[id];
    layer.input_infos.clear();
    layer.constant_inputs.clear();
    layer.input_producers.clear();
    layer.output_consumer_counts.assign(layer.num_outputs, 0);
    for (const auto& input : layer.inputs) {
      Layer& producer = layers_[input->layer];
      ++producer.output_consumer_counts.at(input->index);
      layer.input_producers.push_back(producer.name);
      layer.input_infos.push_back(producer.output_infos.at(input->index));
      const void* constant = nullptr;
      if (producer.type == LayerType::kConstant) {
        const auto& descriptor = static_cast<const ConstantDescriptor&>(*producer.descriptor);
        constant = descriptor.data->data();
      }
      layer.constant_inputs.push_back(constant);
    }
    if (layer.type != LayerType::kInput) layer.output_infos = InferOutputInfos(layer);
  }
  return order;
}

std::vector<std::vector<std::vector<InputSlot>>> Graph::Consumers() const {
  std::vector<std::vector<std::vector<InputSlot>>> result(layers_.size());
  for (const auto& layer : layers_) result[layer.id].resize(layer.num_outputs);
  for (const auto& layer : layers_) {
    if (layer.removed) continue;
    for (std::uint32_t i = 0; i < layer.inputs.size(); ++i) {
      const auto& input = layer.inputs[i];
      if (input) result[input->layer][input->index].push_back({layer.id, i});
    }
  }
  return result;
}

std::vector<std::string> Graph::RemoveDeadLayers() {
  std::vector<bool> needed(layers_.size(), false);
  std::vector<LayerId> stack;
  for (const auto& layer : layers_) {
    if (!layer.removed && (layer.type == LayerType::kOutput || layer.type == LayerType::kInput)) {
      needed[layer.id] = true;
      stack.push_back(layer.id);
    }
  }
  while (!stack.empty()) {
    const LayerId id = stack.back();
    stack.pop_back();
    for (const auto& input : layers_[id].inputs) {
      if (input && !needed[input->layer]) {
        needed[input->layer] = true;
        stack.push_back(input->layer);
      }
    }
  }
  std::vector<std::string> removed;
  for (auto& layer : layers_) {
    if (!layer.removed && !needed[layer.id]) {
      layer.removed = true;
      removed.push_back(layer.name);
    }
  }
  return removed;
}

}  // namespace backplane::graph
