#include "benchmark.hpp"

#include "exit_code.hpp"
#include "interrupt.hpp"
#include "progress_line.hpp"

#include <backplane/exception.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace backplane::sdk_run {

namespace {

using Clock = std::chrono::steady_clock;

// Releases the contexts' timed runs together, once every context has finished its warmup (or
// failed), and records when that happened.
class StartGate {
 public:
  explicit StartGate(int parties) : waiting_(parties) {}

  void ArriveAndWait() {
    std::unique_lock<std::mutex> lock(mutex_);
    Arrive(lock);
    open_.wait(lock, [this] { return waiting_ == 0; });
  }
  void Arrive() {
    std::unique_lock<std::mutex> lock(mutex_);
    Arrive(lock);
  }
  Clock::time_point start() const { return start_; }  // valid once every party has arrived

 private:
  void Arrive(std::unique_lock<std::mutex>&) {
    if (--waiting_ == 0) {
      start_ = Clock::now();
      open_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable open_;
  int waiting_;
  Clock::time_point start_;
};

// The first failure of any context; the others stop at their next run.
class FirstFailure {
 public:
  void Record(int context, int run, bool warmup, const std::exception& error) {
    std::lock_guard<std::mutex> lock(mutex_);
    failed_.store(true);
    if (error_) return;
    std::string where = std::string(warmup ? "warmup run " : "run ") + std::to_string(run + 1) +
                        " of execution context " + std::to_string(context + 1);
    const auto* sdk_error = dynamic_cast<const Exception*>(&error);
    const std::string code = sdk_error ? std::string(" (") + ToString(sdk_error->code()) + ")" : "";
    error_.emplace(ExitCode::kRuntimeFailure, where + " failed" + code + ": " + error.what());
  }
  bool failed() const { return failed_.load(); }
  void ThrowIfFailed() {
    if (error_) throw *error_;
  }

 private:
  std::mutex mutex_;
  std::atomic<bool> failed_{false};
  std::optional<ToolError> error_;
};

std::unique_ptr<ExecutionContext> CreateContext(const LoadedNetwork& network, bool profiling = false) {
  try {
    ExecutionOptions options;
    options.profiling = profiling;
    return network.runtime().CreateExecutionContext(network.id(), options);
  } catch (const Exception& error) {
    throw ToolError(ExitCode::kRuntimeFailure,
                    std::string("creating an execution context failed: ") + error.what());
  }
}

}  // namespace

BenchmarkResult RunBenchmark(const LoadedNetwork& network, const std::vector<HostTensor>& inputs,
                             const BenchmarkSettings& settings) {
  const int contexts_count = settings.concurrency;
  std::vector<Bindings> bindings;
  std::vector<std::unique_ptr<ExecutionContext>> contexts;
  for (int i = 0; i < contexts_count; ++i) {
    bindings.push_back(MakeBindings(network.signature(), inputs));
    contexts.push_back(CreateContext(network, settings.profiling));
  }

  std::vector<LatencyRecorder> latencies(contexts_count);
  std::vector<std::vector<ProfiledRun>> profiles(contexts_count);  // with settings.profiling
  StartGate gate(contexts_count);
  FirstFailure failure;
  Clock::time_point end;
  bool interrupted = false;
  {
    // Runs for a time have no known total: the line shows the runs done and the seconds.
    const std::size_t total =
        settings.duration_s > 0
            ? 0
            : static_cast<std::size_t>(contexts_count) * (settings.warmup + settings.iterations);
    std::optional<InterruptScope> interrupt;
    if (settings.stop_on_interrupt) interrupt.emplace();
    const auto stop = [&] { return failure.failed() || (interrupt && InterruptRequested()); };
    char label[64] = "running";
    if (settings.duration_s > 0) {
      std::snprintf(label, sizeof label, "running for %g s", settings.duration_s);
    }
    ProgressLine progress(std::cerr, label, total, settings.show_progress);
    const auto work = [&](int index) {
      ExecutionContext& context = *contexts[index];
      const Bindings& bound = bindings[index];
      bool arrived = false;
      int run = 0;
      try {
        for (run = 0; run < settings.warmup && !stop(); ++run) {
          context.Run(bound.inputs, bound.outputs);
          progress.Advance();
        }
        arrived = true;
        gate.ArriveAndWait();
        latencies[index].Reserve(static_cast<std::size_t>(settings.iterations));
        const auto deadline =
            gate.start() + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(settings.duration_s));
        const auto more = [&] {
          return run < settings.iterations || (settings.duration_s > 0 && Clock::now() < deadline);
        };
        for (run = 0; more() && !stop(); ++run) {
          const auto start = Clock::now();
          context.Run(bound.inputs, bound.outputs);
          latencies[index].Add(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
          if (settings.profiling && run < kMaxProfiledRunsPerContext) {
            profiles[index].push_back(TakeProfiledRun(
                context, index, run, std::chrono::duration<double, std::micro>(start - gate.start()).count()));
          }
          progress.Advance();
        }
      } catch (const std::exception& error) {
        failure.Record(index, run, !arrived, error);
        if (!arrived) gate.Arrive();
      }
    };
    std::vector<std::thread> threads;
    for (int i = 1; i < contexts_count; ++i) threads.emplace_back(work, i);
    work(0);  // the first context runs on this thread
    for (std::thread& thread : threads) thread.join();
    end = Clock::now();
    interrupted = interrupt && InterruptRequested();
  }
  failure.ThrowIfFailed();

  BenchmarkResult result;
  result.interrupted = interrupted;
  for (const LatencyRecorder& recorder : latencies) result.latency.Merge(recorder);
  result.wall_ms = std::chrono::duration<double, std::milli>(end - gate.start()).count();
  result.throughput =
      result.wall_ms > 0 ? 1000.0 * static_cast<double>(result.latency.count()) / result.wall_ms : 0;
  result.outputs = std::move(bindings.front().output_tensors);
  if (settings.profiling) {
    result.profile.steps = contexts.front()->GetProfiledSteps();
    result.profile.details = contexts.front()->GetProfiledStepDetails();
    for (auto& runs : profiles) {
      std::move(runs.begin(), runs.end(), std::back_inserter(result.profile.runs));
    }
  }
  return result;
}

std::vector<HostTensor> RunOnce(const LoadedNetwork& network, const std::vector<HostTensor>& inputs) {
  Bindings bound = MakeBindings(network.signature(), inputs);
  const std::unique_ptr<ExecutionContext> context = CreateContext(network);
  try {
    context->Run(bound.inputs, bound.outputs);
  } catch (const std::exception& error) {
    FirstFailure failure;
    failure.Record(0, 0, false, error);
    failure.ThrowIfFailed();
  }
  return std::move(bound.output_tensors);
}

}  // namespace backplane::sdk_run
