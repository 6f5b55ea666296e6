// FullyConnected (ONNX Gemm) against a triple loop written here in double and a product worked
// out by hand: transposes, alpha and beta, every shape of C that broadcasts to [M, N], and
// operands given as constants (packed once) or at run time.
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
using backplane::FullyConnectedDescriptor;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::CheckClose;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::Random;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

FullyConnectedDescriptor Gemm(bool transpose_a, bool transpose_b, float alpha = 1.0f, float beta = 1.0f) {
  FullyConnectedDescriptor d;
  d.transpose_a = transpose_a;
  d.transpose_b = transpose_b;
  d.alpha = alpha;
  d.beta = beta;
  return d;
}

struct FcCase {
  std::int64_t m, n, k;
  FullyConnectedDescriptor descriptor;
  std::vector<std::int64_t> c_shape;  // empty vector with has_c: a scalar
  bool has_c = true;
  bool constant_a = false;
  bool constant_b = true;
  bool constant_c = true;
};

// Y[i][j] = alpha * sum_p A'[i][p] * B'[p][j] + beta * C[i or 0][j or 0], A' = A or A^T, B' = B
// or B^T, C indexed by the dimensions it has (size-1 and missing dimensions broadcast).
std::vector<double> Naive(const FcCase& t, const std::vector<float>& a, const std::vector<float>& b,
                          const std::vector<float>& c) {
  std::vector<double> y;
  const std::size_t c_rank = t.c_shape.size();
  for (std::int64_t i = 0; i < t.m; ++i) {
    for (std::int64_t j = 0; j < t.n; ++j) {
      double sum = 0.0;
      for (std::int64_t p = 0; p < t.k; ++p) {
        const double av = t.descriptor.transpose_a ? a[p * t.m + i] : a[i * t.k + p];
        const double bv = t.descriptor.transpose_b ? b[j * t.k + p] : b[p * t.n + j];
        sum += av * bv;
      }
      double bias = 0.0;
      if (t.has_c) {
        const std::int64_t cols = c_rank >= 1 ? t.c_shape[c_rank - 1] : 1;
        const std::int64_t rows = c_rank == 2 ? t.c_shape[0] : 1;
        bias = c[(rows == 1 ? 0 : i) * cols + (cols == 1 ? 0 : j)];
      }
      y.push_back(t.descriptor.alpha * sum + t.descriptor.beta * bias);
    }
  }
  return y;
}

void CheckCase(const FcCase& t, unsigned seed = 11) {
  const TensorShape a_shape = t.descriptor.transpose_a ? TensorShape{t.k, t.m} : TensorShape{t.m, t.k};
  const TensorShape b_shape = t.descriptor.transpose_b ? TensorShape{t.n, t.k} : TensorShape{t.k, t.n};
  const TensorShape c_shape(t.c_shape);
  const auto a = Random(a_shape.NumElements(), seed);
  const auto b = Random(b_shape.NumElements(), seed + 1);
  const auto c = Random(c_shape.NumElements(), seed + 2);
  std::vector<HostTensor> inputs{HostTensor::F32(a_shape, a, t.constant_a), HostTensor::F32(b_shape, b, t.constant_b)};
  if (t.has_c) inputs.push_back(HostTensor::F32(c_shape, c, t.constant_c));
  const auto y = RunOp(t.descriptor, inputs, {{{t.m, t.n}, DataType::kFloat32}})[0].As<float>();
  CheckClose(y, Naive(t, a, b, c));
}

std::string Reason(const FullyConnectedDescriptor& descriptor, const std::vector<TensorShape>& inputs,
                   const TensorShape& output) {
  std::vector<HostTensor> tensors;
  for (const auto& shape : inputs) tensors.push_back(HostTensor::F32(shape, std::vector<float>(shape.NumElements())));
  std::string reason;
  CHECK_FALSE(IsSupported(descriptor, tensors, {{output, DataType::kFloat32}}, reason));
  return reason;
}

}  // namespace

TEST_CASE("fc: a fully connected layer by hand") {
  // x [1, 3] times W^T, W = [[1 0 -1], [2 1 0]] ([N, K], the default transpose_b), plus bias.
  const auto x = HostTensor::F32({1, 3}, {1, 2, 3});
  const auto w = HostTensor::F32({2, 3}, {1, 0, -1, 2, 1, 0}, true);
  const auto bias = HostTensor::F32({2}, {10, 20}, true);
  const auto y = RunOp(FullyConnectedDescriptor{}, {x, w, bias}, {{{1, 2}, DataType::kFloat32}})[0].As<float>();
  CHECK(y == std::vector<float>{8, 24});
}

TEST_CASE("fc: every transpose combination, odd sizes") {
  for (int t = 0; t < 4; ++t) {
    CheckCase({7, 5, 3, Gemm((t & 1) != 0, (t & 2) != 0), {5}});
    CheckCase({13, 37, 300, Gemm((t & 1) != 0, (t & 2) != 0, 0.5f, 2.0f), {13, 37}});
  }
}

TEST_CASE("fc: C broadcasts from a scalar, [N], [1, N], [M, 1] and [M, N]") {
  const std::vector<std::vector<std::int64_t>> shapes{{}, {1}, {6}, {1, 6}, {4, 1}, {4, 6}, {1, 1}};
  for (const auto& c_shape : shapes) {
    CAPTURE(TensorShape(c_shape));
    CheckCase({4, 6, 5, Gemm(false, true, 1.5f, -0.5f), c_shape});
    CheckCase({4, 6, 5, Gemm(true, false), c_shape, true, false, false, false});
  }
}

TEST_CASE("fc: without C, and with beta 0") {
  CheckCase({9, 20, 33, Gemm(false, true, 2.0f), {}, false});
  CheckCase({9, 20, 33, Gemm(false, false, 1.0f, 0.0f), {9, 20}});
}

TEST_CASE("fc: operands constant or given at run time agree") {
  for (const bool constant_a : {false, true}) {
    for (const bool constant_b : {false, true}) {
      CAPTURE(constant_a);
      CAPTURE(constant_b);
      CheckCase({10, 300, 70, Gemm(false, true), {300}, true, constant_a, constant_b, constant_b});
    }
  }
}

TEST_CASE("fc: unsupported layers say why") {
  const FullyConnectedDescriptor fc;  // B is [N, K]
  CHECK(Reason(fc, {{2, 3, 1}, {4, 3}}, {2, 4}).find("A (input 0) must have rank 2") != std::string::npos);
  CHECK(Reason(fc, {{2, 3}, {12}}, {2, 4}).find("B (input 1) must have rank 2") != std::string::npos);
  CHECK(Reason(fc, {{2, 3}, {4, 5}}, {2, 4}).find("has K = 5") != std::string::npos);
  CHECK(Reason(fc, {{2, 3}, {4, 3}, {3}}, {2, 4}).find("C [3] does not broadcast to [2,4]") != std::string::npos);
  CHECK(Reason(fc, {{2, 3}, {4, 3}, {2, 4, 1}}, {2, 4}).find("does not broadcast") != std::string::npos);
  CHECK(Reason(fc, {{2, 3}, {4, 3}}, {4, 2}).find("the op gives f32 [2,4]") != std::string::npos);
  CHECK(Reason(fc, {{2, 3}}, {2, 4}).find("takes 2 to 3 inputs") != std::string::npos);

  std::string reason;
  const std::vector<HostTensor> ints{HostTensor::I32({2, 3}, std::vector<std::int32_t>(6)),
                                     HostTensor::F32({4, 3}, std::vector<float>(12))};
  CHECK_FALSE(IsSupported(fc, ints, {{{2, 4}, DataType::kFloat32}}, reason));
  CHECK(reason.find("the op gives i32") != std::string::npos);
}
