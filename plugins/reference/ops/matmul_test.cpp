// MatMul (numpy.matmul) against loops written here in double and products worked out by hand:
// plain and batched matrices, broadcast batch dimensions, rank-1 operands, and B given as a
// constant (packed once) or at run time.
#include "op_test_harness.hpp"
#include "op_test_values.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::MatMulDescriptor;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::CheckClose;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::Random;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

// numpy.matmul of A and B (both rank >= 2 here; rank-1 cases are reshaped by the caller):
// out[batch..., i, j] = sum_p A[batch'..., i, p] * B[batch''..., p, j], where batch' and
// batch'' are the output's batch index with size-1 (or missing) dimensions of A and B read
// at 0. Returns the output shape in `shape`.
std::vector<double> Naive(const TensorShape& a_shape, const std::vector<float>& a, const TensorShape& b_shape,
                          const std::vector<float>& b, std::vector<std::int64_t>& shape) {
  const std::size_t rank = std::max(a_shape.Rank(), b_shape.Rank());
  // Both shapes left-padded with 1s to the same rank.
  std::vector<std::int64_t> ad(rank, 1), bd(rank, 1);
  std::copy(a_shape.Dims().begin(), a_shape.Dims().end(), ad.end() - static_cast<std::ptrdiff_t>(a_shape.Rank()));
  std::copy(b_shape.Dims().begin(), b_shape.Dims().end(), bd.end() - static_cast<std::ptrdiff_t>(b_shape.Rank()));
  const std::int64_t m = ad[rank - 2], k = ad[rank - 1], n = bd[rank - 1];
  shape.assign(rank, 0);
  for (std::size_t d = 0; d + 2 < rank; ++d) shape[d] = std::max(ad[d], bd[d]);
  shape[rank - 2] = m;
  shape[rank - 1] = n;
  std::int64_t batches = 1;
  for (std::size_t d = 0; d + 2 < rank; ++d) batches *= shape[d];

  std::vector<double> out;
  for (std::int64_t index = 0; index < batches; ++index) {
    // Unravel `index` over the output's batch dimensions, then ravel into A's and B's.
    std::vector<std::int64_t> at(rank - 2);
    for (std::int64_t rest = index, d = static_cast<std::int64_t>(rank) - 3; d >= 0; --d) {
      at[d] = rest % shape[d];
      rest /= shape[d];
    }
    std::int64_t a_matrix = 0, b_matrix = 0;
    for (std::size_t d = 0; d + 2 < rank; ++d) {
      a_matrix = a_matrix * ad[d] + (ad[d] == 1 ? 0 : at[d]);
      b_matrix = b_matrix * bd[d] + (bd[d] == 1 ? 0 : at[d]);
    }
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        double sum = 0.0;
        for (std::int64_t p = 0; p < k; ++p) {
          sum += double{a[(a_matrix * m + i) * k + p]} * b[(b_matrix * k + p) * n + j];
        }
        out.push_back(sum);
      }
    }
  }
  return out;
}

void CheckMatMul(const TensorShape& a_shape, const TensorShape& b_shape, bool constant_b = false, unsigned seed = 3) {
  CAPTURE(a_shape);
  CAPTURE(b_shape);
  CAPTURE(constant_b);
  const auto a = Random(a_shape.NumElements(), seed);
  const auto b = Random(b_shape.NumElements(), seed + 1);
  std::vector<std::int64_t> shape;
  const auto expected = Naive(a_shape, a, b_shape, b, shape);
  const auto y = RunOp(MatMulDescriptor{}, {HostTensor::F32(a_shape, a), HostTensor::F32(b_shape, b, constant_b)},
                       {{TensorShape(shape), DataType::kFloat32}})[0]
                     .As<float>();
  CheckClose(y, expected);
}

std::string Reason(const std::vector<TensorShape>& inputs, const TensorShape& output) {
  std::vector<HostTensor> tensors;
  for (const auto& shape : inputs) tensors.push_back(HostTensor::F32(shape, std::vector<float>(shape.NumElements())));
  std::string reason;
  CHECK_FALSE(IsSupported(MatMulDescriptor{}, tensors, {{output, DataType::kFloat32}}, reason));
  return reason;
}

}  // namespace

TEST_CASE("matmul: 2x2 times 2x2 by hand") {
  const auto a = HostTensor::F32({2, 2}, {1, 2, 3, 4});
  const auto b = HostTensor::F32({2, 2}, {5, 6, 7, 8});
  const auto y = RunOp(MatMulDescriptor{}, {a, b}, {{{2, 2}, DataType::kFloat32}})[0].As<float>();
  CHECK(y == std::vector<float>{19, 22, 43, 50});
}

TEST_CASE("matmul: rank-1 operands are promoted and their dimension dropped, by hand") {
  const auto v = HostTensor::F32({2}, {1, 2});
  const auto m = HostTensor::F32({2, 2}, {5, 6, 7, 8});
  // [1 2] * M = [19 22]; M * [1 2]^T = [17 23]; [1 2] . [1 2] = 5 (a scalar, rank 0).
  CHECK(RunOp(MatMulDescriptor{}, {v, m}, {{{2}, DataType::kFloat32}})[0].As<float>() == std::vector<float>{19, 22});
  CHECK(RunOp(MatMulDescriptor{}, {m, v}, {{{2}, DataType::kFloat32}})[0].As<float>() == std::vector<float>{17, 23});
  CHECK(RunOp(MatMulDescriptor{}, {v, v}, {{TensorShape{}, DataType::kFloat32}})[0].As<float>() ==
        std::vector<float>{5});
  // Batched B with a rank-1 A: [3] x [2, 3, 1] -> [2, 1].
  const auto batched = HostTensor::F32({2, 3, 1}, {1, 2, 3, 4, 5, 6});
  CHECK(RunOp(MatMulDescriptor{}, {HostTensor::F32({3}, {1, 1, 1}), batched}, {{{2, 1}, DataType::kFloat32}})[0]
            .As<float>() == std::vector<float>{6, 15});
}

TEST_CASE("matmul: plain and batched matrices, odd sizes") {
  CheckMatMul({7, 5}, {5, 3});
  CheckMatMul({1, 1}, {1, 1});
  CheckMatMul({13, 300}, {300, 37});
  CheckMatMul({3, 7, 5}, {3, 5, 9});
  CheckMatMul({2, 3, 4, 6}, {2, 3, 6, 5});
}

TEST_CASE("matmul: batch dimensions broadcast") {
  CheckMatMul({2, 1, 4, 6}, {3, 6, 5});      // -> [2, 3, 4, 5]
  CheckMatMul({4, 6}, {3, 6, 5});            // A shared by every batch entry
  CheckMatMul({3, 4, 6}, {6, 5});            // B shared: one GEMM over [12, 6]
  CheckMatMul({3, 1, 4, 6}, {1, 2, 6, 5});   // both broadcast
  CheckMatMul({1, 3, 4, 6}, {1, 6, 5});      // size-1 batch dimensions only
}

TEST_CASE("matmul: a constant B is packed once and gives the same result") {
  CheckMatMul({3, 4, 20}, {20, 17}, true);
  CheckMatMul({2, 1, 4, 6}, {3, 6, 5}, true);
  CheckMatMul({5, 300}, {300, 40}, true);
}

TEST_CASE("matmul: unsupported layers say why") {
  CHECK(Reason({{2, 3}, {4, 5}}, {2, 5}).find("has K = 4") != std::string::npos);
  CHECK(Reason({{2, 2, 3}, {3, 3, 4}}, {3, 2, 4}).find("do not broadcast") != std::string::npos);
  CHECK(Reason({{2, 3}, {3, 4}}, {2, 1, 4}).find("the op gives f32 [2,4]") != std::string::npos);
  CHECK(Reason({{}, {3, 4}}, {4}).find("rank 1 or more") != std::string::npos);
  CHECK(Reason({{2, 3}}, {2, 3}).find("takes 2 inputs") != std::string::npos);
}

TEST_CASE("matmul: f64 by hand, batched and broadcast, in double") {
  const auto f64 = [](const TensorShape& shape, const std::vector<double>& values) {
    return HostTensor::From(shape, values, DataType::kFloat64);
  };
  // 1 + 2^-40 survives in double, not in float: the sum is exact in double.
  const double tiny = std::ldexp(1.0, -40);
  const auto y = RunOp(MatMulDescriptor{}, {f64({2, 2}, {1, 2, 3, 4}), f64({2, 2}, {5, 6, 7, 8 + tiny})},
                       {{{2, 2}, DataType::kFloat64}})[0]
                     .As<double>();
  CHECK(y == std::vector<double>{19, 22 + 2 * tiny, 43, 50 + 4 * tiny});
  // [2, 1, 1, 2] x [3, 2, 1] -> [2, 3, 1, 1]: every A row against every B column.
  const auto batched = RunOp(MatMulDescriptor{}, {f64({2, 1, 1, 2}, {1, 2, 3, 4}), f64({3, 2, 1}, {1, 0, 0, 1, 1, 1})},
                             {{{2, 3, 1, 1}, DataType::kFloat64}})[0]
                           .As<double>();
  CHECK(batched == std::vector<double>{1, 2, 3, 3, 4, 7});
  // A rank-1 inner product, as Einsum's "i,i" gives.
  CHECK(RunOp(MatMulDescriptor{}, {f64({3}, {1, 2, 3}), f64({3}, {4, 5, 6})}, {{TensorShape{}, DataType::kFloat64}})[0]
            .As<double>() == std::vector<double>{32});

  std::string reason;
  CHECK_FALSE(IsSupported(MatMulDescriptor{}, {f64({2, 2}, {1, 2, 3, 4}), HostTensor::F32({2, 2}, {1, 2, 3, 4})},
                          {{{2, 2}, DataType::kFloat64}}, reason));
  CHECK(reason == "inputs are f64 and f32; CpuRef runs MatMul on two f32 or two f64 inputs");
}
