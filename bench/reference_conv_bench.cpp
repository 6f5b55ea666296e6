// CpuRef kernel benchmark (issue "Execution", Benchmark): the reference Convolution2d on a 3x3
// convolution 64->64 at 56x56 (N = 1, pad 1; ResNet's conv2_x), run through the op table the
// way the workload factory does (support check, workload created once, Execute on host
// buffers), without the runtime; and the GEMM under it at 256^3 and 1024^3. Several rounds,
// medians, single thread. Not a test: timings never fail a build.
#include "gemm.hpp"
#include "op_test_harness.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace backplane;
using reference::testing::HostTensor;
using reference::testing::TestLayer;
using Clock = std::chrono::steady_clock;

// Arm NN 20.08's reference backend on the 3x3 convolution, and the fp32 peak of this
// benchmark machine's 2 cores, for scale.
constexpr double kArmNnGflops = 0.25;
constexpr double kPeakGflops = 300.0;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Median over `rounds` of the mean time of `batch` calls, in seconds.
template <typename F>
double TimeSeconds(int rounds, int batch, F&& run) {
  run();
  std::vector<double> samples;
  for (int r = 0; r < rounds; ++r) {
    const auto start = Clock::now();
    for (int i = 0; i < batch; ++i) run();
    samples.push_back(std::chrono::duration<double>(Clock::now() - start).count() / batch);
  }
  return Median(samples);
}

std::vector<float> Random(std::size_t count, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (auto& v : values) v = uniform(generator);
  return values;
}

struct Conv {
  const char* name;
  std::int64_t channels, out_channels, size, kernel;
  std::uint32_t groups, pad;
  bool constant_weights;
};

// Seconds per Execute of CpuRef's Convolution2d workload (N = 1, stride 1), and its GFLOP/s
// counted as 2 * M * C/groups * kH * kW * Ho * Wo.
double TimeConvolution(const Conv& conv, double& gflops) {
  Convolution2dDescriptor descriptor;
  descriptor.groups = conv.groups;
  descriptor.pads = {conv.pad, conv.pad, conv.pad, conv.pad};
  const std::int64_t c = conv.channels, m = conv.out_channels, k = conv.kernel, s = conv.size;
  const std::int64_t out = s + 2 * conv.pad - k + 1;
  const std::vector<HostTensor> inputs{
      HostTensor::F32({1, c, s, s}, Random(static_cast<std::size_t>(c * s * s), 1)),
      HostTensor::F32({m, c / conv.groups, k, k}, Random(static_cast<std::size_t>(m * c / conv.groups * k * k), 2),
                      conv.constant_weights),
      HostTensor::F32({m}, Random(static_cast<std::size_t>(m), 3), true)};
  const TensorInfo output_info{{1, m, out, out}, DataType::kFloat32};

  const reference::OpKernel* op = reference::Ops().Find(backend::LayerType::kConvolution2d);
  TestLayer layer(backend::LayerType::kConvolution2d, &descriptor, inputs, {output_info});
  std::string reason;
  if (!op || !op->is_supported(layer, reason)) {
    std::fprintf(stderr, "reference_conv_bench: Convolution2d unsupported: %s\n", reason.c_str());
    return 0.0;
  }
  const auto workload = op->create(layer);

  std::vector<float> output(static_cast<std::size_t>(output_info.shape.NumElements()));
  std::vector<backend::HostTensorHandle> handles;
  for (const auto& input : inputs) handles.emplace_back(input.info, const_cast<std::uint8_t*>(input.bytes.data()));
  backend::HostTensorHandle output_handle(output_info, output.data());
  const std::vector<backend::ITensorHandle*> in{&handles[0], &handles[1], &handles[2]};
  const std::vector<backend::ITensorHandle*> out_handles{&output_handle};
  std::vector<std::uint8_t> scratch(workload->GetScratchSize() + 64);
  void* aligned = scratch.data() + (64 - reinterpret_cast<std::uintptr_t>(scratch.data()) % 64) % 64;
  const backend::WorkloadArgs args{in, out_handles, workload->GetScratchSize() ? aligned : nullptr};

  const double seconds = TimeSeconds(15, 3, [&] { workload->Execute(args); });
  gflops = 2.0 * m * (c / conv.groups) * k * k * out * out / seconds * 1e-9;
  return seconds;
}

// Seconds per n^3 GEMM with row-major operands (packed block by block as it goes).
double TimeGemm(std::int64_t n, int rounds, int batch) {
  const auto a = Random(static_cast<std::size_t>(n * n), 4);
  const auto b = Random(static_cast<std::size_t>(n * n), 5);
  std::vector<float> c(static_cast<std::size_t>(n * n));
  const auto a_operand = reference::GemmOperand::RowMajor(a.data(), n);
  const auto b_operand = reference::GemmOperand::RowMajor(b.data(), n);
  std::vector<float> workspace(reference::GemmWorkspaceSize(n, n, n, a_operand, b_operand));
  return TimeSeconds(rounds, batch, [&] {
    reference::Gemm(n, n, n, 1.0f, a_operand, b_operand, 0.0f, c.data(), n, workspace.data());
  });
}

}  // namespace

int main() {
  std::printf("CpuRef kernels, single thread, medians (GEMM micro-kernel: %s)\n\n", reference::GemmKernelName());
  std::printf("%-46s %10s %10s %9s\n", "kernel", "time", "GFLOP/s", "of peak");

  const Conv convs[] = {
      {"conv 3x3 64->64 @56x56, pad 1", 64, 64, 56, 3, 1, 1, true},
      {"  same, weights given at run time", 64, 64, 56, 3, 1, 1, false},
      {"conv 1x1 64->256 @56x56", 64, 256, 56, 1, 1, 0, true},
      {"conv 3x3 depthwise 128 @56x56, pad 1", 128, 128, 56, 3, 128, 1, true},
  };
  double headline = 0.0;
  for (const Conv& conv : convs) {
    double gflops = 0.0;
    const double seconds = TimeConvolution(conv, gflops);
    if (seconds == 0.0) return 1;
    if (&conv == &convs[0]) headline = gflops;
    std::printf("%-46s %7.3f ms %10.2f %8.1f%%\n", conv.name, seconds * 1e3, gflops, 100.0 * gflops / kPeakGflops);
  }
  for (const std::int64_t n : {256, 1024}) {
    const double seconds = TimeGemm(n, n < 1024 ? 25 : 7, n < 1024 ? 20 : 1);
    const double gflops = 2.0 * n * n * n / seconds * 1e-9;
    const std::string name = "gemm " + std::to_string(n) + "^3";
    std::printf("%-46s %7.3f ms %10.2f %8.1f%%\n", name.c_str(), seconds * 1e3, gflops, 100.0 * gflops / kPeakGflops);
  }
  std::printf("\nconv 3x3 64->64: %.0fx Arm NN 20.08's reference backend (about %.2f GFLOP/s); peak = the "
              "~%.0f GFLOP/s fp32 of 2 cores.\n",
              headline / kArmNnGflops, kArmNnGflops, kPeakGflops);
  return 0;
}
