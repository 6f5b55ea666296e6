// Test-only: runs networks through the public runtime API on a runtime that finds the
// CpuOneDnn and CpuRef plugins in their build-tree folders, and compares CpuOneDnn's results
// with CpuRef's (the baseline).
#pragma once

#include <backplane/descriptors.hpp>
#include <backplane/execution.hpp>
#include <backplane/network.hpp>
#include <backplane/optimized_network.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#ifndef BACKPLANE_ONEDNN_PLUGIN_DIR
#error "BACKPLANE_ONEDNN_PLUGIN_DIR names the folder of the built CpuOneDnn plugin"
#endif

namespace backplane::onednn::testing {

inline const BackendId kOneDnn("CpuOneDnn");
inline const BackendId kRef("CpuRef");

// A runtime with both plugins and `options` for CpuOneDnn.
inline std::unique_ptr<Runtime> MakeRuntime(const backend::BackendOptions& options = {}) {
  RuntimeOptions runtime_options;
  runtime_options.backend_paths = {BACKPLANE_ONEDNN_PLUGIN_DIR, BACKPLANE_REFERENCE_PLUGIN_DIR};
  runtime_options.enable_static_backends = false;
  runtime_options.backend_options[kOneDnn] = options;
  return Runtime::Create(runtime_options);
}

inline std::vector<float> Random(std::size_t count, unsigned seed, float low = -1.0f, float high = 1.0f) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<float> values(count);
  for (auto& v : values) v = uniform(generator);
  return values;
}

inline OutputSlot Constant(Network& net, const std::string& name, const TensorShape& shape, unsigned seed,
                           float scale = 1.0f) {
  auto values = Random(static_cast<std::size_t>(shape.NumElements()), seed, -scale, scale);
  return net.AddConstant(name, shape, values);
}

// One run of a loaded network on a fresh context; inputs in signature order.
inline std::vector<std::vector<float>> RunOnce(Runtime& runtime, NetworkId id, ExecutionContext& context,
                                               const std::vector<std::vector<float>>& inputs) {
  const NetworkSignature signature = runtime.GetNetworkSignature(id);
  std::vector<InputBinding> in;
  for (std::size_t i = 0; i < signature.inputs.size(); ++i) {
    in.push_back({signature.inputs[i].name, {signature.inputs[i].info, inputs.at(i).data()}});
  }
  std::vector<std::vector<float>> results;
  for (const auto& output : signature.outputs) {
    results.emplace_back(static_cast<std::size_t>(output.info.shape.NumElements()), std::nanf(""));
  }
  std::vector<OutputBinding> out;
  for (std::size_t i = 0; i < results.size(); ++i) {
    out.push_back({signature.outputs[i].name, {signature.outputs[i].info, results[i].data()}});
  }
  context.Run(in, out);
  return results;
}

// Random values in [low, high) for every input of `net`, in signature order (seeds 1, 2, ...).
inline std::vector<std::vector<float>> InputsFor(Runtime& runtime, const Network& net, float low = -1.0f,
                                                 float high = 1.0f) {
  OptimizeOptions options;
  options.backends = {kRef};
  const NetworkId id = runtime.LoadNetwork(runtime.Optimize(net, options));
  const auto signature = runtime.GetNetworkSignature(id);
  runtime.UnloadNetwork(id);
  std::vector<std::vector<float>> inputs;
  unsigned seed = 1;
  for (const auto& input : signature.inputs) {
    inputs.push_back(Random(static_cast<std::size_t>(input.info.shape.NumElements()), seed++, low, high));
  }
  return inputs;
}

struct Outcome {
  std::vector<std::vector<float>> outputs;
  std::vector<LayerPlacement> placement;
  std::vector<std::string> pass_log;
  std::vector<EdgeReport> edges;
};

// Optimizes `network` for `backends`, loads it and runs it once.
inline Outcome RunOn(Runtime& runtime, const Network& network, const std::vector<BackendId>& backends,
                     const std::vector<std::vector<float>>& inputs) {
  OptimizeOptions options;
  options.backends = backends;
  OptimizedNetwork optimized = runtime.Optimize(network, options);
  Outcome outcome;
  outcome.placement = optimized.GetPlacement();
  outcome.pass_log = optimized.GetPassLog();
  outcome.edges = optimized.GetEdges();
  const NetworkId id = runtime.LoadNetwork(std::move(optimized));
  auto context = runtime.CreateExecutionContext(id);
  outcome.outputs = RunOnce(runtime, id, *context, inputs);
  runtime.UnloadNetwork(id);
  return outcome;
}

// The largest |a - e| / max(|e| over the tensor): relative to the tensor's scale.
inline double MaxRelativeError(const std::vector<float>& actual, const std::vector<float>& expected) {
  REQUIRE(actual.size() == expected.size());
  double scale = 1e-30, worst = 0.0;
  for (float e : expected) scale = std::max(scale, static_cast<double>(std::abs(e)));
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double d = std::abs(static_cast<double>(actual[i]) - expected[i]);
    worst = std::max(worst, std::isnan(d) ? 1e30 : d);
  }
  return worst / scale;
}

// Loads `network` on CpuOneDnn (falling back to CpuRef) and on CpuRef alone and runs each
// `runs` times on one context, with new random inputs (shaped as `input_sizes`, in signature
// order) each run; checks every output of every run within 1e-4 relative error. For what
// changes after the first run (tensors written in place, shared, relabelled).
inline void CheckRunsAgainstReference(Runtime& runtime, const Network& network,
                                      const std::vector<std::size_t>& input_sizes, unsigned runs = 3) {
  OptimizeOptions ours_options, ref_options;
  ours_options.backends = {kOneDnn, kRef};
  ref_options.backends = {kRef};
  const NetworkId ours = runtime.LoadNetwork(runtime.Optimize(network, ours_options));
  const NetworkId ref = runtime.LoadNetwork(runtime.Optimize(network, ref_options));
  auto ours_context = runtime.CreateExecutionContext(ours);
  auto ref_context = runtime.CreateExecutionContext(ref);
  for (unsigned run = 0; run < runs; ++run) {
    CAPTURE(run);
    std::vector<std::vector<float>> inputs;
    for (std::size_t i = 0; i < input_sizes.size(); ++i) inputs.push_back(Random(input_sizes[i], 10 * run + i + 1));
    const auto expected = RunOnce(runtime, ref, *ref_context, inputs);
    const auto actual = RunOnce(runtime, ours, *ours_context, inputs);
    REQUIRE(actual.size() == expected.size());
    for (std::size_t o = 0; o < actual.size(); ++o) {
      CAPTURE(o);
      CHECK(MaxRelativeError(actual[o], expected[o]) <= 1e-4);
    }
  }
  runtime.UnloadNetwork(ours);
  runtime.UnloadNetwork(ref);
}

// Runs on CpuOneDnn (falling back to CpuRef) and on CpuRef alone; checks every output within
// `tolerance` relative error. Returns the CpuOneDnn outcome for placement checks.
inline Outcome CheckAgainstReference(Runtime& runtime, const Network& network,
                                     const std::vector<std::vector<float>>& inputs, double tolerance = 1e-4) {
  const Outcome ours = RunOn(runtime, network, {kOneDnn, kRef}, inputs);
  const Outcome ref = RunOn(runtime, network, {kRef}, inputs);
  REQUIRE(ours.outputs.size() == ref.outputs.size());
  for (std::size_t o = 0; o < ours.outputs.size(); ++o) {
    const double error = MaxRelativeError(ours.outputs[o], ref.outputs[o]);
    CAPTURE(o);
    CHECK(error <= tolerance);
  }
  return ours;
}

// The backend `layer` was placed on ("" when it was fused away or is not there), and the
// reason recorded.
inline std::string BackendOf(const Outcome& outcome, const std::string& layer, std::string* reason = nullptr) {
  for (const auto& p : outcome.placement) {
    if (p.layer == layer) {
      if (reason) *reason = p.reason;
      return p.backend.Get();
    }
  }
  return "";
}

// The factory of the tensor from `producer` to `consumer` ("" when there is no such edge).
inline std::string EdgeFactory(const Outcome& outcome, const std::string& producer, const std::string& consumer) {
  for (const auto& edge : outcome.edges) {
    if (edge.producer == producer && edge.consumer == consumer) return edge.factory;
  }
  return "";
}

// Layers of the optimized network that are fused CpuOneDnn layers.
inline std::size_t FusedCount(const Outcome& outcome) {
  std::size_t count = 0;
  for (const auto& p : outcome.placement) {
    count += p.type == backend::LayerType::kPreCompiled && p.backend == kOneDnn ? 1 : 0;
  }
  return count;
}

}  // namespace backplane::onednn::testing
