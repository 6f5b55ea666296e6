// The optimizer (optimizer.hpp) against backends written in C++ for the test: its check that a
// substitution a backend returns does not fuse around a layer outside it.
#include "graph/optimizer.hpp"

#include "impl_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/network.hpp>

#include <doctest/doctest.h>

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

// A backend that supports every layer and, when offered a subgraph, fuses the layers at
// `fuse` (indices into the subgraph, as offered) into one layer named `name`; the rest stays
// untouched. Records the names of the layers it was offered. Creates no workloads.
class FusingBackend final : public backend::IBackend {
 public:
  FusingBackend(std::string id, std::vector<std::size_t> fuse, std::string name, std::vector<std::string>& offered)
      : id_(std::move(id)), fuse_(std::move(fuse)), name_(std::move(name)), offered_(offered) {}

  BackendId GetId() const override { return BackendId(id_); }
  backend::BackendCapabilities GetCapabilities() const override { return {}; }
  std::shared_ptr<backend::ILayerSupport> GetLayerSupport() const override {
    return std::make_shared<SupportsAll>();
  }
  std::unique_ptr<backend::IWorkloadFactory> CreateWorkloadFactory(const std::shared_ptr<backend::IMemoryManager>&,
                                                                   backend::IBackendContext*) const override {
    return nullptr;
  }
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
  std::string id_;
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

}  // namespace
}  // namespace backplane::graph
