#include "graph/passes.hpp"

#include "graph/host_tensor.hpp"
#include "loading/plugin_call.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace backplane::graph {

namespace {

bool IsHostCompatible(const PlacementBackend& backend) {
  return std::find(backend.preferences.begin(), backend.preferences.end(), backend::kHostFactoryId) !=
         backend.preferences.end();
}

}  // namespace

const ConstantDescriptor* ConstantOf(const Graph& graph, const std::optional<OutputSlot>& input) {
  if (!input) return nullptr;
  const Layer& producer = graph.At(input->layer);
  if (producer.removed || producer.type != LayerType::kConstant) return nullptr;
  return static_cast<const ConstantDescriptor*>(producer.descriptor.get());
}

LayerId AddConstant(Graph& graph, std::string name, const TensorInfo& info, std::vector<std::uint8_t> bytes) {
  while (graph.HasName(name)) name += "'";
  auto descriptor = std::make_shared<ConstantDescriptor>();
  descriptor->info = info;
  descriptor->data = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
  Layer layer;
  layer.type = LayerType::kConstant;
  layer.name = std::move(name);
  layer.descriptor = std::move(descriptor);
  layer.output_infos = {info};
  return graph.Add(std::move(layer));
}

void Rewire(Graph& graph, const std::vector<InputSlot>& consumers, OutputSlot to) {
  for (const auto& consumer : consumers) graph.At(consumer.layer).inputs[consumer.index] = to;
}

std::vector<std::vector<std::uint8_t>> RunOnHost(PlacementBackend& backend, const Layer& layer) {
  try {
    const auto memory_manager = backend.instance->CreateMemoryManager();
    // No runtime context applies to folding: the factory works with its defaults.
    const auto factory = backend.instance->CreateWorkloadFactory(memory_manager, nullptr);
    const auto workload = factory->CreateWorkload(layer);
    std::vector<std::vector<std::uint8_t>> outputs;
    for (const auto& info : layer.output_infos) outputs.emplace_back(info.NumBytes());
    std::vector<HostTensorHandle> handles;
    handles.reserve(layer.inputs.size() + outputs.size());
    std::vector<backend::ITensorHandle*> inputs, results;
    for (std::size_t i = 0; i < layer.inputs.size(); ++i) {
      handles.emplace_back(layer.input_infos[i], const_cast<void*>(layer.constant_inputs[i]));
      inputs.push_back(&handles.back());
    }
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      handles.emplace_back(layer.output_infos[i], outputs[i].data());
      results.push_back(&handles.back());
    }
    AlignedBuffer scratch(workload->GetScratchSize());
    if (memory_manager) memory_manager->Acquire();
    workload->Execute({inputs, results, scratch.data()});
    if (memory_manager) memory_manager->Release();
    return outputs;
  } catch (...) {
    const loading::PluginFailure failure = loading::CurrentPluginFailure();
    throw Exception(ErrorCode::kBackendFailure,
                    "folding layer " + layer.Describe() + " on " + backend.id.Get() + " failed: " +
                        (failure.standard ? failure.what : "a non-standard exception was thrown"));
  }
}

void FoldConstants(Graph& graph, std::vector<PlacementBackend>& backends, std::vector<std::string>& log) {
  const auto order = graph.Resolve();
  for (LayerId id : order) {
    Layer& layer = graph.At(id);
    if (layer.type == LayerType::kInput || layer.type == LayerType::kOutput ||
        layer.type == LayerType::kConstant || layer.type == LayerType::kPreCompiled || layer.inputs.empty()) {
      continue;
    }
    const bool all_constant = std::all_of(layer.inputs.begin(), layer.inputs.end(),
                                          [&](const auto& input) { return ConstantOf(graph, input) != nullptr; });
    if (!all_constant) continue;
    // Inputs may themselves have been folded just now: refresh the view.
    layer.constant_inputs.clear();
    for (const auto& input : layer.inputs) layer.constant_inputs.push_back(ConstantOf(graph, input)->data->data());

    PlacementBackend* runner = nullptr;
    for (auto& backend : backends) {
      std::string ignored;
      // A layer support that throws does not fold the layer; placement asks again and logs it.
      bool supported = false;
      try {
        supported = backend.available && IsHostCompatible(backend) && backend.support->IsLayerSupported(layer, &ignored);
      } catch (...) {
      }
      if (supported) {
        runner = &backend;
        break;
      }
    }
    if (!runner) continue;
    auto outputs = RunOnHost(*runner, layer);
    const auto consumers = graph.Consumers();
    const std::string name = layer.name;
    const std::vector<TensorInfo> infos = layer.output_infos;
    graph.Rename(id, name + "#folded");
    graph.At(id).removed = true;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const std::string constant_name = outputs.size() == 1 ? name : name + ":" + std::to_string(i);
      const LayerId constant = AddConstant(graph, constant_name, infos[i], std::move(outputs[i]));
      Rewire(graph, consumers[id][i], {constant, 0});
    }
    log.push_back("folded constant layer '" + name + "' (" + backend::ToString(graph.At(id).type) +
                  ") on " + runner->id.Get());
  }
  graph.Resolve();
}

void FoldBatchNormalization(Graph& graph, std::vector<std::string>& log) {
  graph.Resolve();
  for (std::size_t index = 0; index < graph.Size(); ++index) {
    Layer& norm = graph.At(static_cast<LayerId>(index));
    if (norm.removed || norm.type != LayerType::kBatchNormalization) continue;
    const OutputSlot source = *norm.inputs[0];
    Layer& conv = graph.At(source.layer);
    // Both convolutions keep weights [M, ...] per output channel.
    const bool convolution = conv.type == LayerType::kConvolution2d || conv.type == LayerType::kConvolutionNd;
    if (!convolution || conv.output_infos[0].type != DataType::kFloat32) continue;
    const auto consumers = graph.Consumers();
    if (consumers[conv.id][0].size() != 1) continue;  // someone else reads the unnormalized output
    const ConstantDescriptor* weights = ConstantOf(graph, conv.inputs[1]);
    const ConstantDescriptor* bias = conv.inputs.size() > 2 ? ConstantOf(graph, conv.inputs[2]) : nullptr;
    if (!weights || (conv.inputs.size() > 2 && !bias)) continue;
    const ConstantDescriptor* params[4];
    bool constant_params = true;
    for (int i = 0; i < 4; ++i) {
      params[i] = ConstantOf(graph, norm.inputs[i + 1]);
      constant_params = constant_params && params[i] && params[i]->info.type == DataType::kFloat32;
    }
    if (!constant_params || weights->info.type != DataType::kFloat32) continue;

    const auto epsilon = static_cast<const BatchNormalizationDescriptor&>(*norm.descriptor).epsilon;
    const auto channels = static_cast<std::size_t>(weights->info.shape[0]);
    const std::size_t per_channel = static_cast<std::size_t>(weights->info.shape.NumElements()) / channels;
    auto floats = [](const ConstantDescriptor* c) { return reinterpret_cast<const float*>(c->data->data()); };
    const float* w = floats(weights);
    const float* b = bias ? floats(bias) : nullptr;
    const float *scale = floats(params[0]), *beta = floats(params[1]), *mean = floats(params[2]), *var = floats(params[3]);
    std::vector<float> new_weights(channels * per_channel);
    std::vector<float> new_bias(channels);
    for (std::size_t m = 0; m < channels; ++m) {
      const float s = scale[m] / std::sqrt(var[m] + epsilon);
      for (std::size_t k = 0; k < per_channel; ++k) new_weights[m * per_channel + k] = w[m * per_channel + k] * s;
      new_bias[m] = ((b ? b[m] : 0.0f) - mean[m]) * s + beta[m];
    }
    auto bytes = [](const std::vector<float>& values) {
      std::vector<std::uint8_t> out(values.size() * sizeof(float));
      std::memcpy(out.data(), values.data(), out.size());
      return out;
    };
    // Adding layers moves them: copy what is needed from `conv` and `norm` first.
    const std::string conv_name = conv.name;
    const std::string norm_name = norm.name;
    const TensorInfo weight_info = weights->info;
    const LayerId new_w = AddConstant(graph, conv_name + ".weights+" + norm_name, weight_info, bytes(new_weights));
    const LayerId new_b = AddConstant(graph, conv_name + ".bias+" + norm_name,
                                      TensorInfo{TensorShape{static_cast<std::int64_t>(channels)}, DataType::kFloat32},
                                      bytes(new_bias));
    Layer& conv_now = graph.At(source.layer);
    conv_now.inputs.resize(3);
    conv_now.inputs[1] = OutputSlot{new_w, 0};
    conv_now.inputs[2] = OutputSlot{new_b, 0};
    Layer& norm_now = graph.At(static_cast<LayerId>(index));
    Rewire(graph, graph.Consumers()[norm_now.id][0], source);
    norm_now.removed = true;
    log.push_back("folded batch normalization '" + norm_name + "' into convolution '" + conv_name + "'");
  }
  graph.Resolve();
}

void HoistConstantOpsAboveTransposes(Graph& graph, const std::function<bool(const Layer&)>& pinned,
                                     std::vector<std::string>& log) {
  for (const LayerId id : graph.Resolve()) {
    const Layer& op = graph.At(id);
    if (op.removed || op.type != LayerType::kElementwiseBinary || op.inputs.size() != 2 || pinned(op)) continue;
    const std::size_t constant_slot = ConstantOf(graph, op.inputs[1]) ? 1 : 0;
    const ConstantDescriptor* constant = ConstantOf(graph, op.inputs[constant_slot]);
    const OutputSlot moved = *op.inputs[1 - constant_slot];
    const Layer& transpose = graph.At(moved.layer);
    if (!constant || transpose.type != LayerType::kTranspose || pinned(transpose) ||
        transpose.output_consumer_counts.at(0) != 1 || op.input_infos[1 - constant_slot] != op.output_infos[0] ||
        constant->info.type != DataType::kFloat32 || constant->info.shape.Rank() > op.output_infos[0].shape.Rank()) {
      continue;
    }
    const auto& permutation = static_cast<const TransposeDescriptor&>(*transpose.descriptor).permutation;
    const std::size_t rank = op.output_infos[0].shape.Rank();
    if (rank == 0 || permutation.size() != rank) continue;  // an empty permutation (reverse): left alone
    // c' [..., dims[p[i]] = c's dims[i], ...]: element i of c lands where Transpose reads it.
    std::vector<std::int64_t> dims(rank - constant->info.shape.Rank(), 1);
    for (std::int64_t d : constant->info.shape.Dims()) dims.push_back(d);
    std::vector<std::int64_t> permuted_dims(rank), permuted_strides(rank, 1);
    for (std::size_t i = 0; i < rank; ++i) permuted_dims[permutation[i]] = dims[i];
    for (std::size_t i = rank - 1; i > 0; --i) permuted_strides[i - 1] = permuted_strides[i] * permuted_dims[i];
    const auto* values = reinterpret_cast<const float*>(constant->data->data());
    std::vector<float> permuted(constant->data->size() / sizeof(float));
    std::vector<std::int64_t> index(rank, 0);
    for (std::size_t element = 0; element < permuted.size(); ++element) {
      std::int64_t offset = 0;
      for (std::size_t i = 0; i < rank; ++i) offset += index[i] * permuted_strides[permutation[i]];
      permuted[static_cast<std::size_t>(offset)] = values[element];
      for (std::size_t i = rank; i-- > 0 && ++index[i] == dims[i];) index[i] = 0;
    }
    std::vector<std::uint8_t> bytes(permuted.size() * sizeof(float));
    std::memcpy(bytes.data(), permuted.data(), bytes.size());
    // Adding a layer moves the others: keep ids and names, not references.
    const std::string op_name = op.name, transpose_name = transpose.name;
    const LayerId transpose_id = transpose.id;
    const auto consumers = graph.Consumers()[id][0];
    const LayerId permuted_constant =
        AddConstant(graph, op_name + ".operand", TensorInfo{TensorShape(permuted_dims), DataType::kFloat32},
                    std::move(bytes));
    Layer& op_now = graph.At(id);
    op_now.inputs[1 - constant_slot] = graph.At(transpose_id).inputs[0];
    op_now.inputs[constant_slot] = OutputSlot{permuted_constant, 0};
    graph.At(transpose_id).inputs[0] = OutputSlot{id, 0};
    Rewire(graph, consumers, OutputSlot{transpose_id, 0});
    graph.Resolve();
    log.push_back("moved '" + op_name + "' above transpose '" + transpose_name + "'");
  }
  graph.Resolve();
}

}  // namespace backplane::graph
