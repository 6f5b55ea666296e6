// The CpuOneDnn backend through the runtime: its device report (oneDNN version, ISA, threads,
// fast-math availability), the "threads" and "fast_math" options (bad values an error of
// Runtime::Create with a message), execution contexts on one loaded network (concurrent: identical results, no
// oversubscription deadlock; taking turns: each its own tensors), and the accuracy cost of fast_math on a conv net.
#include "onednn_test_support.hpp"

#include <backplane/discovery_report.hpp>

#include <cstdio>
#include <thread>

namespace backplane::onednn::testing {
namespace {

TensorInfo F32(TensorShape shape) { return {std::move(shape), DataType::kFloat32}; }

// Three convolutions (blocked tensors between them), a residual add, pooling and a matmul head.
Network ConvNet() {
  Network net;
  auto x = net.AddInput("x", F32({1, 8, 24, 24}));
  auto conv = [&](OutputSlot in, std::int64_t c_in, std::int64_t c_out, const std::string& name, unsigned seed) {
    Convolution2dDescriptor d;
    d.pads = {1, 1, 1, 1};
    auto w = Constant(net, name + "_w", {c_out, c_in, 3, 3}, seed, 1.0f / std::sqrt(9.0f * c_in));
    auto y = net.Add(d, {in, w, Constant(net, name + "_b", {c_out}, seed + 1, 0.1f)}, name);
    return net.Add(ActivationDescriptor{}, {y}, name + "_relu");
  };
  auto a = conv(x, 8, 32, "c1", 1);
  auto b = conv(a, 32, 32, "c2", 3);
  auto c = conv(b, 32, 32, "c3", 5);
  ElementwiseBinaryDescriptor add;
  auto s = net.Add(add, {c, a}, "residual");
  Pooling2dDescriptor gap;
  gap.global = true;
  gap.type = PoolingType::kAverage;
  FlattenDescriptor flatten;
  auto f = net.Add(flatten, {net.Add(gap, {s}, "gap")}, "flatten");
  FullyConnectedDescriptor fc;
  net.AddOutput("y", net.Add(fc, {f, Constant(net, "fc_w", {10, 32}, 7), Constant(net, "fc_b", {10}, 8)}, "fc"));
  net.AddOutput("features", s);
  return net;
}

TEST_CASE("backend: devices name oneDNN, the ISA, the thread count and fast-math availability") {
  auto runtime = MakeRuntime();
  REQUIRE(runtime->HasBackend(kOneDnn));
  for (const auto& info : runtime->GetBackends()) {
    if (info.id != kOneDnn) continue;
    REQUIRE(info.devices.size() == 1);
    const std::string& name = info.devices[0].name;
    CAPTURE(name);
    CHECK(name.find("oneDNN ") != std::string::npos);
    CHECK(name.find("ISA ") != std::string::npos);
    CHECK(name.find(std::to_string(std::thread::hardware_concurrency()) + " threads") != std::string::npos);
    CHECK(name.find("fast_math") != std::string::npos);
    CHECK(info.devices[0].kind == backend::DeviceKind::kCpu);
    MESSAGE("CpuOneDnn device: " << name);
  }
}

TEST_CASE("backend: the threads option, and bad option values rejected with a message") {
  const Network net = ConvNet();
  const std::vector<std::vector<float>> inputs{Random(8 * 24 * 24, 11)};
  std::vector<std::vector<float>> first;
  const std::vector<backend::BackendOptions> variants{
      {{"threads", "1"}}, {{"threads", "2"}}, {{"threads", "64"}},
      {{"threads", "2"}, {"adaptive_threads", "0"}},
      {{"threads", "2"}, {"adaptive_threads", "always"}}};  // the single-thread variants
  for (const auto& options : variants) {
    CAPTURE(options.at("threads"));
    CAPTURE(options.size());
    auto runtime = MakeRuntime(options);
    REQUIRE(runtime->HasBackend(kOneDnn));
    const Outcome outcome = CheckAgainstReference(*runtime, net, inputs);
    if (first.empty()) first = outcome.outputs;
    for (std::size_t o = 0; o < first.size(); ++o) CHECK(MaxRelativeError(outcome.outputs[o], first[o]) <= 1e-5);
  }
  // Backend API 2.0: a bad value is an error of Runtime::Create naming the backend, the key and
  // the value, not a backend that silently goes missing. "two" and "yes" fail the declared
  // types (the runtime's check), "0" and "2" the backend's own range checks; "thread" is no
  // option of CpuOneDnn.
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"threads", "0"}, {"threads", "two"}, {"fast_math", "yes"}, {"adaptive_threads", "2"},
           {"winograd", "maybe"}, {"thread", "2"}}) {
    CAPTURE(key);
    CAPTURE(value);
    std::string message;
    try {
      MakeRuntime({{key, value}});
    } catch (const Exception& error) {
      CHECK(error.code() == ErrorCode::kInvalidArgument);
      message = error.what();
    }
    CAPTURE(message);
    CHECK(message.find("CpuOneDnn") != std::string::npos);
    CHECK(message.find(key) != std::string::npos);
    CHECK(message.find(value) != std::string::npos);
  }
  // fast_math is a boolean: true and false are accepted too.
  CHECK(MakeRuntime({{"fast_math", "false"}})->HasBackend(kOneDnn));
  CHECK(MakeRuntime({{"winograd", "0"}})->HasBackend(kOneDnn));
}

TEST_CASE("backend: concurrent execution contexts on one network give identical results") {
  // Adaptive threads off: under load a run may switch to the single-thread variants, whose
  // results agree within rounding but not bit for bit.
  auto runtime = MakeRuntime({{"threads", "2"}, {"adaptive_threads", "0"}});
  const Network net = ConvNet();
  OptimizeOptions options;
  options.backends = {kOneDnn, kRef};
  const NetworkId id = runtime->LoadNetwork(runtime->Optimize(net, options));
  // Each context its own input: a layer reading or writing another context's tensors shows.
  constexpr int kContexts = 4, kRuns = 5;
  std::vector<std::vector<std::vector<float>>> inputs, expected;
  auto solo = runtime->CreateExecutionContext(id);
  for (int t = 0; t < kContexts; ++t) {
    inputs.push_back({Random(8 * 24 * 24, 12 + t)});
    expected.push_back(RunOnce(*runtime, id, *solo, inputs.back()));
  }
  std::vector<int> mismatches(kContexts, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kContexts; ++t) {
    threads.emplace_back([&, t] {
      auto context = runtime->CreateExecutionContext(id);
      for (int r = 0; r < kRuns; ++r) {
        const auto outputs = RunOnce(*runtime, id, *context, inputs[t]);
        for (std::size_t o = 0; o < outputs.size(); ++o) mismatches[t] += outputs[o] != expected[t][o] ? 1 : 0;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kContexts; ++t) CHECK(mismatches[t] == 0);
  runtime->UnloadNetwork(id);
}

TEST_CASE("backend: execution contexts taking turns on one network each read and write their own tensors") {
  // The workloads keep their oneDNN memory objects between runs, re-pointed at each run's
  // tensors: contexts (their own tensors and scratch) alternating on one thread must not see
  // the tensors of the context that ran before.
  auto runtime = MakeRuntime({{"threads", "2"}, {"adaptive_threads", "0"}});
  OptimizeOptions options;
  options.backends = {kOneDnn, kRef};
  const NetworkId id = runtime->LoadNetwork(runtime->Optimize(ConvNet(), options));
  auto first = runtime->CreateExecutionContext(id);
  auto second = runtime->CreateExecutionContext(id);
  const std::vector<std::vector<float>> a{Random(8 * 24 * 24, 21)}, b{Random(8 * 24 * 24, 22)};
  const auto expected_a = RunOnce(*runtime, id, *first, a);
  const auto expected_b = RunOnce(*runtime, id, *second, b);
  for (int turn = 0; turn < 3; ++turn) {
    CAPTURE(turn);
    CHECK(RunOnce(*runtime, id, *second, b) == expected_b);
    CHECK(RunOnce(*runtime, id, *first, a) == expected_a);
    CHECK(RunOnce(*runtime, id, *first, b) == expected_b);
  }
  runtime->UnloadNetwork(id);
}

TEST_CASE("backend: fast_math accuracy on a conv net (max relative error vs f32, printed)") {
  const Network net = ConvNet();
  const std::vector<std::vector<float>> inputs{Random(8 * 24 * 24, 13)};
  auto exact = MakeRuntime();
  auto fast = MakeRuntime({{"fast_math", "1"}});
  REQUIRE(fast->HasBackend(kOneDnn));
  const Outcome f32 = RunOn(*exact, net, {kOneDnn, kRef}, inputs);
  const Outcome bf16 = RunOn(*fast, net, {kOneDnn, kRef}, inputs);
  double worst = 0.0;
  for (std::size_t o = 0; o < f32.outputs.size(); ++o) worst = std::max(worst, MaxRelativeError(bf16.outputs[o], f32.outputs[o]));
  std::string device;
  for (const auto& info : fast->GetBackends()) {
    if (info.id == kOneDnn) device = info.devices.at(0).name;
  }
  std::printf("CpuOneDnn fast_math=1: max relative error vs f32 on the conv net = %.3g (%s)\n", worst, device.c_str());
  if (device.find("fast_math unavailable") != std::string::npos) {
    CHECK(worst <= 1e-5);  // no native bf16 on this CPU: computed in f32
  } else {
    CHECK(worst > 1e-6);   // bf16 was used
    CHECK(worst <= 3e-2);  // bf16 keeps 8 bits of mantissa
  }
}

}  // namespace
}  // namespace backplane::onednn::testing
