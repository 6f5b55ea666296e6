#include "graph/optimizer.hpp"

#include "graph/composite_ops.hpp"
#include "graph/host_tensor.hpp"
#include "graph/layer_flops.hpp"
#include "graph/passes.hpp"
#include "loading/plugin_call.hpp"
#include "log.hpp"

#include <backplane/exception.hpp>

#include <algorithm>
#include <set>
#include <sstream>

namespace backplane::graph {

namespace {

// Collects a backend's factories during optimization (they are not kept).
class FactoryCollector final : public backend::ITensorHandleFactoryRegistry {
 public:
  explicit FactoryCollector(std::map<backend::FactoryId, backend::TensorHandleFactoryProperties>& out)
      : out_(out) {}
  void RegisterFactory(std::unique_ptr<backend::ITensorHandleFactory> factory) override {
    if (!factory) throw Exception(ErrorCode::kInvalidArgument, "a backend registered a null tensor-handle factory");
    out_[factory->GetId()] = factory->GetProperties();
  }

 private:
  std::map<backend::FactoryId, backend::TensorHandleFactoryProperties>& out_;
};

bool NeedsNoBackend(LayerType type) {
  return type == LayerType::kInput || type == LayerType::kOutput || type == LayerType::kConstant;
}

PlacementBackend* FindBackend(std::vector<PlacementBackend>& backends, const BackendId& id) {
  for (auto& backend : backends) {
    if (backend.id == id) return &backend;
  }
  return nullptr;
}

// Asks `backend` about `layer`; false with the reason when it cannot take it. A layer support
// that throws (anything) does not take the layer: logged as a warning, and the reason says so.
bool Accepts(const PlacementBackend& backend, const Layer& layer, std::string& reason, ILogSink& log) {
  if (!backend.available) {
    reason = "unavailable: " + backend.unavailable_reason;
    return false;
  }
  try {
    if (loading::CallPlugin(backend.id, "IsLayerSupported", layer.name,
                            [&] { return backend.support->IsLayerSupported(layer, &reason); })) {
      return true;
    }
    if (reason.empty()) reason = "not supported (no reason given)";
  } catch (const Exception& error) {
    reason = error.what();
    Log(log, LogLevel::kWarning, LogCategory::kOptimize, reason + "; the layer is not placed on " + backend.id.Get());
  }
  return false;
}

// The backends `layer` may go to, in order, given pins and strict mode.
std::vector<BackendId> Candidates(const Layer& layer, const OptimizeOptions& options,
                                  const std::vector<PlacementBackend>& backends) {
  const auto pin = options.pins.find(layer.name);
  if (pin != options.pins.end()) return {pin->second};
  if (!layer.pin.IsEmpty()) return {layer.pin};
  std::vector<BackendId> ids;
  for (const auto& backend : backends) {
    ids.push_back(backend.id);
    if (options.strict) break;
  }
  return ids;
}

// Places every layer that needs a backend on its first candidate that accepts it; layers in
// `skip` (by backend) exclude that backend. Throws listing every layer that fits nowhere.
void PlaceLayers(Graph& graph, const std::vector<LayerId>& order, const OptimizeOptions& options,
                 std::vector<PlacementBackend>& backends,
                 const std::map<LayerId, std::set<BackendId>>& excluded, ILogSink& log) {
  std::vector<std::string> failures;
  for (LayerId id : order) {
    Layer& layer = graph.At(id);
    if (NeedsNoBackend(layer.type)) continue;
    if (layer.type == LayerType::kPreCompiled) continue;  // stays with the backend that made it
    const auto candidates = Candidates(layer, options, backends);
    const bool pinned = options.pins.count(layer.name) || !layer.pin.IsEmpty();
    std::string reasons;
    layer.backend = BackendId();
    for (const auto& id_candidate : candidates) {
      const auto skip = excluded.find(id);
      if (skip != excluded.end() && skip->second.count(id_candidate)) continue;
      PlacementBackend* backend = FindBackend(backends, id_candidate);
      std::string reason;
      if (!backend) {
        reason = "not a registered backend";
      } else if (Accepts(*backend, layer, reason, log)) {
        layer.backend = id_candidate;
        layer.placement_reason = pinned ? "pinned to " + id_candidate.Get()
                                 : reasons.empty() ? "first preferred backend that supports it"
                                                   : reasons + "; placed on " + id_candidate.Get();
        break;
      }
      reasons += (reasons.empty() ? "" : "; ") + id_candidate.Get() + ": " + reason;
    }
    if (layer.backend.IsEmpty()) {
      std::string why = pinned ? "pinned, and " + reasons
                        : options.strict ? "strict mode allows only " + candidates.front().Get() + ", and " + reasons
                                         : reasons;
      if (candidates.empty()) why = "no backend to place it on";
      failures.push_back("  " + layer.Describe() + ": " + why);
    }
  }
  if (!failures.empty()) {
    std::string message = std::to_string(failures.size()) + " layer" + (failures.size() == 1 ? "" : "s") +
                          " cannot be placed on any allowed backend:";
    for (const auto& failure : failures) message += "\n" + failure;
    throw Exception(ErrorCode::kUnsupported, message);
  }
}

// Groups the layers placed on `backend` into connected subgraphs (topological order inside).
std::vector<std::vector<LayerId>> Subgraphs(const Graph& graph, const std::vector<LayerId>& order,
                                            const BackendId& backend) {
  std::map<LayerId, LayerId> parent;  // union-find over layer ids
  std::function<LayerId(LayerId)> root = [&](LayerId id) {
    while (parent[id] != id) id = parent[id] = parent[parent[id]];
    return id;
  };
  for (LayerId id : order) {
    if (graph.At(id).backend == backend) parent[id] = id;
  }
  for (const auto& [id, unused] : parent) {
    for (const auto& input : graph.At(id).inputs) {
      if (parent.count(input->layer)) parent[root(id)] = root(input->layer);
    }
  }
  std::map<LayerId, std::vector<LayerId>> groups;
  for (LayerId id : order) {
    if (parent.count(id)) groups[root(id)].push_back(id);
  }
  std::vector<std::vector<LayerId>> result;
  for (auto& [unused, layers] : groups) result.push_back(std::move(layers));
  return result;
}

// Live consumers of each output, as Graph::Consumers() returns them: kept up to date by
// Substitute, so a backend's many small substitutions cost what they touch, not the graph each.
using ConsumerTable = std::vector<std::vector<std::vector<InputSlot>>>;

// Replaces the layers of `substitution` by one PreCompiled layer of `backend`. Inputs of the
// new layer: every tensor entering the set from outside, in order of first use; outputs: every
// tensor of the set used outside it, in topological order (documented in optimization.hpp).
// `ordered`: the members as the substitution lists them (layer ids, not views: adding the
// fused layer moves the graph's layers). `consumers` (the graph's, as on entry) is updated for
// the new layer and the producers of what enters it. Work in proportion to the members' edges.
void Substitute(Graph& graph, ConsumerTable& consumers, const std::vector<LayerId>& ordered,
                const backend::Substitution& substitution, const BackendId& backend, std::vector<std::string>& log) {
  const std::set<LayerId> members(ordered.begin(), ordered.end());
  Layer fused;
  fused.type = LayerType::kPreCompiled;
  fused.descriptor = substitution.descriptor;
  fused.backend = backend;
  fused.num_outputs = 0;
  std::vector<OutputSlot> entering;
  std::vector<OutputSlot> leaving;
  for (LayerId id : ordered) {
    const Layer& layer = graph.At(id);
    for (const auto& input : layer.inputs) {
      const bool outside = !members.count(input->layer);
      const bool seen = std::any_of(entering.begin(), entering.end(), [&](const OutputSlot& s) {
        return s.layer == input->layer && s.index == input->index;
      });
      if (outside && !seen) entering.push_back(*input);
    }
    for (std::uint32_t o = 0; o < layer.num_outputs; ++o) {
      const auto& uses = consumers[id][o];
      if (std::any_of(uses.begin(), uses.end(), [&](const InputSlot& use) { return !members.count(use.layer); })) {
        leaving.push_back({id, o});
      }
    }
  }
  for (LayerId id : ordered) fused.fused_flops += LayerFlops(graph.At(id));
  for (const auto& slot : entering) fused.inputs.emplace_back(slot);
  for (const auto& slot : leaving) fused.output_infos.push_back(graph.At(slot.layer).output_infos[slot.index]);
  fused.num_outputs = static_cast<std::uint32_t>(leaving.size());
  fused.name = substitution.name;
  while (fused.name.empty() || graph.HasName(fused.name)) fused.name += fused.name.empty() ? "fused" : "'";
  std::string names;
  for (LayerId id : ordered) names += (names.empty() ? "" : ", ") + graph.At(id).name;
  fused.placement_reason = "fused from " + names + " by " + backend.Get();
  const LayerId fused_id = graph.Add(std::move(fused));
  consumers.resize(graph.Size());
  auto& fused_uses = consumers[fused_id];
  for (std::size_t o = 0; o < leaving.size(); ++o) {
    fused_uses.emplace_back();
    for (const auto& use : consumers[leaving[o].layer][leaving[o].index]) {
      if (members.count(use.layer)) continue;
      graph.At(use.layer).inputs[use.index] = OutputSlot{fused_id, static_cast<std::uint32_t>(o)};
      fused_uses.back().push_back(use);
    }
  }
  for (std::size_t k = 0; k < entering.size(); ++k) {
    auto& uses = consumers[entering[k].layer][entering[k].index];
    uses.erase(std::remove_if(uses.begin(), uses.end(), [&](const InputSlot& use) { return members.count(use.layer) != 0; }),
               uses.end());
    uses.push_back({fused_id, static_cast<std::uint32_t>(k)});
  }
  for (LayerId id : members) graph.At(id).removed = true;
  log.push_back(backend.Get() + " fused " + names + " into '" + graph.At(fused_id).name + "'");
}

// One backend's substitutions, as layer ids, with what the backend returned.
struct PendingSubstitution {
  std::vector<LayerId> members;
  backend::Substitution substitution;
};

// The graph with each pending substitution's layers taken as one node, for CheckConvex: node n
// is layer n below graph.Size(), else substitution n - graph.Size().
class ContractedGraph {
 public:
  ContractedGraph(const Graph& graph, const ConsumerTable& consumers, const std::vector<PendingSubstitution>& pending)
      : graph_(graph), consumers_(consumers), pending_(pending), node_(graph.Size()) {
    for (std::size_t id = 0; id < node_.size(); ++id) node_[id] = id;
    for (std::size_t i = 0; i < pending.size(); ++i) {
      for (LayerId id : pending[i].members) node_[id] = graph.Size() + i;
    }
  }
  std::size_t Nodes() const { return graph_.Size() + pending_.size(); }
  std::size_t NodeOf(LayerId id) const { return node_[id]; }
  // Calls f(layer of n, consumer slot) for each use of n's outputs outside n.
  template <typename F>
  void ForEachUse(std::size_t n, F&& f) const {
    auto uses_of = [&](LayerId id) {
      for (const auto& uses : consumers_[id]) {
        for (const auto& use : uses) {
          if (node_[use.layer] != n) f(id, use);
        }
      }
    };
    if (n < graph_.Size()) return uses_of(n);
    for (LayerId id : pending_[n - graph_.Size()].members) uses_of(id);
  }
  // Calls f(producing layer, reading layer of n) for each input of n from outside n.
  template <typename F>
  void ForEachInput(std::size_t n, F&& f) const {
    auto inputs_of = [&](LayerId id) {
      for (const auto& input : graph_.At(id).inputs) {
        if (node_[input->layer] != n) f(input->layer, id);
      }
    };
    if (n < graph_.Size()) return inputs_of(n);
    for (LayerId id : pending_[n - graph_.Size()].members) inputs_of(id);
  }

 private:
  const Graph& graph_;
  const ConsumerTable& consumers_;
  const std::vector<PendingSubstitution>& pending_;
  std::vector<std::size_t> node_;
};

// Throws CheckConvex's error for a cycle among the nodes not `taken`, found by walking back
// from `start` (not taken) through producers not taken: every such node has one.
[[noreturn]] void ThrowCycle(const Graph& graph, const ContractedGraph& contracted, const std::vector<char>& taken,
                             std::size_t start, const std::vector<PendingSubstitution>& pending,
                             const BackendId& backend) {
  std::vector<std::size_t> walked{start};  // walked[k + 1] feeds walked[k] ...
  std::vector<LayerId> reader;              // ... through reader[k], a layer of walked[k]
  std::vector<std::size_t> step_of(contracted.Nodes(), SIZE_MAX);
  step_of[start] = 0;
  while (walked.size() <= contracted.Nodes()) {
    std::size_t from = SIZE_MAX;
    LayerId through = 0;
    contracted.ForEachInput(walked.back(), [&](LayerId producer, LayerId layer) {
      if (from == SIZE_MAX && !taken[contracted.NodeOf(producer)]) {
        from = contracted.NodeOf(producer);
        through = layer;
      }
    });
    if (from == SIZE_MAX) break;
    reader.push_back(through);
    if (step_of[from] != SIZE_MAX) {
      // The cycle: walked[step_of[from]] ... walked.back(), each fed by the next, the last by
      // the first. A substitution on it leaves by the layer of the node it feeds.
      const std::size_t first = step_of[from];
      for (std::size_t k = first; k < walked.size(); ++k) {
        if (walked[k] < graph.Size()) continue;
        const LayerId exit = k == first ? reader.back() : reader[k - 1];
        throw Exception(ErrorCode::kBackendFailure,
                        "backend " + backend.Get() + ": optimize_subgraph returned substitution '" +
                            pending[walked[k] - graph.Size()].substitution.name +
                            "' whose layers are connected through layer '" + graph.At(exit).name +
                            "' outside it (the fused layer would feed itself); a substitution must take such a "
                            "layer too or leave the layers on either side of it apart");
      }
      break;
    }
    step_of[from] = walked.size();
    walked.push_back(from);
  }
  // Not reached for an acyclic graph (every cycle passes a substitution).
  throw Exception(ErrorCode::kBackendFailure, "backend " + backend.Get() + ": optimize_subgraph returned substitution '" +
                                                  pending[start - graph.Size()].substitution.name +
                                                  "' that makes the graph cyclic");
}

// Refuses substitutions whose layers are connected through a layer outside them (a -> b -> c
// with a and c replaced, b not): the fused layer would both feed and read b, a cycle. Checked
// once for all of a backend's substitutions together, on the graph before any is applied, with
// each substitution's layers taken as one node (so a cycle through two fused layers is refused
// too): a topological sort of that graph, linear in the graph. `order`: the live layers. Throws
// Exception (kBackendFailure) naming the backend, a substitution on a cycle and the layer it
// leaves by.
void CheckConvex(const Graph& graph, const ConsumerTable& consumers, const std::vector<LayerId>& order,
                 const std::vector<PendingSubstitution>& pending, const BackendId& backend) {
  const ContractedGraph contracted(graph, consumers, pending);
  std::vector<std::size_t> waiting(contracted.Nodes(), 0);  // per node: edges into it not yet taken
  for (LayerId id : order) {
    for (const auto& uses : consumers[id]) {
      for (const auto& use : uses) {
        const std::size_t to = contracted.NodeOf(use.layer);
        if (to != contracted.NodeOf(id)) ++waiting[to];
      }
    }
  }
  std::vector<char> taken(contracted.Nodes(), 0);
  std::vector<std::size_t> ready;
  for (LayerId id : order) {
    const std::size_t n = contracted.NodeOf(id);
    if (waiting[n] == 0 && !taken[n]) {
      taken[n] = 1;
      ready.push_back(n);
    }
  }
  while (!ready.empty()) {
    const std::size_t n = ready.back();
    ready.pop_back();
    contracted.ForEachUse(n, [&](LayerId, const InputSlot& use) {
      const std::size_t to = contracted.NodeOf(use.layer);
      if (--waiting[to] == 0) {
        taken[to] = 1;
        ready.push_back(to);
      }
    });
  }
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (!taken[graph.Size() + i]) ThrowCycle(graph, contracted, taken, graph.Size() + i, pending, backend);
  }
}

// Offers each backend its subgraphs (spec 001 OptimizeSubgraph): applies substitutions,
// re-places failed parts on the next allowed backend, keeps untouched parts.
void OptimizeSubgraphs(Graph& graph, const OptimizeOptions& options, std::vector<PlacementBackend>& backends,
                       std::vector<std::string>& log, ILogSink& sink) {
  std::map<LayerId, std::set<BackendId>> excluded;
  for (std::size_t round = 0; round < backends.size(); ++round) {
    bool replaced_any = false;
    for (auto& backend : backends) {
      if (!backend.available) continue;
      const auto order = graph.Resolve();
      // Offered every group first, the graph unchanged (the views point into it), then checked
      // and substituted together.
      std::vector<PendingSubstitution> pending;
      for (const auto& group : Subgraphs(graph, order, backend.id)) {
        backend::SubgraphView view;
        for (LayerId id : group) {
          if (graph.At(id).type != LayerType::kPreCompiled) view.layers.push_back(&graph.At(id));
        }
        if (view.layers.empty()) continue;
        backend::OptimizationViews result = loading::CallPlugin(
            backend.id, "OptimizeSubgraph", "", [&] { return backend.instance->OptimizeSubgraph(view); });
        for (const auto& failed : result.failed) {
          for (const auto* layer : failed.layers) {
            excluded[static_cast<const Layer*>(layer)->id].insert(backend.id);
            replaced_any = true;
          }
        }
        // Views point into the graph, which each substitution grows: take ids first.
        for (auto& substitution : result.substitutions) {
          PendingSubstitution taken;
          std::set<LayerId> seen;
          for (const auto* layer : substitution.replaced.layers) {
            const LayerId id = static_cast<const Layer*>(layer)->id;
            if (seen.insert(id).second) taken.members.push_back(id);
          }
          taken.substitution = std::move(substitution);
          pending.push_back(std::move(taken));
        }
      }
      if (pending.empty()) continue;
      // The backend wrapper checked the lists (indices in range, no layer twice, names); what
      // only the graph can tell is checked here, for all of them at once, before anything
      // changes. Then each costs what it replaces (Substitute keeps `consumers` current).
      auto consumers = graph.Consumers();
      CheckConvex(graph, consumers, order, pending, backend.id);
      for (const auto& substitution : pending) {
        Substitute(graph, consumers, substitution.members, substitution.substitution, backend.id, log);
      }
    }
    if (!replaced_any) break;
    // Re-place what a backend gave back, excluding it for those layers.
    const auto order = graph.Resolve();
    std::vector<LayerId> again;
    for (const auto& [id, unused] : excluded) {
      if (!graph.At(id).removed && excluded[id].count(graph.At(id).backend)) again.push_back(id);
    }
    if (again.empty()) break;
    for (LayerId id : again) log.push_back("re-placing '" + graph.At(id).name + "': " + graph.At(id).backend.Get() + " gave it back");
    PlaceLayers(graph, again, options, backends, excluded, sink);
  }
}

const PlacementBackend* BackendOf(const std::vector<PlacementBackend>& backends, const Layer& layer) {
  for (const auto& backend : backends) {
    if (backend.id == layer.backend) return &backend;
  }
  return nullptr;
}

// Preferences of whatever runs `layer`: its backend's, or host memory for layers without one.
std::vector<backend::FactoryId> PreferencesOf(const std::vector<PlacementBackend>& backends, const Layer& layer) {
  const PlacementBackend* backend = BackendOf(backends, layer);
  return backend ? backend->preferences : std::vector<backend::FactoryId>{backend::kHostFactoryId};
}

backend::TensorHandleFactoryProperties PropertiesOf(const std::vector<PlacementBackend>& backends,
                                                    const backend::FactoryId& factory) {
  for (const auto& backend : backends) {
    const auto it = backend.factories.find(factory);
    if (it != backend.factories.end()) return it->second;
  }
  return HostFactoryProperties();
}

// Spec 002: every tensor lives in one factory's handles, chosen so that as many consumers as
// possible read it directly; the others import it (export/import) or get a copy.
void ChooseTensorStrategies(Graph& graph, const std::vector<LayerId>& order,
                            const std::vector<PlacementBackend>& backends, OptimizedNetwork::Impl& out) {
  const auto consumers = graph.Consumers();
  for (LayerId id : order) {
    Layer& layer = graph.At(id);
    layer.input_strategies.assign(layer.inputs.size(), EdgeStrategy::kDirect);
    layer.input_factories.assign(layer.inputs.size(), backend::kHostFactoryId);
  }
  for (LayerId id : order) {
    Layer& producer = graph.At(id);
    producer.output_factories.assign(producer.num_outputs, backend::kHostFactoryId);
    // Constants stay in host memory and are read directly, whatever the consumer prefers: a
    // workload takes its constant inputs at CreateWorkload (GetConstantInput) and uploads or
    // repacks them there, so a per-run copy to a device would only waste time.
    if (producer.type == LayerType::kConstant) {
      for (const auto& use : consumers[id][0]) {
        if (graph.At(use.layer).type == LayerType::kOutput) continue;
        out.edges.push_back({producer.name, graph.At(use.layer).name, EdgeStrategy::kDirect, backend::kHostFactoryId});
      }
      continue;
    }
    const auto produced = PreferencesOf(backends, producer);
    for (std::uint32_t o = 0; o < producer.num_outputs; ++o) {
      const auto& uses = consumers[id][o];
      // The producer's most preferred factory that the most consumers also list.
      backend::FactoryId best = produced.front();
      std::size_t best_count = 0;
      for (const auto& factory : produced) {
        std::size_t count = 0;
        for (const auto& use : uses) {
          const auto wanted = PreferencesOf(backends, graph.At(use.layer));
          count += std::count(wanted.begin(), wanted.end(), factory);
        }
        if (count > best_count) {
          best = factory;
          best_count = count;
        }
      }
      producer.output_factories[o] = best;
      const auto best_properties = PropertiesOf(backends, best);
      for (const auto& use : uses) {
        Layer& consumer = graph.At(use.layer);
        const auto wanted = PreferencesOf(backends, consumer);
        EdgeStrategy strategy = EdgeStrategy::kCopy;
        backend::FactoryId read_as = wanted.front();
        if (std::find(wanted.begin(), wanted.end(), best) != wanted.end()) {
          strategy = EdgeStrategy::kDirect;
          read_as = best;
        } else if ((best_properties.export_sources & PropertiesOf(backends, read_as).import_sources) != 0) {
          strategy = EdgeStrategy::kExportImport;
        }
        consumer.input_strategies[use.index] = strategy;
        consumer.input_factories[use.index] = read_as;
        if (consumer.type == LayerType::kOutput) continue;  // bound by the user, reported below
        out.edges.push_back({producer.name, consumer.name, strategy, best});
        if (strategy == EdgeStrategy::kCopy) ++out.copies;
      }
    }
  }
}

}  // namespace

PlacementBackend DescribeBackend(BackendId id, std::unique_ptr<backend::IBackend> instance, bool available,
                                 std::string unavailable_reason) {
  PlacementBackend backend;
  backend.id = std::move(id);
  backend.available = available;
  backend.unavailable_reason = std::move(unavailable_reason);
  const std::string no_layer;
  try {
    if (backend.available) {
      backend.support = loading::CallPlugin(backend.id, "GetLayerSupport", no_layer,
                                            [&] { return instance->GetLayerSupport(); });
      if (!backend.support) {
        backend.available = false;
        backend.unavailable_reason = "it returned no layer support";
      }
      FactoryCollector collector(backend.factories);
      loading::CallPlugin(backend.id, "RegisterTensorHandleFactories", no_layer,
                          [&] { instance->RegisterTensorHandleFactories(collector); });
      backend.preferences = loading::CallPlugin(backend.id, "GetHandleFactoryPreferences", no_layer,
                                                [&] { return instance->GetHandleFactoryPreferences(); });
    }
  } catch (const Exception& error) {
    backend.available = false;
    backend.unavailable_reason = error.what();
  }
  if (backend.preferences.empty()) {
    for (const auto& [factory, unused] : backend.factories) backend.preferences.push_back(factory);
    backend.preferences.push_back(backend::kHostFactoryId);
  }
  backend.factories.emplace(backend::kHostFactoryId, HostFactoryProperties());
  backend.instance = std::move(instance);
  return backend;
}

std::unique_ptr<OptimizedNetwork::Impl> Optimize(const Network::Impl& network, const OptimizeOptions& options,
                                                 std::vector<PlacementBackend>& backends, ILogSink& log) {
  auto impl = std::make_unique<OptimizedNetwork::Impl>();
  impl->graph = network.graph;
  impl->inputs = network.inputs;
  impl->outputs = network.outputs;
  Graph& graph = impl->graph;
  if (network.outputs.empty()) throw Exception(ErrorCode::kInvalidArgument, "the network has no output");
  graph.Resolve();  // validates connections, cycles and shapes before anything else

  if (options.optimize_graph) {
    FoldConstants(graph, backends, impl->pass_log);
    FoldBatchNormalization(graph, impl->pass_log);
    CompositeOpRules rules;
    rules.pinned = [&](const Layer& layer) { return !layer.pin.IsEmpty() || options.pins.count(layer.name) != 0; };
    rules.placeable = [&](const Layer& layer) {
      for (const BackendId& id : Candidates(layer, options, backends)) {
        std::string reason;
        const PlacementBackend* backend = FindBackend(backends, id);
        if (backend && Accepts(*backend, layer, reason, log)) return true;
      }
      return false;
    };
    RecognizeCompositeOps(graph, rules, impl->pass_log);
    HoistConstantOpsAboveTransposes(graph, rules.pinned, impl->pass_log);
  }
  for (const auto& name : graph.RemoveDeadLayers()) impl->pass_log.push_back("removed dead layer '" + name + "'");
  auto order = graph.Resolve();

  PlaceLayers(graph, order, options, backends, {}, log);
  if (options.optimize_graph) OptimizeSubgraphs(graph, options, backends, impl->pass_log, log);
  for (const auto& name : graph.RemoveDeadLayers()) impl->pass_log.push_back("removed dead layer '" + name + "'");
  impl->order = graph.Resolve();
  ChooseTensorStrategies(graph, impl->order, backends, *impl);

  impl->placement.reserve(impl->order.size());
  for (LayerId id : impl->order) {
    const Layer& layer = graph.At(id);
    impl->placement.push_back({layer.name, layer.type, layer.backend, layer.placement_reason});
  }
  for (const auto& line : impl->pass_log) Log(log, LogLevel::kInfo, LogCategory::kOptimize, line);
  Log(log, LogLevel::kDebug, LogCategory::kOptimize, Describe(*impl));
  return impl;
}

std::string Describe(const OptimizedNetwork::Impl& network) {
  std::ostringstream out;
  out << "placement:\n";
  for (const auto& p : network.placement) {
    if (p.backend.IsEmpty()) continue;
    out << "  " << p.layer << " (" << backend::ToString(p.type) << ") -> " << p.backend.Get() << ": "
        << p.reason << "\n";
  }
  out << "copies: " << network.copies << "\n";
  for (const auto& edge : network.edges) {
    if (edge.strategy != EdgeStrategy::kDirect) {
      out << "  " << edge.producer << " -> " << edge.consumer << ": " << ToString(edge.strategy) << "\n";
    }
  }
  if (!network.pass_log.empty()) {
    out << "passes:\n";
    for (const auto& line : network.pass_log) out << "  " << line << "\n";
  }
  return out.str();
}

}  // namespace backplane::graph

namespace backplane {

const char* ToString(EdgeStrategy strategy) {
  switch (strategy) {
    case EdgeStrategy::kDirect: return "direct";
    case EdgeStrategy::kExportImport: return "export_import";
    case EdgeStrategy::kCopy: return "copy";
  }
  return "unknown";
}

namespace {
const OptimizedNetwork::Impl& Checked(const std::unique_ptr<OptimizedNetwork::Impl>& impl) {
  if (!impl) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "this OptimizedNetwork was moved from (LoadNetwork takes it); optimize the network again");
  }
  return *impl;
}
}  // namespace

OptimizedNetwork::OptimizedNetwork() : impl_(std::make_unique<Impl>()) {}
OptimizedNetwork::OptimizedNetwork(std::unique_ptr<Impl>&& impl) : impl_(std::move(impl)) {}
OptimizedNetwork::~OptimizedNetwork() = default;
OptimizedNetwork::OptimizedNetwork(OptimizedNetwork&&) noexcept = default;
OptimizedNetwork& OptimizedNetwork::operator=(OptimizedNetwork&&) noexcept = default;

const std::vector<LayerPlacement>& OptimizedNetwork::GetPlacement() const { return Checked(impl_).placement; }
const std::vector<EdgeReport>& OptimizedNetwork::GetEdges() const { return Checked(impl_).edges; }
std::size_t OptimizedNetwork::GetCopyCount() const { return Checked(impl_).copies; }
const std::vector<std::string>& OptimizedNetwork::GetPassLog() const { return Checked(impl_).pass_log; }

std::string OptimizedNetwork::Describe() const { return graph::Describe(Checked(impl_)); }

}  // namespace backplane
