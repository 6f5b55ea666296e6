#include "execution/compiled_network.hpp"

#include "execution/host_tensor.hpp"
#include "execution/memory_plan.hpp"
#include "loading/c_backend.hpp"
#include "loading/plugin_call.hpp"
#include "log.hpp"

#include <backplane/exception.hpp>

#include <algorithm>
#include <mutex>

namespace backplane::execution {

namespace {

// A backend's tensor-handle factories for one loaded network.
class FactoryRegistry final : public backend::ITensorHandleFactoryRegistry {
 public:
  void RegisterFactory(std::unique_ptr<backend::ITensorHandleFactory> factory) override {
    if (!factory) throw Exception(ErrorCode::kInvalidArgument, "a null tensor-handle factory was registered");
    if (Find(factory->GetId())) {
      throw Exception(ErrorCode::kInvalidArgument, "tensor-handle factory " + factory->GetId() + " registered twice");
    }
    factories_.push_back(std::move(factory));
  }
  const backend::ITensorHandleFactory* Find(const backend::FactoryId& id) const {
    for (const auto& factory : factories_) {
      if (factory->GetId() == id) return factory.get();
    }
    return nullptr;
  }

 private:
  std::vector<std::unique_ptr<backend::ITensorHandleFactory>> factories_;
};

// Rethrows the exception being handled (of any type: backends run in these calls) as an
// Exception that says what was being done. Call only inside a catch block.
[[noreturn]] void Rethrow(const std::string& context) {
  const loading::PluginFailure failure = loading::CurrentPluginFailure();
  throw Exception(failure.code, context + ": " +
                                    (failure.standard ? failure.what
                                                      : "the backend threw a non-standard exception"));
}

// For backend calls while unloading (also from destructors), whose failure cannot reach the
// caller: logs it and goes on.
template <typename Call>
void CallWhileUnloading(ILogSink* log, const BackendId& backend, const char* function, Call&& call) noexcept {
  try {
    loading::CallPlugin(backend, function, "", std::forward<Call>(call));
  } catch (const Exception& error) {
    if (log) Log(*log, LogLevel::kWarning, LogCategory::kExecute, std::string(error.what()) + " (while unloading; ignored)");
  } catch (...) {
    // std::bad_alloc while describing the failure: nothing more can be done.
  }
}

}  // namespace

struct CompiledNetwork::BackendState {
  BackendId id;
  std::unique_ptr<backend::IBackend> instance;
  std::shared_ptr<backend::IMemoryManager> memory_manager;
  std::unique_ptr<backend::IWorkloadFactory> workload_factory;
  FactoryRegistry factories;
  backend::IBackendContext* context = nullptr;
  bool notified = false;  // BeforeLoadNetwork succeeded
  bool acquired = false;
};

std::shared_ptr<CompiledNetwork> CompiledNetwork::Load(NetworkId id, OptimizedNetwork network,
                                                       const std::map<BackendId, LoadBackend>& backends,
                                                       std::shared_ptr<std::mutex> context_mutex,
                                                       ILogSink& log) {
  std::shared_ptr<CompiledNetwork> net(new CompiledNetwork());
  net->id_ = id;
  net->context_mutex_ = std::move(context_mutex);
  net->log_ = &log;
  net->network_ = std::move(network);
  auto& impl = *net->network_.GetImpl();
  graph::Graph& graph = impl.graph;

  auto state_of = [&](const BackendId& backend_id) -> BackendState& {
    for (auto& state : net->backends_) {
      if (state->id == backend_id) return *state;
    }
    const auto found = backends.find(backend_id);
    if (found == backends.end()) {
      throw Exception(ErrorCode::kNotFound, "backend " + backend_id.Get() + " is not registered in this runtime");
    }
    auto state = std::make_unique<BackendState>();
    state->id = backend_id;
    state->context = found->second.context;
    if (found->second.library) net->libraries_.push_back(found->second.library);
    try {
      state->instance = found->second.factory();
      state->memory_manager = state->instance->CreateMemoryManager();
      state->workload_factory = state->instance->CreateWorkloadFactory(state->memory_manager, state->context);
      if (!state->workload_factory) throw Exception(ErrorCode::kBackendFailure, "CreateWorkloadFactory returned null");
      state->instance->RegisterTensorHandleFactories(state->factories);
    } catch (...) {
      Rethrow("loading network " + std::to_string(id) + " on " + backend_id.Get());
    }
    net->backends_.push_back(std::move(state));
    return *net->backends_.back();
  };

  // Undo on failure: contexts that were told about the load hear of its unload.
  struct Rollback {
    CompiledNetwork* net;
    bool done = false;
    ~Rollback() {
      if (!done) net->Unload();
    }
  } rollback{net.get()};

  // Every backend first, so contexts hear BeforeLoad before any workload exists.
  for (LayerId layer_id : impl.order) {
    const auto& layer = graph.At(layer_id);
    if (layer.backend.IsEmpty()) continue;
    BackendState& state = state_of(layer.backend);
    if (state.context && !state.notified) {
      std::lock_guard<std::mutex> notify(*net->context_mutex_);
      if (!loading::CallPlugin(state.id, "BeforeLoadNetwork", "", [&] { return state.context->BeforeLoadNetwork(id); })) {
        const std::string reason = loading::TakeRefusalReason(state.context);
        throw Exception(ErrorCode::kBackendFailure, "backend " + state.id.Get() + " refused to load network " +
                                                        std::to_string(id) + (reason.empty() ? "" : ": " + reason));
      }
      state.notified = true;
    }
  }

  auto add_tensor = [&](TensorSlot slot) {
    net->tensors_.push_back(slot);
    return net->tensors_.size() - 1;
  };
  auto factory_of = [&](const BackendId& backend_id, const backend::FactoryId& factory) -> const backend::ITensorHandleFactory* {
    for (auto& state : net->backends_) {
      if (const auto* found = state->factories.Find(factory)) return found;
    }
    throw Exception(ErrorCode::kBackendFailure, "backend " + backend_id.Get() + " prefers tensor-handle factory " +
                                                    factory + " but no loaded backend registered it");
  };
  // A fresh tensor in `factory`'s memory: host tensors live in the arena.
  auto new_tensor = [&](const TensorInfo& info, const backend::FactoryId& factory, const BackendId& owner) {
    TensorSlot slot;
    slot.info = info;
    if (factory == backend::kHostFactoryId) {
      slot.kind = TensorSlot::Kind::kArena;
    } else {
      slot.kind = TensorSlot::Kind::kDevice;
      slot.factory = factory_of(owner, factory);
    }
    return add_tensor(slot);
  };

  std::map<std::pair<LayerId, std::uint32_t>, std::size_t> produced;
  std::map<std::tuple<std::size_t, backend::FactoryId, EdgeStrategy>, std::size_t> converted;
  std::vector<std::size_t> producer_step;  // per tensor: the step that writes it (or npos)
  auto note_producer = [&](std::size_t tensor, std::size_t step) {
    if (producer_step.size() <= tensor) producer_step.resize(tensor + 1, SIZE_MAX);
    producer_step[tensor] = step;
  };

  // The tensor `consumer` reads at input `index`, adding a copy or import step when needed.
  auto input_tensor = [&](const graph::Layer& consumer, std::size_t index, const BackendId& owner) {
    const OutputSlot source = *consumer.inputs[index];
    const std::size_t tensor = produced.at({source.layer, source.index});
    const EdgeStrategy strategy = consumer.input_strategies[index];
    if (strategy == EdgeStrategy::kDirect) return tensor;
    const auto key = std::make_tuple(tensor, consumer.input_factories[index], strategy);
    if (const auto it = converted.find(key); it != converted.end()) return it->second;
    std::size_t target;
    if (strategy == EdgeStrategy::kExportImport && consumer.input_factories[index] == backend::kHostFactoryId) {
      TensorSlot slot;
      slot.info = net->tensors_[tensor].info;
      slot.kind = TensorSlot::Kind::kArena;
      slot.offset = SIZE_MAX;  // imports memory: takes no arena space
      target = add_tensor(slot);
    } else {
      target = new_tensor(net->tensors_[tensor].info, consumer.input_factories[index], owner);
    }
    Step step;
    step.kind = strategy == EdgeStrategy::kCopy ? Step::Kind::kCopy : Step::Kind::kImport;
    step.inputs = {tensor};
    step.outputs = {target};
    step.layer = graph.At(source.layer).name + "->" + consumer.name;
    step.backend = owner;
    net->steps_.push_back(std::move(step));
    note_producer(target, net->steps_.size() - 1);
    converted[key] = target;
    return target;
  };

  for (LayerId input_id : impl.inputs) {
    const auto& layer = graph.At(input_id);
    TensorSlot slot;
    slot.info = layer.output_infos[0];
    slot.kind = TensorSlot::Kind::kInput;
    slot.binding = net->signature_.inputs.size();
    produced[{input_id, 0}] = add_tensor(slot);
    net->input_tensors_.push_back(produced[{input_id, 0}]);
    net->signature_.inputs.push_back({layer.name, slot.info});
  }

  for (LayerId layer_id : impl.order) {
    const auto& layer = graph.At(layer_id);
    if (layer.type == LayerType::kInput || layer.type == LayerType::kOutput) continue;
    if (layer.type == LayerType::kConstant) {
      const auto& constant = static_cast<const ConstantDescriptor&>(*layer.descriptor);
      TensorSlot slot;
      slot.info = constant.info;
      slot.kind = TensorSlot::Kind::kConstant;
      slot.constant = constant.data->data();
      produced[{layer_id, 0}] = add_tensor(slot);
      continue;
    }
    BackendState& state = state_of(layer.backend);
    Step step;
    step.layer = layer.name;
    step.backend = layer.backend;
    for (std::size_t i = 0; i < layer.inputs.size(); ++i) step.inputs.push_back(input_tensor(layer, i, layer.backend));
    for (std::uint32_t o = 0; o < layer.num_outputs; ++o) {
      const std::size_t tensor = new_tensor(layer.output_infos[o], layer.output_factories[o], layer.backend);
      produced[{layer_id, o}] = tensor;
      step.outputs.push_back(tensor);
    }
    try {
      step.workload = state.workload_factory->CreateWorkload(layer);
      if (!step.workload) throw Exception(ErrorCode::kBackendFailure, "CreateWorkload returned null");
      net->scratch_size_ = std::max(net->scratch_size_, step.workload->GetScratchSize());
    } catch (...) {
      Rethrow("backend " + layer.backend.Get() + " cannot create the workload of layer " + layer.Describe());
    }
    net->steps_.push_back(std::move(step));
    for (std::size_t tensor : net->steps_.back().outputs) note_producer(tensor, net->steps_.size() - 1);
  }

  // Outputs: written in place when the tensor is a plain arena tensor that a step writes and
  // no other binding claims; otherwise copied into the user's buffer at the end of the run.
  for (LayerId output_id : impl.outputs) {
    const auto& layer = graph.At(output_id);
    std::size_t tensor = input_tensor(layer, 0, BackendId());
    TensorSlot& slot = net->tensors_[tensor];
    const std::size_t binding = net->signature_.outputs.size();
    net->signature_.outputs.push_back({layer.name, slot.info});
    const bool in_place = slot.kind == TensorSlot::Kind::kArena && slot.offset != SIZE_MAX &&
                          tensor < producer_step.size() && producer_step[tensor] != SIZE_MAX;
    if (in_place) {
      slot.kind = TensorSlot::Kind::kOutput;
      slot.binding = binding;
      net->output_tensors_.push_back(tensor);
      continue;
    }
    TensorSlot out;
    out.info = slot.info;
    out.kind = TensorSlot::Kind::kOutput;
    out.binding = binding;
    const std::size_t target = add_tensor(out);
    Step copy;
    copy.kind = Step::Kind::kCopy;
    copy.inputs = {tensor};
    copy.outputs = {target};
    copy.layer = "output '" + layer.name + "'";
    net->steps_.push_back(std::move(copy));
    net->output_tensors_.push_back(target);
  }

  // Arena tensors: plan by lifetime over the steps.
  std::vector<TensorLifetime> lifetimes;
  std::vector<std::size_t> planned;
  for (std::size_t t = 0; t < net->tensors_.size(); ++t) {
    const TensorSlot& slot = net->tensors_[t];
    if (slot.kind != TensorSlot::Kind::kArena || slot.offset == SIZE_MAX) continue;
    TensorLifetime lifetime;
    lifetime.size = slot.info.NumBytes();
    lifetime.first = t < producer_step.size() && producer_step[t] != SIZE_MAX ? producer_step[t] : 0;
    lifetime.last = lifetime.first;
    for (std::size_t s = 0; s < net->steps_.size(); ++s) {
      const auto& inputs = net->steps_[s].inputs;
      if (std::find(inputs.begin(), inputs.end(), t) != inputs.end()) lifetime.last = std::max(lifetime.last, s);
    }
    lifetimes.push_back(lifetime);
    planned.push_back(t);
  }
  const MemoryPlan plan = PlanMemory(lifetimes);
  for (std::size_t i = 0; i < planned.size(); ++i) net->tensors_[planned[i]].offset = plan.offsets[i];
  net->arena_size_ = plan.arena_size;

  for (auto& state : net->backends_) {
    try {
      if (state->memory_manager) state->memory_manager->Acquire();
      state->acquired = true;
      std::lock_guard<std::mutex> notify(*net->context_mutex_);
      if (state->context && !state->context->AfterLoadNetwork(id)) {
        const std::string reason = loading::TakeRefusalReason(state->context);
        throw Exception(ErrorCode::kBackendFailure,
                        "AfterLoadNetwork returned false" + (reason.empty() ? "" : ": " + reason));
      }
    } catch (...) {
      Rethrow("backend " + state->id.Get() + " failed loading network " + std::to_string(id));
    }
  }
  rollback.done = true;
  Log(log, LogLevel::kInfo, LogCategory::kExecute,
      "loaded network " + std::to_string(id) + ": " + std::to_string(net->steps_.size()) + " steps, arena " +
          std::to_string(net->arena_size_) + " bytes, scratch " + std::to_string(net->scratch_size_) + " bytes");
  return net;
}

void CompiledNetwork::Unload() {
  closing_.store(true, std::memory_order_release);
  std::unique_lock<std::shared_mutex> lock(lifetime_);
  if (unloaded_) return;
  unloaded_ = true;
  std::lock_guard<std::mutex> notify(*context_mutex_);
  for (auto& state : backends_) {
    if (state->notified && state->context) {
      CallWhileUnloading(log_, state->id, "BeforeUnloadNetwork", [&] { state->context->BeforeUnloadNetwork(id_); });
    }
  }
  for (auto& step : steps_) step.workload.reset();
  for (auto& state : backends_) {
    if (state->acquired) {
      if (state->memory_manager) {
        CallWhileUnloading(log_, state->id, "IMemoryManager::Release", [&] { state->memory_manager->Release(); });
      }
      state->acquired = false;
    }
    state->workload_factory.reset();
  }
  for (auto& state : backends_) {
    if (state->notified && state->context) {
      CallWhileUnloading(log_, state->id, "AfterUnloadNetwork", [&] { state->context->AfterUnloadNetwork(id_); });
    }
    state->notified = false;
  }
  if (log_) Log(*log_, LogLevel::kInfo, LogCategory::kExecute, "unloaded network " + std::to_string(id_));
}

CompiledNetwork::~CompiledNetwork() {
  Unload();
  // Objects from the backends go before the libraries (member order).
  for (auto& state : backends_) state.reset();
}

}  // namespace backplane::execution
