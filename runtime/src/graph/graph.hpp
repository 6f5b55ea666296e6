// The layer graph behind Network, and the working copy the optimizer places and rewrites.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend_id.hpp>
#include <backplane/network.hpp>
#include <backplane/optimized_network.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace backplane::graph {

using backend::LayerType;

// One layer. Also the ILayerView backends see: input infos and constant inputs are filled in
// by Graph::Resolve, so a view is complete only after that. Owned by its Graph.
class Layer final : public backend::ILayerView {
 public:
  LayerId id = 0;
  LayerType type = LayerType::kInput;
  std::string name;
  std::shared_ptr<const LayerDescriptor> descriptor;
  std::vector<std::optional<OutputSlot>> inputs;  // producer of each input slot
  std::uint32_t num_outputs = 1;
  std::vector<TensorInfo> output_infos;           // Input: as given; others: inferred
  BackendId pin;                                  // empty: not pinned
  bool removed = false;                           // dropped by a pass
  // Filled by the optimizer.
  BackendId backend;                              // empty for Input/Output/Constant
  std::string placement_reason;
  double fused_flops = 0;                           // PreCompiled: LayerFlops summed over what it replaced
  std::vector<backend::FactoryId> output_factories;  // per output: where the tensor lives
  std::vector<EdgeStrategy> input_strategies;       // per input: how it gets here
  std::vector<backend::FactoryId> input_factories;  // per input: the handle type read here
  // Filled by Graph::Resolve.
  std::vector<TensorInfo> input_infos;
  std::vector<const void*> constant_inputs;
  std::vector<std::string> input_producers;         // per input: the producing layer's name
  std::vector<std::size_t> output_consumer_counts;  // per output: live inputs reading it

  LayerType GetType() const override { return type; }
  const std::string& GetName() const override { return name; }
  std::size_t GetNumInputs() const override { return inputs.size(); }
  std::size_t GetNumOutputs() const override { return num_outputs; }
  const TensorInfo& GetInputInfo(std::size_t index) const override { return input_infos.at(index); }
  const TensorInfo& GetOutputInfo(std::size_t index) const override { return output_infos.at(index); }
  const LayerDescriptor* GetDescriptor() const override { return descriptor.get(); }
  const void* GetConstantInput(std::size_t index) const override {
    return index < constant_inputs.size() ? constant_inputs[index] : nullptr;
  }
  std::string GetInputProducer(std::size_t index, std::size_t* output = nullptr) const override {
    if (output) *output = inputs.at(index)->index;
    return input_producers.at(index);
  }
  std::size_t GetOutputConsumerCount(std::size_t index) const override { return output_consumer_counts.at(index); }

  // "conv1 (Convolution2d)": how messages name a layer.
  std::string Describe() const;
};

// A value type: copying a graph copies its layers and shares their descriptors and constant
// data. Not thread-safe to modify.
class Graph {
 public:
  LayerId Add(Layer layer);
  Layer& At(LayerId id) { return layers_.at(id); }
  const Layer& At(LayerId id) const { return layers_.at(id); }
  std::size_t Size() const { return layers_.size(); }
  const std::vector<Layer>& Layers() const { return layers_; }
  std::vector<Layer>& Layers() { return layers_; }
  // Null when no (live) layer has this name.
  const Layer* Find(const std::string& name) const;
  bool HasName(const std::string& name) const { return names_.count(name) != 0; }
  void Rename(LayerId id, const std::string& name);

  // Live layers in an order where every producer comes before its consumers. Throws
  // Exception (kInvalidArgument) naming an unconnected input or the layers of a cycle.
  std::vector<LayerId> TopologicalOrder() const;

  // Checks connections, infers every output's info in topological order and fills each
  // layer's input_infos and constant_inputs. Throws Exception (kInvalidArgument) naming the
  // first layer whose inputs do not fit its op. Returns the topological order.
  std::vector<LayerId> Resolve();

  // Live consumers of each output: result[id][output] = (consumer, input index) pairs.
  std::vector<std::vector<std::vector<InputSlot>>> Consumers() const;

  // Removes layers nothing live depends on and that are not network outputs.
  // Returns the names removed.
  std::vector<std::string> RemoveDeadLayers();

 private:
  std::vector<Layer> layers_;
  std::map<std::string, LayerId> names_;
};

// Output infos of `layer` given its input infos (already in layer.input_infos). Throws
// Exception (kInvalidArgument) with a message naming the layer and what does not fit.
std::vector<TensorInfo> InferOutputInfos(const Layer& layer);

}  // namespace backplane::graph

// The Network's private part: its graph, the list of named inputs and outputs, and what
// GetOutputInfo has inferred so far.
struct backplane::Network::Impl {
  graph::Graph graph;
  std::vector<LayerId> inputs;   // Input layers, in the order added
  std::vector<LayerId> outputs;  // Output layers, in the order added
  // GetOutputInfo's memo, per layer id: the inferred output infos (empty until inferred). Adding
  // layers keeps it valid (a layer's info depends only on what it reads); Connect clears it.
  // Guarded by info_mutex, so const GetOutputInfo calls may run concurrently.
  mutable std::mutex info_mutex;
  mutable std::vector<std::optional<std::vector<TensorInfo>>> inferred;
};
