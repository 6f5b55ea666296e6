// Activation against values worked out by hand or computed here in double with <cmath>.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace {

using backplane::ActivationDescriptor;
using backplane::ActivationFunction;
using backplane::DataType;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

ActivationDescriptor Function(ActivationFunction function, float alpha = 0.0f, float beta = 0.0f) {
  ActivationDescriptor descriptor;
  descriptor.function = function;
  descriptor.alpha = alpha;
  descriptor.beta = beta;
  return descriptor;
}

std::vector<float> Run(const ActivationDescriptor& descriptor, const TensorShape& shape, const std::vector<float>& x) {
  return RunOp(descriptor, {HostTensor::F32(shape, x)}, {{shape, DataType::kFloat32}})[0].As<float>();
}

void CheckClose(const std::vector<float>& actual, const std::vector<double>& expected, double epsilon = 1e-6) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(epsilon));
  }
}

// Every function is checked on the same spread of inputs, which includes the kinks at 0, -3
// and 3 and values where a naive sigmoid would overflow.
const std::vector<float> kInputs = {-100.0f, -6.0f, -3.0f, -2.5f, -1.0f, -0.25f, 0.0f,
                                    0.25f,   1.0f,  2.5f,  3.0f,  6.0f,  100.0f};

std::vector<double> Map(const std::function<double(double)>& function) {
  std::vector<double> values;
  for (const float x : kInputs) values.push_back(function(x));
  return values;
}

const TensorShape kShape{static_cast<std::int64_t>(kInputs.size())};

}  // namespace

TEST_CASE("activation: relu by hand") {
  CHECK(Run(Function(ActivationFunction::kRelu), {5}, {-2.0f, -0.5f, 0.0f, 1.5f, 3.0f}) ==
        std::vector<float>{0.0f, 0.0f, 0.0f, 1.5f, 3.0f});
}

TEST_CASE("activation: clip uses alpha as min and beta as max (relu6 and [-1, 1])") {
  CHECK(Run(Function(ActivationFunction::kClip, 0.0f, 6.0f), {6}, {-1.0f, 0.0f, 2.0f, 6.0f, 6.5f, 100.0f}) ==
        std::vector<float>{0.0f, 0.0f, 2.0f, 6.0f, 6.0f, 6.0f});
  CHECK(Run(Function(ActivationFunction::kClip, -1.0f, 1.0f), {4}, {-3.0f, -0.5f, 0.75f, 2.0f}) ==
        std::vector<float>{-1.0f, -0.5f, 0.75f, 1.0f});
}

TEST_CASE("activation: sigmoid matches 1 / (1 + exp(-x)) and saturates without NaN") {
  const auto y = Run(Function(ActivationFunction::kSigmoid), kShape, kInputs);
  CheckClose(y, Map([](double x) { return 1.0 / (1.0 + std::exp(-x)); }));
  CHECK(y.front() >= 0.0f);
  CHECK(y.back() == 1.0f);
}

TEST_CASE("activation: tanh matches std::tanh") {
  CheckClose(Run(Function(ActivationFunction::kTanh), kShape, kInputs), Map([](double x) { return std::tanh(x); }));
}

TEST_CASE("activation: gelu is the exact erf form") {
  CheckClose(Run(Function(ActivationFunction::kGelu), kShape, kInputs),
             Map([](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }));
  // Phi(1) = 0.8413447460685429.
  CHECK(Run(Function(ActivationFunction::kGelu), {1}, {1.0f})[0] == doctest::Approx(0.8413447460685429));
}

TEST_CASE("activation: gelu tanh is the tanh approximation, not the erf form") {
  const double pi = std::acos(-1.0);
  CheckClose(Run(Function(ActivationFunction::kGeluTanh), kShape, kInputs), Map([pi](double x) {
               return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / pi) * (x + 0.044715 * x * x * x)));
             }));
  // At x = 1 the two forms differ in the fourth decimal: 0.841192 against 0.841345.
  const float approximate = Run(Function(ActivationFunction::kGeluTanh), {1}, {1.0f})[0];
  CHECK(approximate == doctest::Approx(0.8411919906).epsilon(1e-6));
  CHECK(std::fabs(approximate - 0.8413447461) > 1e-4);
}

TEST_CASE("activation: leaky relu scales negatives by alpha") {
  CHECK(Run(Function(ActivationFunction::kLeakyRelu, 0.1f), {4}, {-5.0f, -1.0f, 0.0f, 2.0f}) ==
        std::vector<float>{-0.5f, -0.1f, 0.0f, 2.0f});
}

TEST_CASE("activation: hard swish by hand") {
  CheckClose(Run(Function(ActivationFunction::kHardSwish), {6}, {-4.0f, -3.0f, -1.0f, 0.0f, 1.0f, 4.0f}),
             {0.0, 0.0, -1.0 * 2.0 / 6.0, 0.0, 1.0 * 4.0 / 6.0, 4.0});
}

TEST_CASE("activation: silu matches x * sigmoid(x)") {
  CheckClose(Run(Function(ActivationFunction::kSilu), kShape, kInputs),
             Map([](double x) { return x / (1.0 + std::exp(-x)); }), 1e-5);
}

TEST_CASE("activation: hard sigmoid uses alpha and beta and clamps to [0, 1]") {
  CheckClose(Run(Function(ActivationFunction::kHardSigmoid, 0.2f, 0.5f), {5}, {-3.0f, -1.0f, 0.0f, 1.0f, 3.0f}),
             {0.0, 0.3, 0.5, 0.7, 1.0});
}

TEST_CASE("activation: the exponential family matches its formula in double, without overflow") {
  auto softplus = [](double x) { return std::max(x, 0.0) + std::log1p(std::exp(-std::fabs(x))); };
  CheckClose(Run(Function(ActivationFunction::kElu, 0.7f), kShape, kInputs),
             Map([](double x) { return x < 0 ? 0.7 * std::expm1(x) : x; }), 1e-5);
  CheckClose(Run(Function(ActivationFunction::kSelu, 1.6732632f, 1.0507010f), kShape, kInputs),
             Map([](double x) { return 1.0507010 * (x <= 0 ? 1.6732632 * std::expm1(x) : x); }), 1e-5);
  CheckClose(Run(Function(ActivationFunction::kCelu, 2.0f), kShape, kInputs),
             Map([](double x) { return std::max(x, 0.0) + std::min(0.0, 2.0 * std::expm1(x / 2.0)); }), 1e-5);
  CheckClose(Run(Function(ActivationFunction::kSoftplus), kShape, kInputs), Map(softplus), 1e-5);
  CheckClose(Run(Function(ActivationFunction::kMish), kShape, kInputs),
             Map([&](double x) { return x * std::tanh(softplus(x)); }), 1e-5);
}

TEST_CASE("activation: softsign and thresholded relu by hand") {
  CheckClose(Run(Function(ActivationFunction::kSoftsign), {4}, {-3.0f, 0.0f, 1.0f, 100.0f}), {-0.75, 0.0, 0.5, 100.0 / 101.0});
  CheckClose(Run(Function(ActivationFunction::kThresholdedRelu, 1.0f), {4}, {-2.0f, 1.0f, 1.5f, 3.0f}), {0.0, 0.0, 1.5, 3.0});
}

TEST_CASE("activation: odd shape [3,1,5,7] is elementwise") {
  const TensorShape shape{3, 1, 5, 7};
  std::vector<float> x(105);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.37f - 19.0f;
  const auto y = Run(Function(ActivationFunction::kLeakyRelu, 0.01f), shape, x);
  REQUIRE(y.size() == x.size());
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == (x[i] < 0 ? 0.01f * x[i] : x[i]));
}

TEST_CASE("activation: support rejects other types, other arity, a shape change and unknown functions") {
  std::string reason;
  const auto relu = Function(ActivationFunction::kRelu);
  CHECK(IsSupported(relu, {HostTensor::I32({2}, {1, 2})}, {{{2}, DataType::kInt32}}, reason));
  CHECK_FALSE(IsSupported(Function(ActivationFunction::kSigmoid), {HostTensor::I32({2}, {1, 2})}, {{{2}, DataType::kInt32}},
                          reason));
  CHECK(reason == "CpuRef runs Activation on f32, f64, f16 and bf16; on integers (here i32) only Relu");

  CHECK_FALSE(IsSupported(relu, {HostTensor::F32({2}, {1, 2}), HostTensor::F32({2}, {1, 2})},
                          {{{2}, DataType::kFloat32}}, reason));
  CHECK(reason == "takes 1 input, has 2");

  CHECK_FALSE(IsSupported(relu, {HostTensor::F32({2}, {1, 2})}, {{{1, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [1,2], the op gives f32 [2]");

  const auto unknown = Function(static_cast<ActivationFunction>(99));
  CHECK_FALSE(IsSupported(unknown, {HostTensor::F32({2}, {1, 2})}, {{{2}, DataType::kFloat32}}, reason));
  CHECK(reason == "unknown activation function 99");

  CHECK(IsSupported(relu, {HostTensor::F32({2}, {1, 2})}, {{{2}, DataType::kFloat32}}, reason));
}

TEST_CASE("activation: f64 computes in double, f16 rounds once, integers take Relu") {
  const auto f64 = RunOp(Function(ActivationFunction::kGelu), {HostTensor::From<double>({2}, {1.0, -0.5}, DataType::kFloat64)},
                         {{{2}, DataType::kFloat64}})[0]
                       .As<double>();
  const auto gelu = [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); };
  CHECK(f64[0] == doctest::Approx(gelu(1.0)).epsilon(1e-15));
  CHECK(f64[1] == doctest::Approx(gelu(-0.5)).epsilon(1e-15));
  // f16 sigmoid(0) = 0.5 (0x3800), leaky relu of -2 with alpha 0.1: -0.2 rounds to 0xb266 (numpy float16).
  CHECK(RunOp(Function(ActivationFunction::kSigmoid), {HostTensor::From<std::uint16_t>({1}, {0x0000}, DataType::kFloat16)},
              {{{1}, DataType::kFloat16}})[0]
            .As<std::uint16_t>() == std::vector<std::uint16_t>{0x3800});
  CHECK(RunOp(Function(ActivationFunction::kLeakyRelu, 0.1f), {HostTensor::From<std::uint16_t>({1}, {0xc000}, DataType::kFloat16)},
              {{{1}, DataType::kFloat16}})[0]
            .As<std::uint16_t>() == std::vector<std::uint16_t>{0xb266});
  CHECK(RunOp(Function(ActivationFunction::kRelu), {HostTensor::From<std::int8_t>({3}, {-128, 0, 5}, DataType::kInt8)},
              {{{3}, DataType::kInt8}})[0]
            .As<std::int8_t>() == std::vector<std::int8_t>{0, 0, 5});
}
