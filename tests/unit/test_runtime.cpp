#include "test_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>

#ifndef BACKPLANE_TEST_REFERENCE_PLUGIN_DIR
#error "BACKPLANE_TEST_REFERENCE_PLUGIN_DIR names the folder of the built CpuRef plugin (empty: static)"
#endif

namespace backplane::unit {

namespace {

// "TestHostShare" -> "HostShare": the <Name> part of the plugin's file name.
std::string FileNamePart(const std::string& id) {
  return id.rfind("Test", 0) == 0 && id.size() > 4 ? id.substr(4) : id;
}

}  // namespace

TestRuntime::TestRuntime(const std::vector<TestPlugin>& plugins, bool with_reference,
                         const std::map<BackendId, backend::BackendOptions>& backend_options)
    : log_(std::make_shared<CapturingLogSink>()) {
  RuntimeOptions options;
  // Each variant in its own sub-folder, searched in the order given, so registration order
  // (the default preference order) is the order of `plugins`.
  for (const auto& plugin : plugins) {
    const std::string name = FileNamePart(plugin.id);
    const std::string library = LibraryFileName(kTestPluginVendor, name);
    folder_.AddLibrary(plugin, fs::path(name) / library);
    folder_.WriteManifest(fs::path(name) / ManifestFileName(kTestPluginVendor, name),
                          DefaultManifest(plugin, library));
    options.backend_paths.push_back((folder_ / name).string());
  }
  const std::string reference_dir = BACKPLANE_TEST_REFERENCE_PLUGIN_DIR;
  options.enable_static_backends = with_reference && reference_dir.empty();
  if (with_reference && !reference_dir.empty()) options.backend_paths.push_back(reference_dir);
  options.enable_dynamic_backends = !options.backend_paths.empty();
  options.backend_options = backend_options;
  options.log_sink = log_;
  runtime_ = Runtime::Create(options);
}

TestRuntime::~TestRuntime() { runtime_.reset(); }

std::vector<float> Pseudorandom(std::size_t count, std::uint32_t seed, float low, float high) {
  std::vector<float> values(count);
  std::uint32_t state = seed * 2654435761u + 12345u;
  for (auto& value : values) {
    state = state * 1664525u + 1013904223u;
    const float unit = static_cast<float>(state >> 8) / static_cast<float>(1u << 24);
    value = low + (high - low) * unit;
  }
  return values;
}

NetworkId Load(Runtime& runtime, const Network& network, const OptimizeOptions& options) {
  return runtime.LoadNetwork(runtime.Optimize(network, options));
}

std::vector<std::vector<float>> Run(ExecutionContext& context, const NetworkSignature& signature,
                                    const std::vector<std::vector<float>>& inputs) {
  if (inputs.size() != signature.inputs.size()) {
    throw std::runtime_error("Run: " + std::to_string(inputs.size()) + " inputs for a network with " +
                             std::to_string(signature.inputs.size()));
  }
  std::vector<InputBinding> in;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    in.push_back({signature.inputs[i].name, {signature.inputs[i].info, inputs[i].data()}});
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

std::vector<std::vector<float>> RunNetwork(Runtime& runtime, const Network& network, const OptimizeOptions& options,
                                           const std::vector<std::vector<float>>& inputs,
                                           const std::function<void(const OptimizedNetwork&)>& inspect) {
  OptimizedNetwork optimized = runtime.Optimize(network, options);
  if (inspect) inspect(optimized);
  const NetworkId id = runtime.LoadNetwork(std::move(optimized));
  auto outputs = RunOnce(runtime, id, inputs);
  runtime.UnloadNetwork(id);
  return outputs;
}

std::vector<std::vector<float>> RunOnce(Runtime& runtime, NetworkId id,
                                        const std::vector<std::vector<float>>& inputs) {
  auto context = runtime.CreateExecutionContext(id);
  return Run(*context, runtime.GetNetworkSignature(id), inputs);
}

std::string Compare(const std::vector<float>& actual, const std::vector<double>& expected, double tolerance) {
  if (actual.size() != expected.size()) {
    return std::to_string(actual.size()) + " values, expected " + std::to_string(expected.size());
  }
  std::ostringstream first;
  double worst = 0;
  std::size_t worst_at = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double error = std::fabs(static_cast<double>(actual[i]) - expected[i]);
    const double allowed = tolerance * std::max(1.0, std::fabs(expected[i]));
    if (!(error <= allowed)) {  // NaN fails too
      if (bad++ == 0) first << "first difference at " << i << ": " << actual[i] << " vs " << expected[i];
      if (!(error <= worst)) {
        worst = error;
        worst_at = i;
      }
    }
  }
  if (bad == 0) return "";
  std::ostringstream text;
  text << bad << " of " << actual.size() << " values differ by more than " << tolerance << "; " << first.str()
       << "; largest at " << worst_at << ": " << actual[worst_at] << " vs " << expected[worst_at];
  return text.str();
}

std::string Compare(const std::vector<float>& actual, const std::vector<float>& expected, double tolerance) {
  return Compare(actual, std::vector<double>(expected.begin(), expected.end()), tolerance);
}

bool Bitwise(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

const LayerPlacement& PlacementOf(const OptimizedNetwork& network, const std::string& layer) {
  for (const auto& placement : network.GetPlacement()) {
    if (placement.layer == layer) return placement;
  }
  throw std::runtime_error("no placement for layer '" + layer + "' in:\n" + network.Describe());
}

bool HasPlacement(const OptimizedNetwork& network, const std::string& layer) {
  const auto& all = network.GetPlacement();
  return std::any_of(all.begin(), all.end(), [&](const LayerPlacement& p) { return p.layer == layer; });
}

const EdgeReport& EdgeOf(const OptimizedNetwork& network, const std::string& producer, const std::string& consumer) {
  for (const auto& edge : network.GetEdges()) {
    if (edge.producer == producer && edge.consumer == consumer) return edge;
  }
  throw std::runtime_error("no edge " + producer + " -> " + consumer + " in:\n" + network.Describe());
}

bool ContainsAll(const std::string& text, const std::vector<std::string>& parts) {
  return std::all_of(parts.begin(), parts.end(),
                     [&](const std::string& part) { return text.find(part) != std::string::npos; });
}

}  // namespace backplane::unit
