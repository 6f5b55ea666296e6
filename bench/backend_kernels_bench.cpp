// Compute-kernel benchmark across backends: GFLOP/s of a 3x3 convolution (64->64 channels at
// 56x56, ResNet's conv2_x) and of square matrix products (MatMul 512^3 and 1024^3), each as a
// one-layer network loaded strictly on one backend, through the public API. The backends are
// measured interleaved (round r runs every backend once) and the table shows medians over the
// rounds, so machine noise hits all of them alike.
//
//   backplane_backend_kernels_bench [--backends A,B,...] [--rounds N] [--threads N] [--chain N]
//
// --chain N (default 1): each network applies its layer N times in a row (the output feeds the
// next layer; the weights stay the same), so one run moves its input to the device and its
// output back once for N layers: on a discrete GPU that shows the layers' own speed, which one
// layer per run hides behind the transfers. GFLOP/s count all N layers.
//
// Default backends: every registered, available one of CpuOneDnn, GpuOpenCl and CpuRef. The
// OpenCL backend may use a CPU OpenCL device (PoCL) here: it is given allow_cpu_device=1, and
// the table names the device it ran on. Not a test: timings never fail a build.
#include <backplane/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace backplane;
using Clock = std::chrono::steady_clock;

constexpr double kPeakGflops = 300.0;  // ~2 cores x AVX-512 FMA, fp32

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::vector<float> Random(std::size_t n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(n);
  for (auto& v : values) v = uniform(generator);
  return values;
}

// One single-layer network with its bound inputs and outputs.
struct Problem {
  std::string name;
  double flops = 0;
  Network network;
  std::vector<std::vector<float>> inputs;
  std::vector<TensorInfo> input_infos;
  std::vector<std::string> input_names;
  TensorInfo output_info;
  std::vector<float> output;
};

std::string Chained(const std::string& name, int chain) {
  return chain == 1 ? name : name + " x" + std::to_string(chain);
}

Problem Convolution(int chain) {
  Problem problem;
  problem.name = Chained("conv 3x3 64->64 @56x56", chain);
  problem.flops = 2.0 * 64 * 64 * 9 * 56 * 56 * chain;
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  const TensorInfo x_info{{1, 64, 56, 56}};
  auto y = problem.network.AddInput("x", x_info);
  const auto w = problem.network.AddConstant("w", {64, 64, 3, 3}, Random(64 * 64 * 9, 2));
  const auto b = problem.network.AddConstant("b", {64}, Random(64, 3));
  for (int i = 0; i < chain; ++i) y = problem.network.Add(conv, {y, w, b}, "conv" + std::to_string(i));
  problem.network.AddOutput("y", y);
  problem.inputs = {Random(64 * 56 * 56, 4)};
  problem.input_infos = {x_info};
  problem.input_names = {"x"};
  problem.output_info = TensorInfo{{1, 64, 56, 56}};
  return problem;
}

Problem MatrixProduct(std::uint32_t n, int chain) {
  Problem problem;
  problem.name = Chained("matmul " + std::to_string(n) + "^3", chain);
  problem.flops = 2.0 * n * n * n * chain;
  const TensorInfo info{{n, n}};
  auto c = problem.network.AddInput("a", info);
  const auto b = problem.network.AddInput("b", info);
  for (int i = 0; i < chain; ++i) c = problem.network.Add(MatMulDescriptor{}, {c, b}, "matmul" + std::to_string(i));
  problem.network.AddOutput("c", c);
  problem.inputs = {Random(std::size_t{n} * n, 5), Random(std::size_t{n} * n, 6)};
  problem.input_infos = {info, info};
  problem.input_names = {"a", "b"};
  problem.output_info = info;
  return problem;
}

struct Loaded {
  std::string backend;
  NetworkId id;
  std::unique_ptr<ExecutionContext> context;
  std::vector<double> samples;  // ms per run, one per round
};

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

int Usage(const char* message) {
  std::fprintf(stderr, "backend_kernels_bench: %s\nusage: backplane_backend_kernels_bench "
                       "[--backends A,B,...] [--rounds N] [--threads N] [--chain N]\n", message);
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> backends;
  int rounds = 7;
  int threads = 2;
  int chain = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (i + 1 >= argc) return Usage(("missing value after " + option).c_str());
    const std::string value = argv[++i];
    if (option == "--backends") {
      backends = Split(value);
    } else if (option == "--rounds") {
      rounds = std::atoi(value.c_str());
      if (rounds < 1) return Usage("--rounds needs a count >= 1");
    } else if (option == "--threads") {
      threads = std::atoi(value.c_str());
      if (threads < 1) return Usage("--threads needs a count >= 1");
    } else if (option == "--chain") {
      chain = std::atoi(value.c_str());
      if (chain < 1 || chain > 16) return Usage("--chain needs a count from 1 to 16 (values grow with every layer)");
    } else {
      return Usage(("unknown option " + option).c_str());
    }
  }

  RuntimeOptions options;
  options.backend_options[BackendId(kAllBackends)]["threads"] = std::to_string(threads);
  options.backend_options[BackendId("GpuOpenCl")]["allow_cpu_device"] = "1";
  std::unique_ptr<Runtime> runtime;
  try {
    runtime = Runtime::Create(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "backend_kernels_bench: %s\n", error.what());
    return 1;
  }
  std::vector<BackendInfo> infos;
  if (backends.empty()) {
    for (const char* id : {"CpuOneDnn", "GpuOpenCl", "CpuRef"}) backends.push_back(id);
  }
  std::vector<std::string> available;
  for (const auto& id : backends) {
    bool found = false;
    for (const auto& info : runtime->GetBackends()) {
      if (info.id.Get() != id) continue;
      found = true;
      if (info.available) {
        available.push_back(id);
        infos.push_back(info);
      } else {
        std::printf("%s: unavailable (%s)\n", id.c_str(), info.unavailable_reason.c_str());
      }
    }
    if (!found) std::printf("%s: not registered (sdk-info says why)\n", id.c_str());
  }
  if (available.empty()) return Usage("none of the backends is registered and available");

  std::printf("Backplane backend kernels benchmark: %d rounds, interleaved, medians; threads=%d\n", rounds, threads);
  for (const auto& info : infos) {
    // Devices as listed without the runtime's options (the OpenCL backend's CPU device shows
    // as not allowed there, though allow_cpu_device=1 lets this runtime use it).
    for (const auto& device : info.devices) {
      std::printf("  %-10s device %s [%s]\n", info.id.Get().c_str(), device.name.c_str(),
                  backend::ToString(device.kind));
    }
  }
  std::printf("\n%-24s %-10s %10s %10s %8s\n", "problem", "backend", "ms", "GFLOP/s", "% peak");

  std::vector<Problem> problems;
  problems.push_back(Convolution(chain));
  problems.push_back(MatrixProduct(512, chain));
  problems.push_back(MatrixProduct(1024, chain));
  for (auto& problem : problems) {
    problem.output.resize(static_cast<std::size_t>(problem.output_info.shape.NumElements()));
    std::vector<InputBinding> in;
    for (std::size_t i = 0; i < problem.inputs.size(); ++i) {
      in.push_back({problem.input_names[i], {problem.input_infos[i], problem.inputs[i].data()}});
    }
    const std::vector<OutputBinding> out{{problem.network.GetOutputNames().front(), {problem.output_info, problem.output.data()}}};

    std::vector<Loaded> loaded;
    for (const auto& id : available) {
      OptimizeOptions optimize;
      optimize.backends = {BackendId(id)};
      optimize.strict = true;
      try {
        const NetworkId network = runtime->LoadNetwork(runtime->Optimize(problem.network, optimize));
        loaded.push_back({id, network, runtime->CreateExecutionContext(network), {}});
        for (int warm = 0; warm < 2; ++warm) loaded.back().context->Run(in, out);
      } catch (const std::exception& error) {
        std::printf("%-24s %-10s %s\n", problem.name.c_str(), id.c_str(), error.what());
      }
    }
    // Each round runs every backend for about the same wall time, at least one run.
    for (int round = 0; round < rounds; ++round) {
      for (auto& entry : loaded) {
        int runs = 0;
        const auto start = Clock::now();
        double elapsed = 0;
        do {
          entry.context->Run(in, out);
          ++runs;
          elapsed = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        } while (elapsed < 100.0);
        entry.samples.push_back(elapsed / runs);
      }
    }
    for (auto& entry : loaded) {
      const double ms = Median(entry.samples);
      const double gflops = problem.flops / (ms * 1e6);
      std::printf("%-24s %-10s %10.3f %10.1f %7.1f%%\n", problem.name.c_str(), entry.backend.c_str(), ms, gflops,
                  100.0 * gflops / kPeakGflops);
      runtime->UnloadNetwork(entry.id);
    }
  }
  return 0;
}
