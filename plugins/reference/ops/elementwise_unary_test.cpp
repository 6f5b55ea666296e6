// ElementwiseUnary against hand-worked values and <cmath> in double.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::ElementwiseUnaryDescriptor;
using backplane::TensorShape;
using backplane::UnaryOperation;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

ElementwiseUnaryDescriptor Operation(UnaryOperation operation) {
  ElementwiseUnaryDescriptor descriptor;
  descriptor.operation = operation;
  return descriptor;
}

std::vector<float> Run(UnaryOperation operation, const TensorShape& shape, const std::vector<float>& x) {
  return RunOp(Operation(operation), {HostTensor::F32(shape, x)}, {{shape, DataType::kFloat32}})[0].As<float>();
}

constexpr float kInf = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("elementwise_unary: sqrt, with NaN below zero") {
  const auto y = Run(UnaryOperation::kSqrt, {5}, {0, 1, 2.25f, 16, -1});
  CHECK(y[0] == 0);
  CHECK(y[1] == 1);
  CHECK(y[2] == 1.5f);
  CHECK(y[3] == 4);
  CHECK(std::isnan(y[4]));
}

TEST_CASE("elementwise_unary: exp and log, including their limits") {
  const auto e = Run(UnaryOperation::kExp, {5}, {0, 1, -2, 100, -200});
  CHECK(e[0] == 1);
  CHECK(e[1] == doctest::Approx(std::exp(1.0)).epsilon(1e-7));
  CHECK(e[2] == doctest::Approx(std::exp(-2.0)).epsilon(1e-7));
  CHECK(e[3] == kInf);
  CHECK(e[4] == 0);
  const auto l = Run(UnaryOperation::kLog, {4}, {1, 10, 0, -1});
  CHECK(l[0] == 0);
  CHECK(l[1] == doctest::Approx(std::log(10.0)).epsilon(1e-7));
  CHECK(l[2] == -kInf);
  CHECK(std::isnan(l[3]));
}

TEST_CASE("elementwise_unary: abs and neg by hand") {
  CHECK(Run(UnaryOperation::kAbs, {4}, {-2.5f, 0, 3, -kInf}) == std::vector<float>{2.5f, 0, 3, kInf});
  CHECK(Run(UnaryOperation::kNeg, {2, 2}, {-2.5f, 0, 3, 7}) == std::vector<float>{2.5f, -0.0f, -3, -7});
}

TEST_CASE("elementwise_unary: erf matches std::erf in double") {
  const std::vector<float> x{-3, -1, -0.5f, 0, 0.5f, 1, 3};
  const auto y = Run(UnaryOperation::kErf, {7}, x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(x[i]);
    CHECK(y[i] == doctest::Approx(std::erf(static_cast<double>(x[i]))).epsilon(1e-7));
  }
  CHECK(y[5] == doctest::Approx(0.8427007929).epsilon(1e-7));
}

TEST_CASE("elementwise_unary: reciprocal, with infinities at zero") {
  CHECK(Run(UnaryOperation::kReciprocal, {5}, {4, -0.5f, 0, -0.0f, kInf}) ==
        std::vector<float>{0.25f, -2, kInf, -kInf, 0});
}

TEST_CASE("elementwise_unary: round halves to even, ceil, floor and sign by hand") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(Run(UnaryOperation::kRound, {6}, {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 2.6f}) ==
        std::vector<float>{0, 2, 2, -0.0f, -2, 3});
  CHECK(Run(UnaryOperation::kCeil, {3}, {-1.5f, 0.2f, 2}) == std::vector<float>{-1, 1, 2});
  CHECK(Run(UnaryOperation::kFloor, {3}, {-1.5f, 0.2f, 2}) == std::vector<float>{-2, 0, 2});
  const auto sign = Run(UnaryOperation::kSign, {4}, {-3, 0, 0.1f, nan});
  CHECK(std::vector<float>(sign.begin(), sign.begin() + 3) == std::vector<float>{-1, 0, 1});
  CHECK(std::isnan(sign[3]));
}

TEST_CASE("elementwise_unary: trigonometric and hyperbolic functions match <cmath> in double") {
  const std::pair<UnaryOperation, double (*)(double)> functions[] = {
      {UnaryOperation::kSin, std::sin},   {UnaryOperation::kCos, std::cos},     {UnaryOperation::kTan, std::tan},
      {UnaryOperation::kAsin, std::asin}, {UnaryOperation::kAcos, std::acos},   {UnaryOperation::kAtan, std::atan},
      {UnaryOperation::kSinh, std::sinh}, {UnaryOperation::kCosh, std::cosh},   {UnaryOperation::kAsinh, std::asinh},
      {UnaryOperation::kAtanh, std::atanh}};
  const std::vector<float> x{-0.9f, -0.5f, 0, 0.3f, 0.8f};
  for (const auto& [op, function] : functions) {
    CAPTURE(static_cast<int>(op));
    const auto y = Run(op, {5}, x);
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == doctest::Approx(function(x[i])).epsilon(1e-6));
  }
  const auto acosh = Run(UnaryOperation::kAcosh, {2}, {1.0f, 3.0f});
  CHECK(acosh[0] == 0.0f);
  CHECK(acosh[1] == doctest::Approx(std::acosh(3.0)).epsilon(1e-6));
}

TEST_CASE("elementwise_unary: odd shape [3,5,7] applies to every element") {
  std::vector<float> x(105);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) - 52.0f;
  const auto y = Run(UnaryOperation::kAbs, {3, 5, 7}, x);
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == std::fabs(x[i]));
}

TEST_CASE("elementwise_unary: support rejects other types, a shape change and unknown operations") {
  std::string reason;
  const auto exp = Operation(UnaryOperation::kExp);
  CHECK_FALSE(IsSupported(exp, {HostTensor::I64({2}, {1, 2})}, {{{2}, DataType::kInt64}}, reason));
  CHECK(reason == "CpuRef runs ElementwiseUnary on f32, f64, f16 and bf16; on integers (here i64) only Abs, Neg and Sign");
  CHECK_FALSE(IsSupported(exp, {HostTensor::F32({2, 2}, {1, 2, 3, 4})}, {{{4}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [4], the op gives f32 [2,2]");
  CHECK_FALSE(IsSupported(Operation(static_cast<UnaryOperation>(99)), {HostTensor::F32({1}, {1})},
                          {{{1}, DataType::kFloat32}}, reason));
  CHECK(reason == "unknown unary operation 99");
}

TEST_CASE("elementwise_unary: Not flips bool elements") {
  const auto x = HostTensor::From<std::uint8_t>({2, 2}, {0, 1, 1, 0}, DataType::kBool);
  CHECK(RunOp(Operation(UnaryOperation::kNot), {x}, {{{2, 2}, DataType::kBool}})[0].As<std::uint8_t>() ==
        std::vector<std::uint8_t>{1, 0, 0, 1});
}

TEST_CASE("elementwise_unary: f64 in double, f16 and bf16 rounded once, integers' Abs, Neg and Sign wrap") {
  const auto f64 = RunOp(Operation(UnaryOperation::kExp), {HostTensor::From<double>({2}, {1.0, -0.5}, DataType::kFloat64)},
                         {{{2}, DataType::kFloat64}})[0]
                       .As<double>();
  CHECK(f64 == std::vector<double>{std::exp(1.0), std::exp(-0.5)});
  // f16: sqrt(2) = 1.41421... rounds to 0x3da8 (1.4141, numpy float16); -(-2) = 2 (0x4000).
  const auto f16 = [](UnaryOperation operation, std::vector<std::uint16_t> bits) {
    const TensorShape shape{static_cast<std::int64_t>(bits.size())};
    return RunOp(Operation(operation), {HostTensor::From(shape, bits, DataType::kFloat16)}, {{shape, DataType::kFloat16}})[0]
        .As<std::uint16_t>();
  };
  CHECK(f16(UnaryOperation::kSqrt, {0x4000}) == std::vector<std::uint16_t>{0x3da8});
  CHECK(f16(UnaryOperation::kNeg, {0xc000}) == std::vector<std::uint16_t>{0x4000});
  // bf16 floor(-1.5) = -2 (0xbfc0 -> 0xc000).
  CHECK(RunOp(Operation(UnaryOperation::kFloor), {HostTensor::From<std::uint16_t>({1}, {0xbfc0}, DataType::kBFloat16)},
              {{{1}, DataType::kBFloat16}})[0]
            .As<std::uint16_t>() == std::vector<std::uint16_t>{0xc000});
  const auto i32 = [](UnaryOperation operation) {
    return RunOp(Operation(operation), {HostTensor::I32({4}, {-5, 0, 7, std::numeric_limits<std::int32_t>::min()})},
                 {{{4}, DataType::kInt32}})[0]
        .As<std::int32_t>();
  };
  const std::int32_t lowest = std::numeric_limits<std::int32_t>::min();
  CHECK(i32(UnaryOperation::kAbs) == std::vector<std::int32_t>{5, 0, 7, lowest});
  CHECK(i32(UnaryOperation::kNeg) == std::vector<std::int32_t>{5, 0, -7, lowest});
  CHECK(i32(UnaryOperation::kSign) == std::vector<std::int32_t>{-1, 0, 1, -1});
  CHECK(RunOp(Operation(UnaryOperation::kNeg), {HostTensor::From<std::uint8_t>({2}, {1, 0}, DataType::kUInt8)},
              {{{2}, DataType::kUInt8}})[0]
            .As<std::uint8_t>() == std::vector<std::uint8_t>{255, 0});
}
