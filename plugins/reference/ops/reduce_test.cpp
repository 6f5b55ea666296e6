// Reduce against hand-worked sums and a naive loop that visits every input element and adds
// it to the output element its kept coordinates name.
#include "op_test_harness.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::ReduceDescriptor;
using backplane::ReduceOperation;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

ReduceDescriptor Reduce(ReduceOperation operation, std::vector<std::int32_t> axes, bool keep_dims) {
  ReduceDescriptor descriptor;
  descriptor.operation = operation;
  descriptor.axes = std::move(axes);
  descriptor.keep_dims = keep_dims;
  return descriptor;
}

std::vector<float> Run(const ReduceDescriptor& descriptor, const TensorShape& shape, const std::vector<float>& x,
                       const TensorShape& out) {
  return RunOp(descriptor, {HostTensor::F32(shape, x)}, {{out, DataType::kFloat32}})[0].As<float>();
}

// What `operation` gives for `values`, written out here apart from the backend's formulas.
double Expected(ReduceOperation operation, const std::vector<double>& values) {
  long double sum = 0, squares = 0, absolute = 0, product = 1, exps = 0;
  double max = -INFINITY, min = INFINITY;
  for (const double v : values) {
    sum += v;
    squares += static_cast<long double>(v) * v;
    absolute += std::fabs(v);
    product *= v;
    exps += std::exp(static_cast<long double>(v));
    max = std::isnan(max) || std::isnan(v) ? NAN : std::max(max, v);
    min = std::isnan(min) || std::isnan(v) ? NAN : std::min(min, v);
  }
  switch (operation) {
    case ReduceOperation::kMean: return static_cast<double>(sum / static_cast<long double>(values.size()));
    case ReduceOperation::kSum: return static_cast<double>(sum);
    case ReduceOperation::kMax: return max;
    case ReduceOperation::kMin: return min;
    case ReduceOperation::kProd: return static_cast<double>(product);
    case ReduceOperation::kSumSquare: return static_cast<double>(squares);
    case ReduceOperation::kL1: return static_cast<double>(absolute);
    case ReduceOperation::kL2: return static_cast<double>(std::sqrt(squares));
    case ReduceOperation::kLogSum: return static_cast<double>(std::log(sum));
    case ReduceOperation::kLogSumExp: return static_cast<double>(std::log(exps));
  }
  return NAN;
}

constexpr ReduceOperation kEveryOperation[] = {
    ReduceOperation::kMean, ReduceOperation::kSum,       ReduceOperation::kMax, ReduceOperation::kMin,
    ReduceOperation::kProd, ReduceOperation::kSumSquare, ReduceOperation::kL1,  ReduceOperation::kL2,
    ReduceOperation::kLogSum, ReduceOperation::kLogSumExp};

// Reduces `axes` (already non-negative) of `shape`: each output's values gathered by visiting
// every input element, then Expected of them; laid out like the input with those axes removed,
// which is also the keep_dims layout.
std::vector<double> Naive(ReduceOperation operation, const TensorShape& shape, const std::vector<float>& x,
                          const std::set<std::size_t>& axes) {
  std::int64_t outputs = 1;
  for (std::size_t d = 0; d < shape.Rank(); ++d) outputs *= axes.count(d) ? 1 : shape[d];
  std::vector<std::vector<double>> values(static_cast<std::size_t>(outputs));
  for (std::int64_t flat = 0; flat < shape.NumElements(); ++flat) {
    std::vector<std::int64_t> index(shape.Rank());
    std::int64_t rest = flat;
    for (std::size_t d = shape.Rank(); d-- > 0;) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    std::int64_t out = 0;
    for (std::size_t d = 0; d < shape.Rank(); ++d) {
      if (!axes.count(d)) out = out * shape[d] + index[d];
    }
    values[static_cast<std::size_t>(out)].push_back(x[static_cast<std::size_t>(flat)]);
  }
  std::vector<double> y;
  for (const auto& set : values) y.push_back(Expected(operation, set));
  return y;
}

std::vector<float> Values(std::int64_t count) {
  std::vector<float> x(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i)) * 4.0f + 0.5f;
  return x;
}

void CheckClose(const std::vector<float>& actual, const std::vector<double>& expected) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    const auto rounded = static_cast<float>(expected[i]);  // a product may overflow f32
    if (std::isnan(rounded)) {
      CHECK(std::isnan(actual[i]));
    } else if (std::isinf(rounded)) {
      CHECK(actual[i] == rounded);
    } else {
      CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(1e-5));
    }
  }
}

}  // namespace

TEST_CASE("reduce: [2,3] by hand") {
  const std::vector<float> x{1, 2, 3, 4, 5, 6};
  CHECK(Run(Reduce(ReduceOperation::kSum, {0}, true), {2, 3}, x, {1, 3}) == std::vector<float>{5, 7, 9});
  CHECK(Run(Reduce(ReduceOperation::kMean, {1}, false), {2, 3}, x, {2}) == std::vector<float>{2, 5});
  CHECK(Run(Reduce(ReduceOperation::kSum, {}, false), {2, 3}, x, {}) == std::vector<float>{21});
  CHECK(Run(Reduce(ReduceOperation::kMean, {}, true), {2, 3}, x, {1, 1}) == std::vector<float>{3.5f});
}

TEST_CASE("reduce: every subset of axes of [2,3,4,5], every operation, keep_dims on and off") {
  const TensorShape shape{2, 3, 4, 5};
  const auto x = Values(shape.NumElements());
  for (unsigned mask = 1; mask < 16; ++mask) {
    std::vector<std::int32_t> axes;
    std::set<std::size_t> axis_set;
    std::vector<std::int64_t> kept, dropped;
    for (std::size_t d = 0; d < 4; ++d) {
      const bool reduced = (mask >> d) & 1u;
      if (reduced) {
        axes.push_back(static_cast<std::int32_t>(d));
        axis_set.insert(d);
      } else {
        dropped.push_back(shape[d]);
      }
      kept.push_back(reduced ? 1 : shape[d]);
    }
    CAPTURE(mask);
    for (const auto operation : kEveryOperation) {
      CAPTURE(static_cast<int>(operation));
      const auto expected = Naive(operation, shape, x, axis_set);
      CheckClose(Run(Reduce(operation, axes, true), shape, x, TensorShape(kept)), expected);
      CheckClose(Run(Reduce(operation, axes, false), shape, x, TensorShape(dropped)), expected);
    }
  }
}

TEST_CASE("reduce: negative axes count from the last") {
  const TensorShape shape{3, 4, 5};
  const auto x = Values(shape.NumElements());
  CheckClose(Run(Reduce(ReduceOperation::kMean, {-1}, true), shape, x, {3, 4, 1}),
             Naive(ReduceOperation::kMean, shape, x, {2}));
  CheckClose(Run(Reduce(ReduceOperation::kSum, {-3, -1}, false), shape, x, {4}),
             Naive(ReduceOperation::kSum, shape, x, {0, 2}));
  CheckClose(Run(Reduce(ReduceOperation::kSum, {2, -3}, true), shape, x, {1, 4, 1}),
             Naive(ReduceOperation::kSum, shape, x, {0, 2}));
}

TEST_CASE("reduce: odd shapes and size-1 axes") {
  const TensorShape shape{7, 1, 3, 1};
  const auto x = Values(shape.NumElements());
  CheckClose(Run(Reduce(ReduceOperation::kSum, {1, 3}, false), shape, x, {7, 3}), Naive(ReduceOperation::kSum, shape, x, {1, 3}));
  CheckClose(Run(Reduce(ReduceOperation::kMean, {0, 2}, true), shape, x, {1, 1, 1, 1}),
             Naive(ReduceOperation::kMean, shape, x, {0, 2}));
}

TEST_CASE("reduce: an empty reduction sums to 0 and averages to NaN") {
  CHECK(Run(Reduce(ReduceOperation::kSum, {1}, false), {2, 0}, {}, {2}) == std::vector<float>{0, 0});
  const auto mean = Run(Reduce(ReduceOperation::kMean, {1}, false), {2, 0}, {}, {2});
  CHECK(std::isnan(mean[0]));
  CHECK(std::isnan(mean[1]));
}

TEST_CASE("reduce: max and min carry NaN, log-sum-exp does not overflow, and empty sets") {
  const float nan = NAN, inf = INFINITY;
  CheckClose(Run(Reduce(ReduceOperation::kMax, {1}, false), {2, 3}, {1, nan, 3, -inf, -inf, -inf}, {2}), {NAN, -INFINITY});
  CheckClose(Run(Reduce(ReduceOperation::kMin, {1}, false), {2, 3}, {nan, 1, 3, 4, inf, 2}, {2}), {NAN, 2});
  // 1000 overflows exp in float and in double: the largest value is taken out first.
  CheckClose(Run(Reduce(ReduceOperation::kLogSumExp, {1}, false), {3, 2}, {1000, 1000, -inf, -inf, inf, 1}, {3}),
             {1000 + std::log(2.0), -INFINITY, INFINITY});
  CheckClose(Run(Reduce(ReduceOperation::kMax, {1}, false), {2, 0}, {}, {2}), {-INFINITY, -INFINITY});
  CheckClose(Run(Reduce(ReduceOperation::kProd, {1}, false), {2, 0}, {}, {2}), {1, 1});
  CheckClose(Run(Reduce(ReduceOperation::kLogSumExp, {1}, false), {2, 0}, {}, {2}), {-INFINITY, -INFINITY});
  CheckClose(Run(Reduce(ReduceOperation::kLogSum, {0}, false), {2, 1}, {-1, 0.5}, {1}), {NAN});
}

TEST_CASE("reduce: support rejects bad axes, repeated axes and a wrong output shape") {
  std::string reason;
  const auto x = HostTensor::F32({2, 3, 4}, Values(24));
  CHECK_FALSE(IsSupported(Reduce(ReduceOperation::kSum, {3}, true), {x}, {{{2, 3, 1}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis 3 is out of range [-3, 2] for input [2,3,4] of rank 3");
  CHECK_FALSE(IsSupported(Reduce(ReduceOperation::kSum, {1, -2}, true), {x}, {{{2, 1, 4}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis -2 is given twice in [1,-2]");
  CHECK_FALSE(IsSupported(Reduce(ReduceOperation::kMean, {1}, false), {x}, {{{2, 1, 4}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [2,1,4], the op gives f32 [2,4]");
  CHECK_FALSE(IsSupported(Reduce(ReduceOperation::kMean, {1}, true), {HostTensor::I32({2}, {1, 2})},
                          {{{1}, DataType::kInt32}}, reason));
  CHECK(reason == "axis 1 is out of range [-1, 0] for input [2] of rank 1");
}

TEST_CASE("reduce: f64, f16 and bf16 reduce in double and round each output once") {
  const std::vector<double> x{0.5, -1.25, 3.0, 1e-3, 700.0, -2.0};
  const auto f64 = RunOp(Reduce(ReduceOperation::kLogSumExp, {1}, true), {HostTensor::From<double>({2, 3}, x, DataType::kFloat64)},
                         {{{2, 1}, DataType::kFloat64}})[0]
                       .As<double>();
  REQUIRE(f64.size() == 2);
  CHECK(f64[0] == doctest::Approx(Expected(ReduceOperation::kLogSumExp, {0.5, -1.25, 3.0})).epsilon(1e-15));
  CHECK(f64[1] == doctest::Approx(700.0 + std::log(1.0 + std::exp(1e-3 - 700.0) + std::exp(-702.0))).epsilon(1e-15));
  // f16 1, 2, 3 (0x3c00, 0x4000, 0x4200): sum 6 = 0x4600; mean over [2048, 1, 1, 1] is 512.75, a tie that rounds to even 513 (0x6002).
  const auto f16 = RunOp(Reduce(ReduceOperation::kSum, {}, false),
                         {HostTensor::From<std::uint16_t>({3}, {0x3c00, 0x4000, 0x4200}, DataType::kFloat16)},
                         {{{}, DataType::kFloat16}})[0]
                       .As<std::uint16_t>();
  CHECK(f16 == std::vector<std::uint16_t>{0x4600});
  const auto mean = RunOp(Reduce(ReduceOperation::kMean, {}, false),
                          {HostTensor::From<std::uint16_t>({4}, {0x6800, 0x3c00, 0x3c00, 0x3c00}, DataType::kFloat16)},
                          {{{}, DataType::kFloat16}})[0]
                        .As<std::uint16_t>();
  CHECK(mean == std::vector<std::uint16_t>{0x6002});
  // bf16 max of 1, 3, 2 (0x3f80, 0x4040, 0x4000).
  const auto bf16 = RunOp(Reduce(ReduceOperation::kMax, {0}, false),
                          {HostTensor::From<std::uint16_t>({3}, {0x3f80, 0x4040, 0x4000}, DataType::kBFloat16)},
                          {{{}, DataType::kBFloat16}})[0]
                        .As<std::uint16_t>();
  CHECK(bf16 == std::vector<std::uint16_t>{0x4040});

}

TEST_CASE("reduce: integers exact in their type, wrapping as numpy's sum(dtype=x.dtype), mean truncated") {
  const auto i32 = [](ReduceOperation operation, const std::vector<std::int32_t>& x) {
    return RunOp(Reduce(operation, {1}, false), {HostTensor::I32({2, 3}, x)}, {{{2}, DataType::kInt32}})[0]
        .As<std::int32_t>();
  };
  using I32s = std::vector<std::int32_t>;
  const I32s x{1, 2, 4, -7, 0, 0};
  CHECK(i32(ReduceOperation::kMean, x) == I32s{2, -2});  // 7 / 3 and -7 / 3, toward zero
  CHECK(i32(ReduceOperation::kSum, x) == I32s{7, -7});
  CHECK(i32(ReduceOperation::kMax, x) == I32s{4, 0});
  CHECK(i32(ReduceOperation::kMin, x) == I32s{1, -7});
  CHECK(i32(ReduceOperation::kProd, {-3, 4, 2, 5, 5, 5}) == I32s{-24, 125});
  CHECK(i32(ReduceOperation::kSumSquare, {-3, 4, 0, 1, 1, 1}) == I32s{25, 3});
  CHECK(i32(ReduceOperation::kL1, {-3, 4, 0, -1, -1, -1}) == I32s{7, 3});
  const std::int64_t big = std::numeric_limits<std::int64_t>::max();
  CHECK(RunOp(Reduce(ReduceOperation::kSum, {}, false), {HostTensor::I64({2}, {big, 1})}, {{{}, DataType::kInt64}})[0]
            .As<std::int64_t>() == std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()});
  // u8 200 + 200 wraps to 144, halved: 72 (numpy.mean(dtype=uint8)); the count 2 is not narrowed.
  CHECK(RunOp(Reduce(ReduceOperation::kMean, {}, false), {HostTensor::From<std::uint8_t>({2}, {200, 200}, DataType::kUInt8)},
              {{{}, DataType::kUInt8}})[0]
            .As<std::uint8_t>() == std::vector<std::uint8_t>{72});

  std::string reason;
  CHECK_FALSE(IsSupported(Reduce(ReduceOperation::kL2, {0}, true), {HostTensor::I32({2}, {1, 2})},
                          {{{1}, DataType::kInt32}}, reason));
  CHECK(reason == "CpuRef reduces integers (here i32) by Max, Min, Sum, Prod, SumSquare, L1 and Mean only; L2, LogSum "
                  "and LogSumExp are real-valued");
  CHECK_THROWS_WITH_AS(RunOp(Reduce(ReduceOperation::kMean, {1}, false), {HostTensor::I32({2, 0}, {})},
                             {{{2}, DataType::kInt32}}),
                       "the integer mean of an empty set (input [2,0], i32) has no value", backplane::Exception);
}
