#include "layer_table.hpp"

#include <doctest/doctest.h>

namespace backplane::sdk_run {
namespace {

ProfiledStep Step(const std::string& layer, const std::string& backend, const std::string& op,
                  std::vector<TensorShape> inputs, TensorShape output) {
  ProfiledStep step{layer, backend.empty() ? BackendId() : BackendId(backend), op, {}, {}};
  for (TensorShape& shape : inputs) step.inputs.push_back({std::move(shape), DataType::kFloat32});
  step.outputs.push_back({std::move(output), DataType::kFloat32});
  return step;
}

// Three steps: a convolution on CpuFast, a MatMul that fell back to CpuRef, the output copy.
// Two runs of one context.
TimedProfile MakeProfile() {
  TimedProfile profile;
  profile.steps = {Step("conv", "CpuFast", "Convolution2d", {{1, 3, 8, 8}, {4, 3, 3, 3}, {4}}, {1, 4, 6, 6}),
                   Step("matmul", "CpuRef", "MatMul", {{2, 5, 7}, {7, 3}}, {2, 5, 3}),
                   Step("output 'y'", "", "Copy", {{2, 5, 3}}, {2, 5, 3})};
  profile.runs.push_back({0, 0, 0, {{0, 0, 10}, {1, 10, 30}, {2, 40, 2}}});
  profile.runs.push_back({0, 1, 100, {{0, 0, 20}, {1, 20, 50}, {2, 70, 4}}});
  return profile;
}

PlacementReport MakePlacement() {
  PlacementReport placement;
  placement.layers = {{"conv", backend::LayerType::kConvolution2d, BackendId("CpuFast"),
                       "first preferred backend that supports it"},
                      {"matmul", backend::LayerType::kMatMul, BackendId("CpuRef"),
                       "CpuFast: batched MatMul is not supported; placed on CpuRef"}};
  return placement;
}

std::vector<std::string> Names(const std::vector<LayerTiming>& table) {
  std::vector<std::string> names;
  for (const LayerTiming& row : table) names.push_back(row.layer);
  return names;
}

TEST_CASE("the per-layer table averages each step over the runs and gives its share") {
  const auto table = BuildLayerTable(MakeProfile(), MakePlacement(), "CpuFast", LayerSort::kOrder);
  REQUIRE(table.size() == 3);
  CHECK(table[0].layer == "conv");
  CHECK(table[0].op == "Convolution2d");
  CHECK(table[0].backend == "CpuFast");
  CHECK(table[0].calls == 2);
  CHECK(table[0].average_ms == doctest::Approx(0.015));
  CHECK(table[0].total_ms == doctest::Approx(0.030));
  CHECK(table[1].average_ms == doctest::Approx(0.040));
  CHECK(table[2].average_ms == doctest::Approx(0.003));
  // 30 + 80 + 6 = 116 us in all.
  CHECK(table[0].share == doctest::Approx(30.0 / 116));
  CHECK(table[1].share == doctest::Approx(80.0 / 116));
  CHECK(table[2].share == doctest::Approx(6.0 / 116));
}

TEST_CASE("the per-layer table sorts by time, name or execution order") {
  const TimedProfile profile = MakeProfile();
  const PlacementReport placement = MakePlacement();
  CHECK(Names(BuildLayerTable(profile, placement, "CpuFast", LayerSort::kTime)) ==
        std::vector<std::string>{"matmul", "conv", "output 'y'"});
  CHECK(Names(BuildLayerTable(profile, placement, "CpuFast", LayerSort::kName)) ==
        std::vector<std::string>{"conv", "matmul", "output 'y'"});
  CHECK(Names(BuildLayerTable(profile, placement, "CpuFast", LayerSort::kOrder)) ==
        std::vector<std::string>{"conv", "matmul", "output 'y'"});
  CHECK(LayerSortFromString("time") == LayerSort::kTime);
  CHECK(LayerSortFromString("name") == LayerSort::kName);
  CHECK(LayerSortFromString("order") == LayerSort::kOrder);
  CHECK(LayerSortFromString("load") == LayerSort::kLoad);
  CHECK_FALSE(LayerSortFromString("fastest").has_value());
}

TEST_CASE("a layer that fell back from the first preferred backend carries the placement's reason") {
  PlacementReport placement = MakePlacement();
  auto table = BuildLayerTable(MakeProfile(), placement, "CpuFast", LayerSort::kOrder);
  CHECK(table[0].fallback.empty());
  CHECK(table[1].fallback == "CpuFast: batched MatMul is not supported; placed on CpuRef");
  CHECK(table[2].fallback.empty());  // the copy into the output has no backend
  // Pinned there: not a fallback.
  placement.layers[1].reason = "pinned to CpuRef";
  table = BuildLayerTable(MakeProfile(), placement, "CpuFast", LayerSort::kOrder);
  CHECK(table[1].fallback.empty());
  // CpuRef preferred: nothing fell back from it, but conv is not on it and was not pinned.
  table = BuildLayerTable(MakeProfile(), MakePlacement(), "CpuRef", LayerSort::kOrder);
  CHECK(table[0].fallback == "first preferred backend that supports it");
  CHECK(table[1].fallback.empty());
}

TEST_CASE("the table takes FLOPs, implementation and slow path from the runtime's step details") {
  TimedProfile profile = MakeProfile();
  profile.details = {{2.0 * 144 * 27, "jit:avx2", ""}, {0, "reference", "no batched kernel"}, {}};
  const auto table = BuildLayerTable(profile, MakePlacement(), "CpuFast", LayerSort::kOrder);
  // conv's 7776 FLOPs in 0.015 ms on average.
  CHECK(table[0].flops == 2.0 * 144 * 27);
  CHECK(table[0].gflops_per_s == doctest::Approx(2.0 * 144 * 27 / 0.015e-3 / 1e9));
  CHECK(table[0].implementation == "jit:avx2");
  CHECK(table[0].slow_path.empty());
  CHECK(table[1].gflops_per_s == 0);
  CHECK(table[1].implementation == "reference");
  CHECK(table[1].slow_path == "no batched kernel");
  CHECK(table[2].implementation.empty());
  // A profile without details (none recorded): nothing counted, nothing said.
  const auto bare = BuildLayerTable(MakeProfile(), MakePlacement(), "CpuFast", LayerSort::kOrder);
  CHECK(bare[0].flops == 0);
  CHECK(bare[0].gflops_per_s == 0);
  CHECK(bare[0].load_ms == 0);
}

TEST_CASE("the per-layer table carries each workload's creation time and sorts by it") {
  TimedProfile profile = MakeProfile();
  profile.details = {{0, "", "", 1.5}, {0, "", "", 12.0}, {}};
  const auto table = BuildLayerTable(profile, MakePlacement(), "CpuFast", LayerSort::kLoad);
  CHECK(Names(table) == std::vector<std::string>{"matmul", "conv", "output 'y'"});
  CHECK(table[0].load_ms == 12.0);
  CHECK(table[1].load_ms == 1.5);
  CHECK(table[2].load_ms == 0);
}

}  // namespace
}  // namespace backplane::sdk_run
