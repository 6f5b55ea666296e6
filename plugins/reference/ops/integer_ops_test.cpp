// MatMulInteger and ConvolutionInteger against products worked out by hand (ONNX's own examples)
// and naive loops written here in i64 that read the padding as the zero point: every i8 / u8
// pairing, zero points per tensor, per row / column and per output channel, batch broadcasting,
// groups, 1 to 3 spatial axes, and the 32-bit wrap ONNX allows.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using backplane::ConvolutionIntegerDescriptor;
using backplane::DataType;
using backplane::MatMulIntegerDescriptor;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::RunOp;

HostTensor U8(const TensorShape& shape, const std::vector<std::uint8_t>& values) {
  return HostTensor::From(shape, values, DataType::kUInt8);
}
HostTensor I8(const TensorShape& shape, const std::vector<std::int8_t>& values) {
  return HostTensor::From(shape, values, DataType::kInt8);
}

// `count` random values of an 8-bit `type` (its whole range), as i32.
std::vector<std::int32_t> RandomEightBit(std::int64_t count, DataType type, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> values(type == DataType::kInt8 ? -128 : 0, type == DataType::kInt8 ? 127 : 255);
  std::vector<std::int32_t> out(static_cast<std::size_t>(count));
  for (auto& v : out) v = values(generator);
  return out;
}

HostTensor EightBit(const TensorShape& shape, DataType type, const std::vector<std::int32_t>& values) {
  if (type == DataType::kInt8) return I8(shape, std::vector<std::int8_t>(values.begin(), values.end()));
  return U8(shape, std::vector<std::uint8_t>(values.begin(), values.end()));
}

std::vector<std::int32_t> Run(const MatMulIntegerDescriptor& d, const std::vector<HostTensor>& inputs,
                              const TensorShape& out) {
  return RunOp(d, inputs, {TensorInfo{out, DataType::kInt32}})[0].As<std::int32_t>();
}

}  // namespace

TEST_CASE("MatMulInteger: ONNX's example, u8 with a zero point for A") {
  const MatMulIntegerDescriptor d;
  const HostTensor a = U8({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0});
  const HostTensor b = U8({3, 2}, {1, 4, 2, 5, 3, 6});
  // (A - 12) @ (B - 0)
  CHECK(Run(d, {a, b, U8({}, {12}), U8({}, {0})}, {4, 2}) ==
        std::vector<std::int32_t>{-38, -83, -44, -98, -50, -113, -56, -128});
  CHECK(Run(d, {a, b, U8({1}, {12})}, {4, 2}) == std::vector<std::int32_t>{-38, -83, -44, -98, -50, -113, -56, -128});
  // No zero points: A @ B.
  CHECK(Run(d, {a, b}, {4, 2}) == std::vector<std::int32_t>{34, 97, 28, 82, 22, 67, 16, 52});
}

TEST_CASE("MatMulInteger: every i8 and u8 pairing, per-row and per-column zero points, batches") {
  const MatMulIntegerDescriptor d;
  for (const DataType ta : {DataType::kInt8, DataType::kUInt8}) {
    for (const DataType tb : {DataType::kInt8, DataType::kUInt8}) {
      CAPTURE(static_cast<int>(ta));
      CAPTURE(static_cast<int>(tb));
      // A [2, 1, 3, 5] (batch 2 x 1) times B [4, 5, 2] (batch 4): y [2, 4, 3, 2].
      const auto a = RandomEightBit(2 * 3 * 5, ta, 1);
      const auto b = RandomEightBit(4 * 5 * 2, tb, 2);
      const auto a_zero = RandomEightBit(3, ta, 3);  // per row: [3, 1]
      const auto b_zero = RandomEightBit(2, tb, 4);  // per column: [2]
      std::vector<std::int32_t> expected;
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 4; ++j) {
          for (int m = 0; m < 3; ++m) {
            for (int n = 0; n < 2; ++n) {
              std::int64_t sum = 0;
              for (int k = 0; k < 5; ++k) {
                sum += std::int64_t{a[(i * 3 + m) * 5 + k] - a_zero[m]} * (b[(j * 5 + k) * 2 + n] - b_zero[n]);
              }
              expected.push_back(static_cast<std::int32_t>(sum));
            }
          }
        }
      }
      CHECK(Run(d,
                {EightBit({2, 1, 3, 5}, ta, a), EightBit({4, 5, 2}, tb, b), EightBit({3, 1}, ta, a_zero),
                 EightBit({2}, tb, b_zero)},
                {2, 4, 3, 2}) == expected);
    }
  }
}

TEST_CASE("MatMulInteger: rank-1 operands and the 32-bit wrap") {
  const MatMulIntegerDescriptor d;
  // A vector times a vector: one value. (-128 - 127) * (-128 - 127) = 65025 per term; 33026 terms
  // make 2147515650, past 2^31 - 1: the sum wraps to 2147515650 - 2^32.
  const std::int64_t k = 33026;
  const HostTensor a = I8({k}, std::vector<std::int8_t>(static_cast<std::size_t>(k), -128));
  const HostTensor zero = I8({}, {127});
  const std::int64_t exact = 65025 * k;
  CHECK(Run(d, {a, a, zero, zero}, {}) == std::vector<std::int32_t>{static_cast<std::int32_t>(exact - (std::int64_t{1} << 32))});
  // [3] @ [3, 2] and [2, 3] @ [3].
  const HostTensor v = I8({3}, {1, -2, 3});
  const HostTensor m = I8({3, 2}, {1, 2, 3, 4, 5, 6});
  CHECK(Run(d, {v, m}, {2}) == std::vector<std::int32_t>{10, 12});
  CHECK(Run(d, {I8({2, 3}, {1, 3, 5, 2, 4, 6}), v}, {2}) == std::vector<std::int32_t>{10, 12});
}

namespace {

// ConvInteger by definition: y[n, m, o...] = sum over the group's channels and the kernel taps of
// (x at o * stride + tap * dilation - pad_begin, or the zero point in the padding, minus the zero
// point) * (w - w_zero_point[m]), in i64. Spatial axes are given as three (leading extents 1).
struct NaiveConv {
  std::int64_t n, c, m, groups;
  std::array<std::int64_t, 3> size, kernel, stride, dilation, pad, out;

  std::vector<std::int32_t> Run(const std::vector<std::int32_t>& x, std::int32_t x_zero,
                                const std::vector<std::int32_t>& w, const std::vector<std::int32_t>& w_zero) const {
    std::vector<std::int32_t> y;
    const std::int64_t cg = c / groups, mg = m / groups;
    for (std::int64_t b = 0; b < n; ++b) {
      for (std::int64_t oc = 0; oc < m; ++oc) {
        for (std::int64_t o0 = 0; o0 < out[0]; ++o0) {
          for (std::int64_t o1 = 0; o1 < out[1]; ++o1) {
            for (std::int64_t o2 = 0; o2 < out[2]; ++o2) {
              std::int64_t sum = 0;
              for (std::int64_t ic = 0; ic < cg; ++ic) {
                const std::int64_t channel = (oc / mg) * cg + ic;
                for (std::int64_t k0 = 0; k0 < kernel[0]; ++k0) {
                  for (std::int64_t k1 = 0; k1 < kernel[1]; ++k1) {
                    for (std::int64_t k2 = 0; k2 < kernel[2]; ++k2) {
                      const std::array<std::int64_t, 3> at{o0 * stride[0] + k0 * dilation[0] - pad[0],
                                                           o1 * stride[1] + k1 * dilation[1] - pad[1],
                                                           o2 * stride[2] + k2 * dilation[2] - pad[2]};
                      std::int64_t value = x_zero;
                      if (at[0] >= 0 && at[0] < size[0] && at[1] >= 0 && at[1] < size[1] && at[2] >= 0 &&
                          at[2] < size[2]) {
                        value = x[static_cast<std::size_t>(((b * c + channel) * size[0] + at[0]) * size[1] * size[2] +
                                                           at[1] * size[2] + at[2])];
                      }
                      const std::int64_t tap =
                          w[static_cast<std::size_t>(((oc * cg + ic) * kernel[0] + k0) * kernel[1] * kernel[2] +
                                                     k1 * kernel[2] + k2)];
                      sum += (value - x_zero) * (tap - w_zero[static_cast<std::size_t>(w_zero.size() == 1 ? 0 : oc)]);
                    }
                  }
                }
              }
              y.push_back(static_cast<std::int32_t>(sum));
            }
          }
        }
      }
    }
    return y;
  }
};

}  // namespace

TEST_CASE("ConvolutionInteger: ONNX's example, the padding reads as the zero point") {
  ConvolutionIntegerDescriptor d;
  d.strides = {1, 1};
  d.dilations = {1, 1};
  d.pads = {1, 1, 1, 1};
  const HostTensor x = U8({1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10});
  const HostTensor w = U8({1, 1, 2, 2}, {1, 1, 1, 1});
  const auto y = RunOp(d, {x, w, U8({}, {1})}, {TensorInfo{TensorShape{1, 1, 4, 4}, DataType::kInt32}});
  CHECK(y[0].As<std::int32_t>() ==
        std::vector<std::int32_t>{1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9});
  d.pads = {0, 0, 0, 0};
  const auto unpadded = RunOp(d, {x, w, U8({1}, {1})}, {TensorInfo{TensorShape{1, 1, 2, 2}, DataType::kInt32}});
  CHECK(unpadded[0].As<std::int32_t>() == std::vector<std::int32_t>{12, 16, 24, 28});
}

TEST_CASE("ConvolutionInteger: 1 to 3 spatial axes, groups, per-channel zero points, i8 and u8") {
  struct Case {
    std::vector<std::int64_t> size, kernel;
    std::vector<std::uint32_t> stride, dilation, pads;
    std::int64_t groups;
  };
  const std::vector<Case> cases = {
      {{7}, {3}, {2}, {1}, {1, 2}, 1},
      {{5, 6}, {3, 2}, {1, 2}, {2, 1}, {2, 0, 1, 1}, 2},
      {{3, 4, 5}, {2, 2, 3}, {1, 1, 2}, {1, 2, 1}, {1, 0, 1, 0, 1, 1}, 1},
  };
  unsigned seed = 10;
  for (const Case& k : cases) {
    for (const DataType tx : {DataType::kInt8, DataType::kUInt8}) {
      for (const DataType tw : {DataType::kInt8, DataType::kUInt8}) {
        const std::size_t rank = k.size.size();
        CAPTURE(rank);
        const std::int64_t n = 2, c = 4, m = 6;
        ConvolutionIntegerDescriptor d;
        d.strides = k.stride;
        d.dilations = k.dilation;
        d.pads = k.pads;
        d.groups = static_cast<std::uint32_t>(k.groups);
        NaiveConv naive{n, c, m, k.groups, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}};
        std::vector<std::int64_t> x_dims{n, c}, w_dims{m, c / k.groups}, y_dims{n, m};
        for (std::size_t a = 0; a < rank; ++a) {
          const std::size_t at = 3 - rank + a;
          naive.size[at] = k.size[a];
          naive.kernel[at] = k.kernel[a];
          naive.stride[at] = k.stride[a];
          naive.dilation[at] = k.dilation[a];
          naive.pad[at] = k.pads[a];
          naive.out[at] = (k.size[a] + k.pads[a] + k.pads[rank + a] - (k.kernel[a] - 1) * k.dilation[a] - 1) / k.stride[a] + 1;
          x_dims.push_back(k.size[a]);
          w_dims.push_back(k.kernel[a]);
          y_dims.push_back(naive.out[at]);
        }
        const TensorShape x_shape(x_dims), w_shape(w_dims), y_shape(y_dims);
        const auto x = RandomEightBit(x_shape.NumElements(), tx, ++seed);
        const auto w = RandomEightBit(w_shape.NumElements(), tw, ++seed);
        const auto x_zero = RandomEightBit(1, tx, ++seed);
        const auto w_zero = RandomEightBit(m, tw, ++seed);
        const TensorInfo y{y_shape, DataType::kInt32};
        CHECK(RunOp(d, {EightBit(x_shape, tx, x), EightBit(w_shape, tw, w), EightBit({}, tx, x_zero), EightBit({m}, tw, w_zero)},
                    {y})[0]
                  .As<std::int32_t>() == naive.Run(x, x_zero[0], w, w_zero));
        // One zero point for all weights; none at all.
        CHECK(RunOp(d, {EightBit(x_shape, tx, x), EightBit(w_shape, tw, w), EightBit({1}, tx, x_zero), EightBit({1}, tw, {w_zero[0]})},
                    {y})[0]
                  .As<std::int32_t>() == naive.Run(x, x_zero[0], w, {w_zero[0]}));
        CHECK(RunOp(d, {EightBit(x_shape, tx, x), EightBit(w_shape, tw, w)}, {y})[0].As<std::int32_t>() ==
              naive.Run(x, 0, w, {0}));
      }
    }
  }
}
