// GpuOpenCl through the runtime's public API, loaded as a plugin from the build tree's backend
// folder beside CpuRef. Each case runs in a process of its own (CMakeLists.txt) with the
// environment it is about: no ICD vendor at all, a CPU device not allowed, a CPU device allowed.
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>
#include <backplane/execution.hpp>
#include <backplane/network.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

const backplane::BackendId kOpenCl("GpuOpenCl");
const backplane::BackendId kCpuRef("CpuRef");

std::unique_ptr<backplane::Runtime> MakeRuntime(const backplane::backend::BackendOptions& opencl_options = {}) {
  backplane::RuntimeOptions options;
  options.backend_paths = {BACKPLANE_TEST_BACKEND_DIR};
  options.enable_static_backends = false;
  if (!opencl_options.empty()) options.backend_options[kOpenCl] = opencl_options;
  return backplane::Runtime::Create(options);
}

backplane::BackendInfo InfoOf(const backplane::Runtime& runtime, const backplane::BackendId& id) {
  for (const auto& info : runtime.GetBackends()) {
    if (info.id == id) return info;
  }
  FAIL("backend ", id.Get(), " is not registered");
  return {};
}

// x [2,4] -> relu -> y, optimized for {GpuOpenCl, CpuRef}, loaded and run: y must be relu(x).
backplane::OptimizedNetwork RunRelu(backplane::Runtime& runtime) {
  backplane::Network network;
  const backplane::TensorInfo info{{2, 4}, backplane::DataType::kFloat32};
  network.AddOutput("y", network.Add(backplane::ActivationDescriptor{}, {network.AddInput("x", info)}, "relu"));
  backplane::OptimizeOptions options;
  options.backends = {kOpenCl, kCpuRef};
  backplane::OptimizedNetwork optimized = runtime.Optimize(network, options);
  backplane::OptimizedNetwork report = runtime.Optimize(network, options);
  const auto id = runtime.LoadNetwork(std::move(optimized));
  auto context = runtime.CreateExecutionContext(id);
  const std::vector<float> x = {-1, 2, -3, 4, 0, -0.5f, 6, -7};
  std::vector<float> y(8, 99.0f);
  context->Run({{"x", {info, x.data()}}}, {{"y", {info, y.data()}}});
  CHECK(y == std::vector<float>{0, 2, 0, 4, 0, 0, 6, 0});
  return report;
}

const backplane::LayerPlacement& PlacementOf(const backplane::OptimizedNetwork& network, const std::string& layer) {
  for (const auto& placement : network.GetPlacement()) {
    if (placement.layer == layer) return placement;
  }
  FAIL("no placement for layer ", layer);
  return network.GetPlacement().front();
}

}  // namespace

TEST_CASE("no ICD vendor: GpuOpenCl is registered but unavailable with the reason, CpuRef runs everything") {
  auto runtime = MakeRuntime();
  REQUIRE(runtime->HasBackend(kCpuRef));
  const auto info = InfoOf(*runtime, kOpenCl);
  CHECK_FALSE(info.available);
  CHECK(info.unavailable_reason == "no OpenCL platform (ICD loader found no vendors)");
  REQUIRE(info.devices.size() == 1);
  CHECK_FALSE(info.devices[0].available);
  CHECK(info.devices[0].reason == "no OpenCL platform (ICD loader found no vendors)");

  const auto report = RunRelu(*runtime);
  const auto& relu = PlacementOf(report, "relu");
  CHECK(relu.backend == kCpuRef);
  CHECK(relu.reason ==
        "GpuOpenCl: unavailable: no OpenCL platform (ICD loader found no vendors); placed on CpuRef");
}

TEST_CASE("CPU device not allowed: unavailable, saying which CPU device and how to allow it") {
  auto runtime = MakeRuntime();
  const auto info = InfoOf(*runtime, kOpenCl);
  if (info.available || info.unavailable_reason.rfind("no GPU device; ", 0) != 0) {
    MESSAGE("SKIPPED: this machine has a GPU or no OpenCL device at all (" << info.unavailable_reason << ")");
    return;
  }
  const std::string& reason = info.unavailable_reason;
  CHECK(reason.find("no GPU device; CPU device '") == 0);
  CHECK(reason.find("' present but not allowed (set BACKPLANE_OPENCL_ALLOW_CPU=1 or backend option "
                    "allow_cpu_device=1)") != std::string::npos);
  bool listed = false;
  for (const auto& device : info.devices) {
    if (device.kind != backplane::backend::DeviceKind::kCpu) continue;
    listed = true;
    CHECK_FALSE(device.available);
    CHECK(device.reason.find("present but not allowed") != std::string::npos);
  }
  CHECK(listed);
  const auto report = RunRelu(*runtime);
  CHECK(PlacementOf(report, "relu").reason == "GpuOpenCl: unavailable: " + reason + "; placed on CpuRef");
}

TEST_CASE("CPU device allowed by the backend option alone: available, and layers are placed on it") {
  auto runtime = MakeRuntime({{"allow_cpu_device", "1"}});
  const auto info = InfoOf(*runtime, kOpenCl);
  if (info.unavailable_reason.rfind("no OpenCL platform", 0) == 0) {
    MESSAGE("SKIPPED: no OpenCL device at all (" << info.unavailable_reason << ")");
    return;
  }
  CHECK(info.available);
  CHECK(info.unavailable_reason.empty());
  const auto report = RunRelu(*runtime);
  CHECK(PlacementOf(report, "relu").backend == kOpenCl);
}

TEST_CASE("CPU device allowed by the environment: available, reported as such, networks load and run") {
  auto runtime = MakeRuntime();
  const auto info = InfoOf(*runtime, kOpenCl);
  if (info.unavailable_reason.rfind("no OpenCL platform", 0) == 0) {
    MESSAGE("SKIPPED: no OpenCL device on this machine (" << info.unavailable_reason << ")");
    return;
  }
  REQUIRE(info.available);
  CHECK(info.unavailable_reason.empty());
  std::size_t available = 0;
  for (const auto& device : info.devices) {
    if (!device.available) continue;
    ++available;
    if (device.kind == backplane::backend::DeviceKind::kCpu) {
      CHECK(device.name.find("(cpu OpenCL device, allowed by environment variable BACKPLANE_OPENCL_ALLOW_CPU=1)") !=
            std::string::npos);
    }
  }
  CHECK(available == 1);
  // Whatever the op table takes runs on the device, the rest on CpuRef; results are right.
  const auto report = RunRelu(*runtime);
  const auto& relu = PlacementOf(report, "relu");
  if (relu.backend == kCpuRef) CHECK(relu.reason.find("GpuOpenCl: ") == 0);
  // A second load in the same runtime reuses the context's device.
  RunRelu(*runtime);

  // Several execution contexts run one loaded network at once (LaunchMutex, per-context buffers).
  backplane::Network network;
  const backplane::TensorInfo big{{64, 32}, backplane::DataType::kFloat32};
  auto x = network.AddInput("x", big);
  auto relu_out = network.Add(backplane::ActivationDescriptor{}, {x}, "relu");
  backplane::ActivationDescriptor tanh;
  tanh.function = backplane::ActivationFunction::kTanh;
  network.AddOutput("y", network.Add(tanh, {relu_out}, "tanh"));
  backplane::OptimizeOptions options;
  options.backends = {kOpenCl, kCpuRef};
  const auto id = runtime->LoadNetwork(runtime->Optimize(network, options));
  constexpr int kThreads = 4;
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto context = runtime->CreateExecutionContext(id);
      for (int run = 0; run < 20; ++run) {
        std::vector<float> in(64 * 32), out(64 * 32, 99.0f);
        for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>((i * 7 + t * 13 + run) % 17) - 8.0f;
        context->Run({{"x", {big, in.data()}}}, {{"y", {big, out.data()}}});
        for (std::size_t i = 0; i < in.size(); ++i) {
          const float expected = std::tanh(std::max(in[i], 0.0f));
          if (std::abs(out[i] - expected) > 1e-5f) ++wrong[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(wrong == std::vector<int>(kThreads, 0));
}

TEST_CASE("malformed backend option: Runtime::Create fails naming GpuOpenCl, the key and what is accepted") {
  // Backend API 2.0: the runtime checks options against the backend's declared ones, so an
  // unknown key or a value of the wrong type is an error, not a backend that goes missing.
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"allow_cpu", "1"}, {"allow_cpu_device", "yes"}}) {
    CAPTURE(key);
    std::string message;
    try {
      MakeRuntime({{key, value}});
    } catch (const backplane::Exception& error) {
      CHECK(error.code() == backplane::ErrorCode::kInvalidArgument);
      message = error.what();
    }
    CAPTURE(message);
    CHECK(message.find("GpuOpenCl") != std::string::npos);
    CHECK(message.find(key) != std::string::npos);
    CHECK(message.find(value) != std::string::npos);
    CHECK(message.find("allow_cpu_device") != std::string::npos);  // what is accepted
  }
}

namespace {

backplane::OutputSlot Constant(backplane::Network& net, const std::string& name, const backplane::TensorShape& shape,
                               float scale) {
  std::vector<float> values(static_cast<std::size_t>(shape.NumElements()));
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = scale * (static_cast<float>((i * 37 + 11) % 23) - 11.0f) / 11.0f;
  }
  return net.AddConstant(name, shape, values);
}

backplane::OutputSlot Conv(backplane::Network& net, backplane::OutputSlot x, std::int64_t in, std::int64_t out,
                           std::uint32_t groups, const std::string& name) {
  backplane::Convolution2dDescriptor d;
  d.pads = {1, 1, 1, 1};
  d.groups = groups;
  auto w = Constant(net, name + "_w", {out, in / groups, 3, 3}, 0.3f);
  return net.Add(d, {x, w, Constant(net, name + "_b", {out}, 0.1f)}, name);
}

backplane::OutputSlot Act(backplane::Network& net, backplane::OutputSlot x, backplane::ActivationFunction function,
                          const std::string& name, float alpha = 0.0f, float beta = 0.0f) {
  backplane::ActivationDescriptor d;
  d.function = function;
  d.alpha = alpha;
  d.beta = beta;
  return net.Add(d, {x}, name);
}

backplane::OutputSlot Add(backplane::Network& net, backplane::OutputSlot a, backplane::OutputSlot b,
                          const std::string& name) {
  return net.Add(backplane::ElementwiseBinaryDescriptor{}, {a, b}, name);
}

// Optimizes `network` for `backends`, runs it once on `inputs` (signature order) and returns
// the outputs and, in `placement`, where each layer went; in `implementations`, per layer of a
// profiled run, what its backend says runs it.
std::vector<std::vector<float>> RunOn(backplane::Runtime& runtime, const backplane::Network& network,
                                      std::vector<backplane::BackendId> backends,
                                      const std::vector<std::vector<float>>& inputs,
                                      std::vector<backplane::LayerPlacement>* placement = nullptr,
                                      std::map<std::string, std::string>* implementations = nullptr) {
  backplane::OptimizeOptions options;
  options.backends = std::move(backends);
  backplane::OptimizedNetwork optimized = runtime.Optimize(network, options);
  if (placement) *placement = optimized.GetPlacement();
  const auto id = runtime.LoadNetwork(std::move(optimized));
  const auto signature = runtime.GetNetworkSignature(id);
  std::vector<backplane::InputBinding> in;
  for (std::size_t i = 0; i < signature.inputs.size(); ++i) {
    in.push_back({signature.inputs[i].name, {signature.inputs[i].info, inputs.at(i).data()}});
  }
  std::vector<std::vector<float>> outputs;
  for (const auto& output : signature.outputs) {
    outputs.emplace_back(static_cast<std::size_t>(output.info.shape.NumElements()), std::nanf(""));
  }
  std::vector<backplane::OutputBinding> out;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    out.push_back({signature.outputs[i].name, {signature.outputs[i].info, outputs[i].data()}});
  }
  backplane::ExecutionOptions execution;
  execution.profiling = implementations != nullptr;
  auto context = runtime.CreateExecutionContext(id, execution);
  context->Run(in, out);
  if (implementations) {
    for (std::size_t s = 0; s < context->GetProfiledSteps().size(); ++s) {
      (*implementations)[context->GetProfiledSteps()[s].layer] = context->GetProfiledStepDetails().at(s).implementation;
    }
  }
  context.reset();
  runtime.UnloadNetwork(id);
  return outputs;
}

}  // namespace

TEST_CASE("fusion: a product with the residual add and activation after it runs as one layer, as CpuRef computes") {
  using backplane::ActivationFunction;
  auto runtime = MakeRuntime();
  if (!InfoOf(*runtime, kOpenCl).available) {
    MESSAGE("SKIPPED: no usable OpenCL device (" << InfoOf(*runtime, kOpenCl).unavailable_reason << ")");
    return;
  }
  backplane::Network net;
  const backplane::TensorInfo image{{2, 8, 9, 7}, backplane::DataType::kFloat32};
  auto x = net.AddInput("x", image);
  auto a = Act(net, Conv(net, x, 8, 8, 1, "a"), ActivationFunction::kRelu, "a_relu");  // conv + act
  auto b = Act(net, Add(net, Conv(net, a, 8, 8, 1, "b"), x, "b_add"), ActivationFunction::kRelu, "b_relu");
  auto c = Act(net, Add(net, x, Conv(net, x, 8, 8, 1, "c"), "c_add"), ActivationFunction::kClip, "c_clip", 0, 6);
  auto d = Act(net, Conv(net, b, 8, 8, 8, "d"), ActivationFunction::kLeakyRelu, "d_leaky", 0.1f);  // depthwise
  auto e = Conv(net, c, 8, 8, 1, "e");  // read twice: not fused with the relu
  net.AddOutput("e_out", e);
  auto e_relu = Act(net, e, ActivationFunction::kRelu, "e_relu");
  backplane::TensorInfo channel{{1, 8, 1, 1}, backplane::DataType::kFloat32};
  auto f = Add(net, Conv(net, d, 8, 8, 1, "f"), net.AddInput("scale", channel), "f_add");  // broadcast: not a residual
  net.AddOutput("sum", Add(net, Add(net, e_relu, f, "sum1"), a, "sum2"));
  // Products of matrices: fully connected + GELU, matmul + residual, matmul of a tensor by itself.
  const backplane::TensorInfo rows{{4, 16}, backplane::DataType::kFloat32};
  auto r = net.AddInput("r", rows);
  backplane::FullyConnectedDescriptor fc;
  fc.transpose_b = true;
  auto g = Act(net, net.Add(fc, {r, Constant(net, "g_w", {16, 16}, 0.3f), Constant(net, "g_b", {16}, 0.1f)}, "g"),
               ActivationFunction::kGelu, "g_gelu");
  auto h = Add(net, net.Add(backplane::MatMulDescriptor{}, {g, Constant(net, "h_w", {16, 16}, 0.2f)}, "h"), r, "h_add");
  net.AddOutput("h_out", h);  // read twice: the tanh after it stays alone
  auto k = net.Add(backplane::MatMulDescriptor{},
                   {Act(net, h, ActivationFunction::kTanh, "t"), Constant(net, "k_w", {16, 16}, 0.2f)}, "k");
  net.AddOutput("k_out", Act(net, k, ActivationFunction::kSigmoid, "k_sigmoid"));
  const backplane::TensorInfo square_info{{6, 6}, backplane::DataType::kFloat32};
  auto q = net.AddInput("q", square_info);
  auto square = net.Add(backplane::MatMulDescriptor{}, {q, q}, "square");  // one tensor twice: not fused
  net.AddOutput("square_out", Act(net, square, ActivationFunction::kRelu, "square_relu"));

  std::vector<std::vector<float>> inputs(4);
  inputs[0].resize(static_cast<std::size_t>(image.shape.NumElements()));
  for (std::size_t i = 0; i < inputs[0].size(); ++i) inputs[0][i] = static_cast<float>((i * 13) % 19) / 9.0f - 1.0f;
  inputs[1] = {0.5f, -1, 2, 0, 1, -0.5f, 0.25f, 3};
  inputs[2].resize(64);
  for (std::size_t i = 0; i < 64; ++i) inputs[2][i] = static_cast<float>((i * 7) % 11) / 5.0f - 1.0f;
  inputs[3].resize(36);
  for (std::size_t i = 0; i < 36; ++i) inputs[3][i] = static_cast<float>((i * 5) % 7) / 3.0f - 1.0f;

  std::vector<backplane::LayerPlacement> placement;
  std::map<std::string, std::string> implementations;
  const auto fused = RunOn(*runtime, net, {kOpenCl, kCpuRef}, inputs, &placement, &implementations);
  const auto expected = RunOn(*runtime, net, {kCpuRef}, inputs);
  REQUIRE(fused.size() == expected.size());
  for (std::size_t o = 0; o < fused.size(); ++o) {
    CAPTURE(o);
    for (std::size_t i = 0; i < fused[o].size(); ++i) {
      CHECK(fused[o][i] == doctest::Approx(expected[o][i]).epsilon(1e-4));
    }
  }
  std::vector<std::string> fused_layers, alone;
  for (const auto& p : placement) {
    if (p.type == backplane::backend::LayerType::kPreCompiled) {
      CHECK(p.backend == kOpenCl);
      fused_layers.push_back(p.layer);
    } else if (p.backend == kOpenCl) {
      alone.push_back(p.layer);
    }
  }
  std::sort(fused_layers.begin(), fused_layers.end());
  CHECK(fused_layers == std::vector<std::string>{"a+a_relu", "b+b_add+b_relu", "c+c_add+c_clip", "d+d_leaky",
                                                 "g+g_gelu", "h+h_add", "k+k_sigmoid"});
  for (const char* layer : {"e", "e_relu", "f", "f_add", "t", "square", "square_relu"}) {
    CAPTURE(layer);
    CHECK(std::find(alone.begin(), alone.end(), layer) != alone.end());
  }
  // What the profile says runs the products: the depthwise convolution its direct kernel, the
  // others a GEMM (CLBlast's or the tiled kernel, by the device's kind), after im2col unless 1x1.
  CHECK(implementations["d+d_leaky"].rfind("conv_direct", 0) == 0);
  for (const char* layer : {"a+a_relu", "e", "g+g_gelu", "h+h_add", "square"}) {
    CAPTURE(layer);
    const std::string& implementation = implementations[layer];
    const bool gemm =
        implementation.find("CLBlast") != std::string::npos || implementation.find("gemm_tiled") != std::string::npos;
    CHECK(gemm);
  }
}
