// A Runtime for execution tests: chosen test plugin variants (each copied into a temporary
// folder with a valid manifest) plus the reference backend CpuRef from the build tree, and the
// small helpers every execution suite needs to run a network and read its results.
#pragma once

#include "capturing_log_sink.hpp"
#include "test_folder.hpp"
#include "test_plugin.hpp"

#include <backplane/runtime.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace backplane::unit {

inline const BackendId kCpuRef{"CpuRef"};

// Owns the temporary plugin folder and the runtime over it (destroyed first). Not thread-safe
// to construct; the runtime itself is as thread-safe as Runtime says.
class TestRuntime {
 public:
  // Registers `plugins` in the order given, then CpuRef when `with_reference`. Throws what
  // Runtime::Create throws.
  explicit TestRuntime(const std::vector<TestPlugin>& plugins, bool with_reference = true,
                       const std::map<BackendId, backend::BackendOptions>& backend_options = {});
  ~TestRuntime();
  TestRuntime(const TestRuntime&) = delete;
  TestRuntime& operator=(const TestRuntime&) = delete;

  Runtime& operator*() const { return *runtime_; }
  Runtime* operator->() const { return runtime_.get(); }
  // Destroys the runtime now (lifetime tests); the folder stays until this object goes.
  void Destroy() { runtime_.reset(); }
  const CapturingLogSink& Log() const { return *log_; }

 private:
  TestFolder folder_;
  std::shared_ptr<CapturingLogSink> log_;
  std::unique_ptr<Runtime> runtime_;
};

// Deterministic values in [low, high) from `seed` (a small LCG: same numbers everywhere).
std::vector<float> Pseudorandom(std::size_t count, std::uint32_t seed, float low = -1.0f, float high = 1.0f);

// Optimize + LoadNetwork; returns the network id.
NetworkId Load(Runtime& runtime, const Network& network, const OptimizeOptions& options);

// Runs `context` once with f32 inputs given by name (in signature order of `signature`) and
// returns every output, in signature order.
std::vector<std::vector<float>> Run(ExecutionContext& context, const NetworkSignature& signature,
                                    const std::vector<std::vector<float>>& inputs);
// Optimizes `network` with `options`, shows the result to `inspect` (when given), loads it, runs
// it once on `inputs` (in signature order), unloads it and returns the outputs.
std::vector<std::vector<float>> RunNetwork(Runtime& runtime, const Network& network, const OptimizeOptions& options,
                                           const std::vector<std::vector<float>>& inputs,
                                           const std::function<void(const OptimizedNetwork&)>& inspect = {});
// A fresh context for `id`, one run.
std::vector<std::vector<float>> RunOnce(Runtime& runtime, NetworkId id,
                                        const std::vector<std::vector<float>>& inputs);

// "" when `actual` equals `expected` within |a - e| <= tolerance * max(1, |e|) everywhere;
// otherwise a description of the first difference and the largest one.
std::string Compare(const std::vector<float>& actual, const std::vector<double>& expected, double tolerance);
std::string Compare(const std::vector<float>& actual, const std::vector<float>& expected, double tolerance);
// True when both hold the same bits.
bool Bitwise(const std::vector<float>& a, const std::vector<float>& b);

// The placement entry of `layer`; throws std::runtime_error when it is not there.
const LayerPlacement& PlacementOf(const OptimizedNetwork& network, const std::string& layer);
bool HasPlacement(const OptimizedNetwork& network, const std::string& layer);
// The edge from `producer` to `consumer`; throws std::runtime_error when there is none.
const EdgeReport& EdgeOf(const OptimizedNetwork& network, const std::string& producer, const std::string& consumer);

// The exception `call` throws; fails the test (doctest FAIL) when it throws none or another type.
// Used as: const Exception error = ThrowsException([&] { ... });
template <typename Call>
Exception ThrowsException(Call&& call);

// Exception text checks: every part must appear.
bool ContainsAll(const std::string& text, const std::vector<std::string>& parts);

}  // namespace backplane::unit

#include <doctest/doctest.h>

namespace backplane::unit {

template <typename Call>
Exception ThrowsException(Call&& call) {
  try {
    call();
  } catch (const Exception& error) {
    return error;
  } catch (const std::exception& error) {
    FAIL_CHECK("threw a non-backplane exception: " << error.what());
    return Exception(ErrorCode::kInternal, std::string("non-backplane exception: ") + error.what());
  }
  FAIL_CHECK("did not throw");
  return Exception(ErrorCode::kInternal, "did not throw");
}

}  // namespace backplane::unit
