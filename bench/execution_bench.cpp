// Execution benchmark (issue "Execution"): the runtime's per-inference overhead on a one-op
// network, and the reference backend's GFLOP/s on a 3x3 convolution 64->64 at 56x56, both
// through the public API (Network -> Optimize -> LoadNetwork -> ExecutionContext::Run).
// Several rounds, medians; prints a table. Not a test: timings never fail a build.
#include <backplane/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace backplane;
using Clock = std::chrono::steady_clock;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Median over `rounds` of the mean time of `batch` runs, in microseconds.
template <typename F>
double TimeUs(int rounds, int batch, F&& run) {
  std::vector<double> samples;
  for (int r = 0; r < rounds; ++r) {
    const auto start = Clock::now();
    for (int i = 0; i < batch; ++i) run();
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() / batch);
  }
  return Median(samples);
}

std::vector<float> Random(std::size_t n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(n);
  for (auto& v : values) v = uniform(generator);
  return values;
}

struct Loaded {
  NetworkId id;
  std::unique_ptr<ExecutionContext> context;
  std::unique_ptr<ExecutionContext> profiled;
};

Loaded Load(Runtime& runtime, Network& network) {
  OptimizeOptions options;
  options.backends = {"CpuRef"};
  const NetworkId id = runtime.LoadNetwork(runtime.Optimize(network, options));
  return {id, runtime.CreateExecutionContext(id), runtime.CreateExecutionContext(id, {true})};
}

double WorkloadUs(ExecutionContext& profiled, const std::vector<InputBinding>& in,
                  const std::vector<OutputBinding>& out, int rounds) {
  std::vector<double> samples;
  for (int r = 0; r < rounds; ++r) {
    profiled.Run(in, out);
    double total = 0;
    for (const auto& event : profiled.GetProfile()) {
      if (!event.backend.IsEmpty()) total += event.duration_us;
    }
    samples.push_back(total);
  }
  return Median(samples);
}

}  // namespace

int main() {
  auto runtime = Runtime::Create();
  if (!runtime->HasBackend("CpuRef")) {
    std::fprintf(stderr, "execution_bench: CpuRef is not registered\n");
    return 1;
  }

  // 1. One ReLU over 16 floats: the run time is almost all runtime overhead.
  Network tiny;
  tiny.AddOutput("y", tiny.Add(ActivationDescriptor{}, {tiny.AddInput("x", {{1, 16}})}, "relu"));
  Loaded small = Load(*runtime, tiny);
  std::vector<float> x16 = Random(16, 1), y16(16);
  const std::vector<InputBinding> small_in{{"x", {{{1, 16}}, x16.data()}}};
  const std::vector<OutputBinding> small_out{{"y", {{{1, 16}}, y16.data()}}};
  for (int i = 0; i < 1000; ++i) small.context->Run(small_in, small_out);
  const double run_us = TimeUs(15, 20000, [&] { small.context->Run(small_in, small_out); });
  const double op_us = WorkloadUs(*small.profiled, small_in, small_out, 200);

  // 2. Conv 3x3, 64 -> 64 channels, 56x56, pad 1 (ResNet's conv2_x).
  Network conv_net;
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  const auto x = conv_net.AddInput("x", {{1, 64, 56, 56}});
  const auto w = conv_net.AddConstant("w", {64, 64, 3, 3}, Random(64 * 64 * 9, 2));
  const auto b = conv_net.AddConstant("b", {64}, Random(64, 3));
  conv_net.AddOutput("y", conv_net.Add(conv, {x, w, b}, "conv"));
  Loaded big = Load(*runtime, conv_net);
  std::vector<float> input = Random(64 * 56 * 56, 4), output(64 * 56 * 56);
  const std::vector<InputBinding> big_in{{"x", {{{1, 64, 56, 56}}, input.data()}}};
  const std::vector<OutputBinding> big_out{{"y", {{{1, 64, 56, 56}}, output.data()}}};
  big.context->Run(big_in, big_out);
  const double conv_us = TimeUs(9, 3, [&] { big.context->Run(big_in, big_out); });
  const double flops = 2.0 * 64 * 64 * 9 * 56 * 56;
  const double gflops = flops / (conv_us * 1e3);

  std::printf("Backplane execution benchmark (CpuRef, medians)\n\n");
  std::printf("%-44s %12s %10s %6s\n", "measure", "value", "target", "met");
  std::printf("%-44s %9.3f us %10s %6s\n", "one-op network: Run()", run_us, "-", "-");
  std::printf("%-44s %9.3f us %10s %6s\n", "  of which the op itself (profiled)", op_us, "-", "-");
  std::printf("%-44s %9.3f us %10s %6s\n", "  runtime overhead per inference", run_us - op_us, "< 5 us",
              run_us - op_us < 5.0 ? "yes" : "no");
  std::printf("%-44s %9.1f us %10s %6s\n", "conv 3x3 64->64 @56x56: Run()", conv_us, "-", "-");
  std::printf("%-44s %8.2f GF/s %10s %6s\n", "  reference GFLOP/s", gflops, "> 0.25", gflops > 0.25 ? "yes" : "no");
  std::printf("%-44s %9.1f %% %10s %6s\n", "  of the ~300 GFLOP/s 2-core fp32 peak", 100.0 * gflops / 300.0, "-", "-");
  std::printf("\n(Arm NN 20.08's reference backend: about 0.25 GFLOP/s on this convolution.)\n");
  runtime->UnloadNetwork(small.id);
  runtime->UnloadNetwork(big.id);
  return 0;
}
