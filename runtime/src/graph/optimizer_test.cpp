// The optimizer (optimizer.hpp) against backends written in C++ for the test: its check that a
// substitution a backend returns does not fuse around a layer outside it.
#include "graph/optimizer.hpp"

#include "impl_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/network.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

namespace backplane::graph {
namespace {

class SupportsAll final : public backend::ILayerSupport {
 public:
  bool IsLayerSupported(const backend::ILayerView&, std::string*) const override { return true; }
};

struct Fused final : backend::LayerDescriptor {};

// A backend `id` that supports every layer and creates no workloads: the backends below say
// only how they fuse.
class SupportingBackend : public backend::IBackend {
 public:
  explicit SupportingBackend(std::string id) : id_(std::move(id)) {}
  BackendId GetId() const override { return BackendId(id_); }
  backend::BackendCapabilities GetCapabilities() const override { return {}; }
  std::shared_ptr<backend::ILayerSupport> GetLayerSupport() const override {
    return std::make_shared<SupportsAll>();
  }
  std::unique_ptr<backend::IWorkloadFactory> CreateWorkloadFactory(const std::shared_ptr<backend::IMemoryManager>&,
                                                                   backend::IBackendContext*) const override {
    return nullptr;
  }

 private:
  std::string id_;
};

// When offered a subgraph, fuses the layers at `fuse` (indices into the subgraph, as offered)
// into one layer named `name`; the rest stays untouched. Records the names of the layers it
// was offered.
class FusingBackend final : public SupportingBackend {
 public:
  FusingBackend(std::string id, std::vector<std::size_t> fuse, std::string name, std::vector<std::string>& offered)
      : SupportingBackend(std::move(id)), fuse_(std::move(fuse)), name_(std::move(name)), offered_(offered) {}

  backend::OptimizationViews OptimizeSubgraph(const backend::SubgraphView& subgraph) const override {
    backend::OptimizationViews views;
    for (const auto* layer : subgraph.layers) offered_.push_back(layer->GetName());
    if (fuse_.empty()) {
      views.untouched.push_back(subgraph);
      return views;
    }
    backend::Substitution substitution;
    substitution.name = name_;
    substitution.descriptor = std::make_shared<const Fused>();
    std::vector<bool> fused(subgraph.layers.size(), false);
    for (std::size_t index : fuse_) {
      substitution.replaced.layers.push_back(subgraph.layers.at(index));
      fused.at(index) = true;
    }
    views.substitutions.push_back(std::move(substitution));
    backend::SubgraphView rest;
    for (std::size_t i = 0; i < subgraph.layers.size(); ++i) {
      if (!fused[i]) rest.layers.push_back(subgraph.layers[i]);
    }
    if (!rest.layers.empty()) views.untouched.push_back(std::move(rest));
    return views;
  }

 private:
  std::vector<std::size_t> fuse_;
  std::string name_;
  std::vector<std::string>& offered_;
};

class NullSink final : public ILogSink {
 public:
  bool IsEnabled(LogLevel, LogCategory) const override { return false; }
  void Write(LogLevel, LogCategory, std::string_view) override {}
};

std::vector<PlacementBackend> Backends(std::vector<std::size_t> fuse, std::string name,
                                       std::vector<std::string>& offered, std::vector<std::string>& other_offered) {
  std::vector<PlacementBackend> backends;
  backends.push_back(DescribeBackend(BackendId("Hand"),
                                     std::make_unique<FusingBackend>("Hand", std::move(fuse), std::move(name), offered),
                                     true, ""));
  backends.push_back(DescribeBackend(BackendId("Other"),
                                     std::make_unique<FusingBackend>("Other", std::vector<std::size_t>{}, "", other_offered),
                                     true, ""));
  return backends;
}

TEST_CASE("optimizer: a substitution fusing around a layer outside it is refused naming the backend and layer") {
  // x -> r1 -> add (pinned to Other) -> m ; r1 -> m. Hand gets {r1, m}, connected directly, and
  // fuses both although m also reads add, which reads r1.
  const TensorInfo info{TensorShape{4}, DataType::kFloat32};
  Network network;
  const auto x = network.AddInput("x", info);
  const auto r1 = network.Add(ActivationDescriptor{}, {x}, "r1");
  const auto add = network.Add(ElementwiseBinaryDescriptor{}, {r1, r1}, "add");
  const auto m = network.Add(ElementwiseBinaryDescriptor{}, {r1, add}, "m");
  network.AddOutput("y", m);
  OptimizeOptions options;
  options.pins["add"] = "Other";
  NullSink log;

  std::vector<std::string> offered;
  std::vector<std::string> other_offered;
  auto backends = Backends({0, 1}, "r1+m", offered, other_offered);
  std::string error;
  try {
    Optimize(backplane::detail::ImplAccess::Of(network), options, backends, log);
    FAIL("no exception");
  } catch (const Exception& thrown) {
    CHECK(thrown.code() == ErrorCode::kBackendFailure);
    error = thrown.what();
  }
  INFO(error);
  CHECK(offered == std::vector<std::string>{"r1", "m"});
  CHECK(error.find("backend Hand: optimize_subgraph returned substitution 'r1+m' whose layers are "
                   "connected through layer 'add' outside it") != std::string::npos);

  // Fusing only m is fine: the PreCompiled layer reads r1 and add by their producers.
  offered.clear();
  backends = Backends({1}, "m'", offered, other_offered);
  const auto optimized = Optimize(backplane::detail::ImplAccess::Of(network), options, backends, log);
  bool fused = false;
  for (const auto& placement : optimized->placement) {
    if (placement.type == backend::LayerType::kPreCompiled) {
      fused = true;
      CHECK(placement.layer == "m'");
      CHECK(placement.backend == BackendId("Hand"));
    }
  }
  CHECK(fused);
}


// Replaces each group of layers named in `groups` (when offered them all) by one layer named
// after them ("a+d"), in one OptimizeSubgraph result.
class NamedFusingBackend final : public SupportingBackend {
 public:
  explicit NamedFusingBackend(std::vector<std::vector<std::string>> groups)
      : SupportingBackend("Named"), groups_(std::move(groups)) {}
  backend::OptimizationViews OptimizeSubgraph(const backend::SubgraphView& subgraph) const override {
    backend::OptimizationViews views;
    for (const auto& names : groups_) {
      backend::Substitution substitution;
      for (const auto& name : names) {
        substitution.name += (substitution.name.empty() ? "" : "+") + name;
        for (const auto* layer : subgraph.layers) {
          if (layer->GetName() == name) substitution.replaced.layers.push_back(layer);
        }
      }
      substitution.descriptor = std::make_shared<const Fused>();
      views.substitutions.push_back(std::move(substitution));
    }
    return views;
  }

 private:
  std::vector<std::vector<std::string>> groups_;
};

TEST_CASE("optimizer: two substitutions that make a cycle together are refused naming one and the layer between") {
  // a = relu(x), b = relu(a), c = relu(x), d = a + c. {a, d} alone and {b, c} alone are each
  // fine, but fused together {a, d} feeds {b, c} (through b) which feeds {a, d} (through c).
  const TensorInfo info{TensorShape{4}, DataType::kFloat32};
  Network network;
  const auto x = network.AddInput("x", info);
  const auto a = network.Add(ActivationDescriptor{}, {x}, "a");
  const auto b = network.Add(ActivationDescriptor{}, {a}, "b");
  const auto c = network.Add(ActivationDescriptor{}, {x}, "c");
  const auto d = network.Add(ElementwiseBinaryDescriptor{}, {a, c}, "d");
  network.AddOutput("y1", b);
  network.AddOutput("y2", d);
  NullSink log;
  auto optimize = [&](std::vector<std::vector<std::string>> groups) {
    std::vector<PlacementBackend> backends;
    backends.push_back(
        DescribeBackend(BackendId("Named"), std::make_unique<NamedFusingBackend>(std::move(groups)), true, ""));
    return Optimize(backplane::detail::ImplAccess::Of(network), {}, backends, log);
  };
  std::string error;
  try {
    optimize({{"a", "d"}, {"b", "c"}});
    FAIL("no exception");
  } catch (const Exception& thrown) {
    CHECK(thrown.code() == ErrorCode::kBackendFailure);
    error = thrown.what();
  }
  INFO(error);
  CHECK(error.find("backend Named: optimize_subgraph returned substitution 'a+d' whose layers are connected "
                   "through layer 'b' outside it") != std::string::npos);
  // Either one alone is applied.
  for (const auto& group : std::vector<std::vector<std::string>>{{"a", "d"}, {"b", "c"}}) {
    const auto optimized = optimize({group});
    const auto& placement = optimized->placement;
    CHECK(std::count_if(placement.begin(), placement.end(), [](const LayerPlacement& p) {
            return p.type == backend::LayerType::kPreCompiled;
          }) == 1);
  }
}

// Fuses each two consecutive layers of what it is offered (a chain, in order) into one: as
// CpuOneDnn does with its chains, many small substitutions in one subgraph.
class PairFusingBackend final : public SupportingBackend {
 public:
  PairFusingBackend() : SupportingBackend("Pairs") {}
  backend::OptimizationViews OptimizeSubgraph(const backend::SubgraphView& subgraph) const override {
    backend::OptimizationViews views;
    const auto& layers = subgraph.layers;
    for (std::size_t i = 0; i + 1 < layers.size(); i += 2) {
      backend::Substitution substitution;
      substitution.name = layers[i]->GetName() + "+" + layers[i + 1]->GetName();
      substitution.descriptor = std::make_shared<const Fused>();
      substitution.replaced.layers = {layers[i], layers[i + 1]};
      views.substitutions.push_back(std::move(substitution));
    }
    if (layers.size() % 2 != 0) views.untouched.push_back(backend::SubgraphView{{layers.back()}});
    return views;
  }
};

// Processor seconds Optimize takes (std::clock: not the time others' processes take, where the
// platform says so), the best of three, on a chain of `layers` Relu layers fused in pairs;
// checks that each pair became one layer.
double OptimizePairsSeconds(std::size_t layers) {
  const TensorInfo info{TensorShape{4}, DataType::kFloat32};
  Network network;
  OutputSlot x = network.AddInput("x", info);
  for (std::size_t i = 0; i < layers; ++i) x = network.Add(ActivationDescriptor{}, {x}, "r" + std::to_string(i));
  network.AddOutput("y", x);
  NullSink log;
  double best = 1e9;
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::vector<PlacementBackend> backends;
    backends.push_back(DescribeBackend(BackendId("Pairs"), std::make_unique<PairFusingBackend>(), true, ""));
    const std::clock_t start = std::clock();
    const auto optimized = Optimize(backplane::detail::ImplAccess::Of(network), {}, backends, log);
    best = std::min(best, static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC);
    const auto& placement = optimized->placement;
    const auto fused = std::count_if(placement.begin(), placement.end(), [](const LayerPlacement& p) {
      return p.type == backend::LayerType::kPreCompiled;
    });
    REQUIRE(static_cast<std::size_t>(fused) == layers / 2);
  }
  return best;
}

TEST_CASE("optimizer: many small substitutions take time linear in the layers, not quadratic") {
  // Four times the layers: about four times the time when each substitution costs what it
  // replaces; sixteen when each one walks the whole graph (as it did: 0.2 s -> 3 s).
  const double small = OptimizePairsSeconds(2000);
  const double large = OptimizePairsSeconds(8000);
  INFO("2000 layers: " << small << " s, 8000 layers: " << large << " s");
  CHECK(large < 8 * small + 0.05);
}

}  // namespace
}  // namespace backplane::graph
