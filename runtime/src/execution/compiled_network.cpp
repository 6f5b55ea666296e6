#include "execution/compiled_network.hpp"

#include "execution/memory_plan.hpp"
#include "graph/layer_flops.hpp"
#include "loading/c_backend.hpp"
#include "loading/plugin_call.hpp"
#include "log.hpp"

#include <backplane/exception.hpp>

#include <algorithm>
#include <chrono>
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

CompiledNetwork::BackendState& CompiledNetwork::BackendFor(const BackendId& backend_id,
                                                           const std::map<BackendId, LoadBackend>& backends) {
  for (auto& state : backends_) {
    if (state->id == backend_id) return *state;
  }
  const auto found = backends.find(backend_id);
  if (found == backends.end()) {
    throw Exception(ErrorCode::kNotFound, "backend " + backend_id.Get() + " is not registered in this runtime");
  }
  auto state = std::make_unique<BackendState>();
  state->id = backend_id;
  state->context = found->second.context;
  if (found->second.library) libraries_.push_back(found->second.library);
  try {
    state->instance = found->second.factory();
    state->memory_manager = state->instance->CreateMemoryManager();
    state->workload_factory = state->instance->CreateWorkloadFactory(state->memory_manager, state->context);
    if (!state->workload_factory) throw Exception(ErrorCode::kBackendFailure, "CreateWorkloadFactory returned null");
    state->instance->RegisterTensorHandleFactories(state->factories);
  } catch (...) {
    Rethrow("loading network " + std::to_string(id_) + " on " + backend_id.Get());
  }
  backends_.push_back(std::move(state));
  return *backends_.back();
}

void CompiledNetwork::NotifyBeforeLoad(const OptimizedNetwork::Impl& network,
                                       const std::map<BackendId, LoadBackend>& backends) {
  for (LayerId layer_id : network.order) {
    const auto& layer = network.graph.At(layer_id);
    if (layer.backend.IsEmpty()) continue;
    BackendState& state = BackendFor(layer.backend, backends);
    if (state.context && !state.notified) {
      std::lock_guard<std::mutex> notify(*context_mutex_);
      if (!loading::CallPlugin(state.id, "BeforeLoadNetwork", "", [&] { return state.context->BeforeLoadNetwork(id_); })) {
        const std::string reason = loading::TakeRefusalReason(state.context);
        throw Exception(ErrorCode::kBackendFailure, "backend " + state.id.Get() + " refused to load network " +
                                                        std::to_string(id_) + (reason.empty() ? "" : ": " + reason));
      }
      state.notified = true;
    }
  }
}

// Load's step job: fills the network's tensors_, steps_, signature_, input_tensors_,
// output_tensors_ and scratch_size_ from the placed graph, creating each layer's workload
// with its backend's factory and a copy or import step wherever an edge's strategy needs one.
// Lives only for one Load. Throws Exception naming the backend and layer when a workload
// cannot be created, kBackendFailure when a preferred tensor-handle factory was not registered.
class CompiledNetwork::StepBuilder {
 public:
  StepBuilder(CompiledNetwork& net, const OptimizedNetwork::Impl& network,
              const std::map<BackendId, LoadBackend>& backends)
      : net_(net), network_(network), graph_(network.graph), backends_(backends) {}

  // Inputs, then one workload step per layer in order, then the outputs. Returns per tensor
  // the step that writes it, or SIZE_MAX (for PlanArena).
  std::vector<std::size_t> Build() {
    // One step and at least one tensor per layer: sized once (growing doubles them, and the
    // extra capacity stays for the network's life).
    net_.steps_.reserve(network_.order.size() + network_.outputs.size());
    net_.tensors_.reserve(network_.order.size() + network_.outputs.size());
    AddInputs();
    AddWorkloads();
    AddOutputs();
    return std::move(producer_step_);
  }

 private:
  std::size_t AddTensor(const TensorSlot& slot) {
    net_.tensors_.push_back(slot);
    return net_.tensors_.size() - 1;
  }

  const backend::ITensorHandleFactory* FactoryOf(const BackendId& backend_id, const backend::FactoryId& factory) const {
    for (auto& state : net_.backends_) {
      if (const auto* found = state->factories.Find(factory)) return found;
    }
    throw Exception(ErrorCode::kBackendFailure, "backend " + backend_id.Get() + " prefers tensor-handle factory " +
                                                    factory + " but no loaded backend registered it");
  }

  // A fresh tensor in `factory`'s memory: host tensors live in the arena.
  std::size_t NewTensor(const TensorInfo& info, const backend::FactoryId& factory, const BackendId& owner) {
    TensorSlot slot;
    slot.info = info;
    if (factory == backend::kHostFactoryId) {
      slot.kind = TensorSlot::Kind::kArena;
    } else {
      slot.kind = TensorSlot::Kind::kDevice;
      slot.factory = FactoryOf(owner, factory);
    }
    return AddTensor(slot);
  }

  void NoteProducer(std::size_t tensor, std::size_t step) {
    if (producer_step_.size() <= tensor) producer_step_.resize(tensor + 1, SIZE_MAX);
    producer_step_[tensor] = step;
  }

  // The tensor `consumer` reads at input `index`, adding a copy or import step when needed.
  std::size_t InputTensor(const graph::Layer& consumer, std::size_t index, const BackendId& owner) {
    const OutputSlot source = *consumer.inputs[index];
    const std::size_t tensor = produced_.at({source.layer, source.index});
    const EdgeStrategy strategy = consumer.input_strategies[index];
    if (strategy == EdgeStrategy::kDirect) return tensor;
    const auto key = std::make_tuple(tensor, consumer.input_factories[index], strategy);
    if (const auto it = converted_.find(key); it != converted_.end()) return it->second;
    std::size_t target;
    if (strategy == EdgeStrategy::kExportImport && consumer.input_factories[index] == backend::kHostFactoryId) {
      TensorSlot slot;
      slot.info = net_.tensors_[tensor].info;
      slot.kind = TensorSlot::Kind::kArena;
      slot.offset = SIZE_MAX;  // imports memory: takes no arena space
      target = AddTensor(slot);
    } else {
      target = NewTensor(net_.tensors_[tensor].info, consumer.input_factories[index], owner);
    }
    Step step;
    step.kind = strategy == EdgeStrategy::kCopy ? Step::Kind::kCopy : Step::Kind::kImport;
    step.inputs = {tensor};
    step.outputs = {target};
    step.layer = graph_.At(source.layer).name + "->" + consumer.name;
    step.backend = owner;
    step.op = step.kind == Step::Kind::kCopy ? "Copy" : "Import";
    net_.steps_.push_back(std::move(step));
    NoteProducer(target, net_.steps_.size() - 1);
    converted_[key] = target;
    return target;
  }

  void AddInputs() {
    for (LayerId input_id : network_.inputs) {
      const auto& layer = graph_.At(input_id);
      TensorSlot slot;
      slot.info = layer.output_infos[0];
      slot.kind = TensorSlot::Kind::kInput;
      slot.binding = net_.signature_.inputs.size();
      produced_[{input_id, 0}] = AddTensor(slot);
      net_.input_tensors_.push_back(produced_[{input_id, 0}]);
      net_.signature_.inputs.push_back({layer.name, slot.info});
    }
  }

  // Constants become read-only tensors; every other layer a workload step.
  void AddWorkloads() {
    for (LayerId layer_id : network_.order) {
      const auto& layer = graph_.At(layer_id);
      if (layer.type == LayerType::kInput || layer.type == LayerType::kOutput) continue;
      if (layer.type == LayerType::kConstant) {
        const auto& constant = static_cast<const ConstantDescriptor&>(*layer.descriptor);
        TensorSlot slot;
        slot.info = constant.info;
        slot.kind = TensorSlot::Kind::kConstant;
        slot.constant = constant.data->data();
        produced_[{layer_id, 0}] = AddTensor(slot);
        continue;
      }
      BackendState& state = net_.BackendFor(layer.backend, backends_);
      Step step;
      step.layer = layer.name;
      step.backend = layer.backend;
      step.op = backend::ToString(layer.type);
      step.flops = graph::LayerFlops(layer);
      for (std::size_t i = 0; i < layer.inputs.size(); ++i) step.inputs.push_back(InputTensor(layer, i, layer.backend));
      for (std::uint32_t o = 0; o < layer.num_outputs; ++o) {
        const std::size_t tensor = NewTensor(layer.output_infos[o], layer.output_factories[o], layer.backend);
        produced_[{layer_id, o}] = tensor;
        step.outputs.push_back(tensor);
      }
      try {
        const auto start = std::chrono::steady_clock::now();
        step.workload = state.workload_factory->CreateWorkload(layer);
        step.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!step.workload) throw Exception(ErrorCode::kBackendFailure, "CreateWorkload returned null");
        net_.scratch_size_ = std::max(net_.scratch_size_, step.workload->GetScratchSize());
        step.info = step.workload->GetInfo();
      } catch (...) {
        Rethrow("backend " + layer.backend.Get() + " cannot create the workload of layer " + layer.Describe());
      }
      net_.steps_.push_back(std::move(step));
      for (std::size_t tensor : net_.steps_.back().outputs) NoteProducer(tensor, net_.steps_.size() - 1);
    }
  }

  // Outputs: written in place when the tensor is a plain arena tensor that a step writes and
  // no other binding claims; otherwise copied into the user's buffer at the end of the run.
  void AddOutputs() {
    for (LayerId output_id : network_.outputs) {
      const auto& layer = graph_.At(output_id);
      std::size_t tensor = InputTensor(layer, 0, BackendId());
      TensorSlot& slot = net_.tensors_[tensor];
      const std::size_t binding = net_.signature_.outputs.size();
      net_.signature_.outputs.push_back({layer.name, slot.info});
      const bool in_place = slot.kind == TensorSlot::Kind::kArena && slot.offset != SIZE_MAX &&
                            tensor < producer_step_.size() && producer_step_[tensor] != SIZE_MAX;
      if (in_place) {
        slot.kind = TensorSlot::Kind::kOutput;
        slot.binding = binding;
        net_.output_tensors_.push_back(tensor);
        continue;
      }
      TensorSlot out;
      out.info = slot.info;
      out.kind = TensorSlot::Kind::kOutput;
      out.binding = binding;
      const std::size_t target = AddTensor(out);
      Step copy;
      copy.kind = Step::Kind::kCopy;
      copy.inputs = {tensor};
      copy.outputs = {target};
      copy.layer = "output '" + layer.name + "'";
      copy.op = "Copy";
      net_.steps_.push_back(std::move(copy));
      net_.output_tensors_.push_back(target);
    }
  }

  CompiledNetwork& net_;
  const OptimizedNetwork::Impl& network_;
  const graph::Graph& graph_;
  const std::map<BackendId, LoadBackend>& backends_;
  std::map<std::pair<LayerId, std::uint32_t>, std::size_t> produced_;  // (layer, output) -> tensor
  std::map<std::tuple<std::size_t, backend::FactoryId, EdgeStrategy>, std::size_t> converted_;
  std::vector<std::size_t> producer_step_;  // per tensor: the step that writes it (or SIZE_MAX)
};

void CompiledNetwork::PlanArena(const std::vector<std::size_t>& producer_step) {
  // Per tensor: the last step that reads it (0 when none), in one pass over the steps.
  std::vector<std::size_t> last_read(tensors_.size(), 0);
  for (std::size_t s = 0; s < steps_.size(); ++s) {
    for (std::size_t t : steps_[s].inputs) last_read[t] = s;
  }
  std::vector<TensorLifetime> lifetimes;
  std::vector<std::size_t> planned;
  for (std::size_t t = 0; t < tensors_.size(); ++t) {
    const TensorSlot& slot = tensors_[t];
    if (slot.kind != TensorSlot::Kind::kArena || slot.offset == SIZE_MAX) continue;
    TensorLifetime lifetime;
    lifetime.size = slot.info.NumBytes();
    lifetime.first = t < producer_step.size() && producer_step[t] != SIZE_MAX ? producer_step[t] : 0;
    lifetime.last = std::max(lifetime.first, last_read[t]);
    lifetimes.push_back(lifetime);
    planned.push_back(t);
  }
  const MemoryPlan plan = PlanMemory(lifetimes);
  for (std::size_t i = 0; i < planned.size(); ++i) tensors_[planned[i]].offset = plan.offsets[i];
  arena_size_ = plan.arena_size;
}

void CompiledNetwork::AcquireMemoryAndNotifyAfterLoad() {
  for (auto& state : backends_) {
    try {
      if (state->memory_manager) state->memory_manager->Acquire();
      state->acquired = true;
      std::lock_guard<std::mutex> notify(*context_mutex_);
      if (state->context && !state->context->AfterLoadNetwork(id_)) {
        const std::string reason = loading::TakeRefusalReason(state->context);
        throw Exception(ErrorCode::kBackendFailure,
                        "AfterLoadNetwork returned false" + (reason.empty() ? "" : ": " + reason));
      }
    } catch (...) {
      Rethrow("backend " + state->id.Get() + " failed loading network " + std::to_string(id_));
    }
  }
}

std::shared_ptr<CompiledNetwork> CompiledNetwork::Load(NetworkId id, std::unique_ptr<OptimizedNetwork::Impl> network,
                                                       const std::map<BackendId, LoadBackend>& backends,
                                                       std::shared_ptr<std::mutex> context_mutex,
                                                       ILogSink& log) {
  std::shared_ptr<CompiledNetwork> net(new CompiledNetwork());
  net->id_ = id;
  net->context_mutex_ = std::move(context_mutex);
  net->log_ = &log;
  net->network_ = std::move(network);
  const OptimizedNetwork::Impl& impl = *net->network_;

  // Undo on failure: contexts that were told about the load hear of its unload, managers that
  // were acquired are released, workloads and backends go.
  struct Rollback {
    CompiledNetwork* net;
    bool done = false;
    ~Rollback() {
      if (!done) net->Unload();
    }
  } rollback{net.get()};

  net->NotifyBeforeLoad(impl, backends);
  const std::vector<std::size_t> producer_step = StepBuilder(*net, impl, backends).Build();
  net->PlanArena(producer_step);
  net->AcquireMemoryAndNotifyAfterLoad();
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
