// Softmax against hand-worked values and a naive double-precision loop over every axis.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace {

using backplane::DataType;
using backplane::SoftmaxDescriptor;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::backend::HostTensorHandle;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;
using backplane::reference::testing::TestLayer;

SoftmaxDescriptor Axis(std::int32_t axis) {
  SoftmaxDescriptor descriptor;
  descriptor.axis = axis;
  return descriptor;
}

std::vector<float> Run(std::int32_t axis, const TensorShape& shape, const std::vector<float>& x) {
  return RunOp(Axis(axis), {HostTensor::F32(shape, x)}, {{shape, DataType::kFloat32}})[0].As<float>();
}

// Softmax along `axis` (non-negative) by visiting every element's row explicitly.
std::vector<double> Naive(const TensorShape& shape, const std::vector<float>& x, std::size_t axis) {
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < axis; ++d) outer *= shape[d];
  for (std::size_t d = axis + 1; d < shape.Rank(); ++d) inner *= shape[d];
  const std::int64_t n = shape[axis];
  std::vector<double> y(x.size());
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t j = 0; j < inner; ++j) {
      const auto at = [&](std::int64_t k) { return static_cast<std::size_t>((o * n + k) * inner + j); };
      double maximum = -std::numeric_limits<double>::infinity();
      for (std::int64_t k = 0; k < n; ++k) maximum = std::max<double>(maximum, x[at(k)]);
      double sum = 0;
      for (std::int64_t k = 0; k < n; ++k) sum += std::exp(x[at(k)] - maximum);
      for (std::int64_t k = 0; k < n; ++k) y[at(k)] = std::exp(x[at(k)] - maximum) / sum;
    }
  }
  return y;
}

std::vector<float> Wavy(std::int64_t count) {
  std::vector<float> x(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 3.0f * std::sin(0.7f * static_cast<float>(i)) + 0.1f * static_cast<float>(i % 5);
  return x;
}

void CheckClose(const std::vector<float>& actual, const std::vector<double>& expected) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(1e-6));
  }
}

}  // namespace

TEST_CASE("softmax: [1, 2, 3] by hand") {
  CheckClose(Run(-1, {3}, {1, 2, 3}), {0.09003057317038046, 0.24472847105479764, 0.6652409557748219});
}

TEST_CASE("softmax: large inputs do not overflow (shift by the maximum)") {
  CheckClose(Run(0, {3}, {1000, 1001, 1002}), {0.09003057317038046, 0.24472847105479764, 0.6652409557748219});
  CheckClose(Run(0, {2}, {-1000, -1000}), {0.5, 0.5});
}

TEST_CASE("softmax: -inf entries get probability 0") {
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(Run(-1, {3}, {-inf, 0, -inf}) == std::vector<float>{0, 1, 0});
}

TEST_CASE("softmax: every axis of [2,3,4,5], positive and negative") {
  const TensorShape shape{2, 3, 4, 5};
  const auto x = Wavy(shape.NumElements());
  for (std::int32_t axis = 0; axis < 4; ++axis) {
    CAPTURE(axis);
    const auto expected = Naive(shape, x, static_cast<std::size_t>(axis));
    CheckClose(Run(axis, shape, x), expected);
    CheckClose(Run(axis - 4, shape, x), expected);
  }
}

TEST_CASE("softmax: odd shapes, including a length-1 axis") {
  const TensorShape shape{3, 1, 7};
  const auto x = Wavy(shape.NumElements());
  CheckClose(Run(1, shape, x), std::vector<double>(x.size(), 1.0));
  CheckClose(Run(0, shape, x), Naive(shape, x, 0));
  CheckClose(Run(2, shape, x), Naive(shape, x, 2));
  CheckClose(Run(0, {11}, Wavy(11)), Naive({11}, Wavy(11), 0));
}

TEST_CASE("softmax: one workload runs on several threads at once with their own buffers and scratch") {
  const TensorShape shape{4, 6, 8};
  const std::vector<HostTensor> inputs{HostTensor::F32(shape, Wavy(shape.NumElements()))};
  const auto descriptor = Axis(1);
  const TestLayer layer(backplane::backend::LayerType::kSoftmax, &descriptor, inputs, {{shape, DataType::kFloat32}});
  const auto* op = backplane::reference::Ops().Find(backplane::backend::LayerType::kSoftmax);
  REQUIRE(op != nullptr);
  const auto workload = op->create(layer);
  REQUIRE(workload->GetScratchSize() > 0);
  const auto expected = Naive(shape, inputs[0].As<float>(), 1);

  constexpr int kThreads = 8;
  std::vector<std::vector<float>> inputs_per_thread(kThreads), results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    inputs_per_thread[t] = inputs[0].As<float>();
    results[t].assign(inputs_per_thread[t].size(), 0.0f);
    threads.emplace_back([&, t] {
      HostTensorHandle in_handle({shape, DataType::kFloat32}, inputs_per_thread[t].data());
      HostTensorHandle out_handle({shape, DataType::kFloat32}, results[t].data());
      const std::vector<backplane::backend::ITensorHandle*> in{&in_handle}, out{&out_handle};
      std::vector<unsigned char> scratch(workload->GetScratchSize() + 64);
      void* aligned = scratch.data() + (64 - reinterpret_cast<std::uintptr_t>(scratch.data()) % 64) % 64;
      for (int run = 0; run < 50; ++run) workload->Execute({in, out, aligned});
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    CAPTURE(t);
    CheckClose(results[t], expected);
  }
}

TEST_CASE("softmax: support rejects an axis out of range, a scalar and other types") {
  std::string reason;
  CHECK_FALSE(IsSupported(Axis(2), {HostTensor::F32({2, 3}, Wavy(6))}, {{{2, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis 2 is out of range [-2, 1] for input [2,3] of rank 2");
  CHECK_FALSE(IsSupported(Axis(-3), {HostTensor::F32({2, 3}, Wavy(6))}, {{{2, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis -3 is out of range [-2, 1] for input [2,3] of rank 2");
  CHECK_FALSE(IsSupported(Axis(-1), {HostTensor::F32({}, {1})}, {{{}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis -1 is out of range [0, -1] for input [] of rank 0");
  CHECK_FALSE(IsSupported(Axis(-1), {HostTensor::I32({2}, {0, 0})}, {{{2}, DataType::kInt32}}, reason));
  CHECK(reason == "CpuRef runs Softmax on f32, f64, f16 and bf16, not i32");
  CHECK_FALSE(IsSupported(Axis(-1), {HostTensor::F32({2, 3}, Wavy(6))}, {{{3, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [3,2], the op gives f32 [2,3]");
}

TEST_CASE("softmax: f64 in double, f16 along an outer axis rounded once") {
  const auto f64 = RunOp(Axis(0), {HostTensor::From<double>({3}, {1.0, 2.0, 3.0}, DataType::kFloat64)},
                         {{{3}, DataType::kFloat64}})[0]
                       .As<double>();
  const double sum = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  for (int i = 0; i < 3; ++i) CHECK(f64[i] == doctest::Approx(std::exp(1.0 + i) / sum).epsilon(1e-15));
  // [[0, 1], [2, 3]] along axis 0: e^-2 / (1 + e^-2) = 0.1192 (0x2fa1) and 0.8808 (0x3b0c), numpy float16.
  const auto f16 = RunOp(Axis(0), {HostTensor::From<std::uint16_t>({2, 2}, {0x0000, 0x3c00, 0x4000, 0x4200}, DataType::kFloat16)},
                         {{{2, 2}, DataType::kFloat16}})[0]
                       .As<std::uint16_t>();
  CHECK(f16 == std::vector<std::uint16_t>{0x2fa1, 0x2fa1, 0x3b0c, 0x3b0c});
  // And along the last axis (one row at a time): [0, 0] gives 0.5 twice (0x3800).
  CHECK(RunOp(Axis(-1), {HostTensor::From<std::uint16_t>({2}, {0, 0}, DataType::kFloat16)}, {{{2}, DataType::kFloat16}})[0]
            .As<std::uint16_t>() == std::vector<std::uint16_t>{0x3800, 0x3800});
}
