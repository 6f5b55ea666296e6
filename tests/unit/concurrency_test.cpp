// Concurrency (issue 3, spec 004): many execution contexts run one loaded network at once and
// get exactly the single-threaded results; loads and unloads from several threads; runs racing
// an unload either finish correctly or report the unload. Built as its own executable so
// scripts/tsan.sh can run just this under ThreadSanitizer.
#include "test_networks.hpp"
#include "test_plugins.hpp"
#include "test_runtime.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace backplane::unit {
namespace {

constexpr int kThreads = 8;
constexpr int kRunsPerThread = 100;

OptimizeOptions On(std::vector<BackendId> backends) {
  OptimizeOptions options;
  options.backends = std::move(backends);
  return options;
}

// What one thread saw; checked on the main thread (doctest assertions stay there).
struct ThreadReport {
  int runs = 0;
  int mismatches = 0;
  std::string first_error;
};

// Runs `network` (already loaded as `id`) from kThreads threads, each with its own context and
// its own input, kRunsPerThread times, comparing every result bitwise with `expected[thread]`.
std::vector<ThreadReport> RunConcurrently(Runtime& runtime, NetworkId id,
                                          const std::vector<std::vector<float>>& inputs,
                                          const std::vector<std::vector<float>>& expected) {
  const NetworkSignature signature = runtime.GetNetworkSignature(id);
  std::vector<ThreadReport> reports(kThreads);
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ThreadReport& report = reports[static_cast<std::size_t>(t)];
      try {
        auto context = runtime.CreateExecutionContext(id);
        ++ready;
        while (ready.load() < kThreads) std::this_thread::yield();  // start together
        for (int run = 0; run < kRunsPerThread; ++run) {
          const auto outputs = Run(*context, signature, {inputs[static_cast<std::size_t>(t)]});
          ++report.runs;
          if (!Bitwise(outputs[0], expected[static_cast<std::size_t>(t)])) ++report.mismatches;
        }
      } catch (const std::exception& error) {
        report.first_error = error.what();
        ++ready;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  return reports;
}

void CheckReports(const std::vector<ThreadReport>& reports) {
  for (std::size_t t = 0; t < reports.size(); ++t) {
    CAPTURE(t);
    CHECK(reports[t].first_error == "");
    CHECK(reports[t].runs == kRunsPerThread);
    CHECK(reports[t].mismatches == 0);
  }
}

template <typename Model>
void RunModelConcurrently(const std::vector<TestPlugin>& plugins, const OptimizeOptions& options) {
  TestRuntime runtime(plugins);
  const Model model;
  const NetworkId id = Load(*runtime, model.network(), options);
  std::vector<std::vector<float>> inputs, expected;
  for (int t = 0; t < kThreads; ++t) {
    inputs.push_back(model.MakeInput(static_cast<std::uint32_t>(t)));
    expected.push_back(RunOnce(*runtime, id, {inputs.back()})[0]);  // single-threaded
    CHECK(Compare(expected.back(), model.Forward(inputs.back()), 2e-5) == "");
  }
  // Different inputs really give different results, so a mix-up between threads shows.
  CHECK_FALSE(Bitwise(expected[0], expected[1]));
  CheckReports(RunConcurrently(*runtime, id, inputs, expected));
  runtime->UnloadNetwork(id);
}

TEST_CASE("8 threads x 100 runs of the small CNN split across TestValidA and CpuRef") {
  RunModelConcurrently<SmallCnn>({test_plugins::valid_a}, On({"TestValidA", kCpuRef}));
}

TEST_CASE("8 threads x 100 runs of the small CNN split with copies (TestCopyOnly)") {
  RunModelConcurrently<SmallCnn>({test_plugins::copy_only}, On({"TestCopyOnly", kCpuRef}));
}

TEST_CASE("8 threads x 100 runs of the small MLP on CpuRef") {
  RunModelConcurrently<SmallMlp>({}, On({kCpuRef}));
}

TEST_CASE("threads loading, running and unloading their own networks on one runtime") {
  TestRuntime runtime({test_plugins::valid_a});
  constexpr int kLoaders = 4;
  constexpr int kRounds = 10;
  std::vector<ThreadReport> reports(kLoaders);
  std::vector<std::thread> threads;
  for (int t = 0; t < kLoaders; ++t) {
    threads.emplace_back([&, t] {
      ThreadReport& report = reports[static_cast<std::size_t>(t)];
      try {
        const Network net = MakeAddRelu();
        for (int round = 0; round < kRounds; ++round) {
          const auto a = Pseudorandom(24, static_cast<std::uint32_t>(t * 100 + round));
          const auto b = Pseudorandom(24, static_cast<std::uint32_t>(t * 100 + round + 50));
          const auto y = RunNetwork(*runtime, net, On({"TestValidA", kCpuRef}), {a, b});
          ++report.runs;
          if (!Compare(y[0], AddReluForward(a, b), 0).empty()) ++report.mismatches;
        }
      } catch (const std::exception& error) {
        report.first_error = error.what();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (std::size_t t = 0; t < reports.size(); ++t) {
    CAPTURE(t);
    CHECK(reports[t].first_error == "");
    CHECK(reports[t].runs == kRounds);
    CHECK(reports[t].mismatches == 0);
  }
}

TEST_CASE("runs racing UnloadNetwork finish correctly or report the unload, never crash") {
  TestRuntime runtime({test_plugins::valid_a});
  const SmallCnn cnn;
  const NetworkId id = Load(*runtime, cnn.network(), On({"TestValidA", kCpuRef}));
  const NetworkSignature signature = runtime->GetNetworkSignature(id);
  const auto input = cnn.MakeInput(3);
  const auto expected = RunOnce(*runtime, id, {input})[0];

  // Each thread runs until it has seen the unload three times, or gives up after a few seconds
  // (then UnloadNetwork let it start new runs all that time instead of stopping them).
  struct Outcome {
    std::atomic<int> good{0};
    std::atomic<bool> stopped{false};
    int wrong = 0;
    int unloaded = 0;
    int ran_after_unloaded = 0;
    std::string other_error;
  };
  constexpr int kRacers = 4;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  std::vector<Outcome> outcomes(kRacers);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < outcomes.size(); ++t) {
    threads.emplace_back([&, t] {
      Outcome& outcome = outcomes[t];
      auto context = runtime->CreateExecutionContext(id);
      while (outcome.unloaded < 3 && std::chrono::steady_clock::now() < give_up) {
        try {
          const auto y = Run(*context, signature, {input});
          if (outcome.unloaded > 0) ++outcome.ran_after_unloaded;
          if (Bitwise(y[0], expected)) {
            ++outcome.good;
          } else {
            ++outcome.wrong;
          }
        } catch (const Exception& error) {
          if (error.code() == ErrorCode::kNotFound) {
            ++outcome.unloaded;
          } else {
            outcome.other_error = error.what();
            break;
          }
        }
      }
      outcome.stopped = true;
    });
  }
  // Unload while every thread is busy running.
  for (const auto& outcome : outcomes) {
    while (outcome.good.load() < 10 && !outcome.stopped.load()) std::this_thread::yield();
  }
  const auto unload_start = std::chrono::steady_clock::now();
  runtime->UnloadNetwork(id);
  const double unload_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - unload_start).count();
  for (auto& thread : threads) thread.join();
  // It waits for the runs in progress (microseconds each), not for every thread to stop.
  CHECK_MESSAGE(unload_ms < 1000, "UnloadNetwork took " << unload_ms << " ms while " << kRacers
                                                        << " threads kept starting runs");
  for (std::size_t t = 0; t < outcomes.size(); ++t) {
    CAPTURE(t);
    CHECK(outcomes[t].other_error == "");
    CHECK(outcomes[t].wrong == 0);
    CHECK(outcomes[t].good.load() >= 10);
    CHECK_MESSAGE(outcomes[t].unloaded == 3,
                  "the thread never saw the unload: runs kept starting while UnloadNetwork waited");
    CHECK(outcomes[t].ran_after_unloaded == 0);
  }
}

}  // namespace
}  // namespace backplane::unit
