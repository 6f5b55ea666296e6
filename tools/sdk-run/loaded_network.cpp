#include "loaded_network.hpp"

#include "exit_code.hpp"

#include <chrono>

namespace backplane::sdk_run {

namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

void RequirePinnedLayers(const Network& network, const OptimizeOptions& options) {
  for (const auto& [layer, backend] : options.pins) {
    try {
      network.FindLayer(layer);
    } catch (const Exception&) {
      throw ToolError(ExitCode::kUsage,
                      "--pin " + layer + "=" + backend.Get() + ": the model has no layer " + layer);
    }
  }
}

LoadedNetwork::LoadedNetwork(Runtime& runtime, const Network& network, const OptimizeOptions& options)
    : LoadedNetwork(runtime, network, options, nullptr) {}

LoadedNetwork::LoadedNetwork(Runtime& runtime, Network&& network, const OptimizeOptions& options)
    : LoadedNetwork(runtime, network, options, &network) {}

LoadedNetwork::LoadedNetwork(Runtime& runtime, const Network& network, const OptimizeOptions& options,
                             Network* release)
    : runtime_(&runtime) {
  RequirePinnedLayers(network, options);
  auto start = Clock::now();
  OptimizedNetwork optimized;
  try {
    optimized = runtime.Optimize(network, options);
  } catch (const Exception& error) {
    throw ToolError(ExitCode::kRuntimeFailure, std::string("optimize failed (") +
                                                   ToString(error.code()) + "): " + error.what());
  }
  optimize_ms_ = MillisecondsSince(start);
  placement_ = {optimized.GetPlacement(), optimized.GetEdges(), optimized.GetCopyCount(),
                optimized.GetPassLog()};
  if (release) *release = Network();

  start = Clock::now();
  try {
    id_ = runtime.LoadNetwork(std::move(optimized));
  } catch (const Exception& error) {
    throw ToolError(ExitCode::kRuntimeFailure, std::string("loading the network failed (") +
                                                   ToString(error.code()) + "): " + error.what());
  }
  load_ms_ = MillisecondsSince(start);
  try {
    signature_ = runtime.GetNetworkSignature(id_);
  } catch (const Exception& error) {
    runtime.UnloadNetwork(id_);
    throw ToolError(ExitCode::kRuntimeFailure,
                    std::string("the loaded network has no signature: ") + error.what());
  }
  loaded_ = true;
}

LoadedNetwork::~LoadedNetwork() {
  if (!loaded_) return;
  try {
    runtime_->UnloadNetwork(id_);
  } catch (const std::exception&) {
    // Nothing useful to do while tearing down: the runtime releases it with itself.
  }
}

LoadedNetwork::LoadedNetwork(LoadedNetwork&& other) noexcept
    : runtime_(other.runtime_),
      id_(other.id_),
      loaded_(other.loaded_),
      signature_(std::move(other.signature_)),
      placement_(std::move(other.placement_)),
      optimize_ms_(other.optimize_ms_),
      load_ms_(other.load_ms_) {
  other.loaded_ = false;
}

}  // namespace backplane::sdk_run
