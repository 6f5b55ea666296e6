// The blocked GEMM against a naive triple loop in double, on shapes that cross every block
// boundary (micro-tile, kKc, kMc, kNc), with every combination of transposes and packed
// operands, and against a product worked out by hand.
#include "gemm.hpp"
#include "op_test_values.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using backplane::reference::Gemm;
using backplane::reference::testing::CheckClose;
using backplane::reference::GemmOperand;
using backplane::reference::GemmWorkspaceSize;
using backplane::reference::kGemmKc;
using backplane::reference::kGemmMc;
using backplane::reference::kGemmNc;
using backplane::reference::kGemmNr;

std::vector<float> Random(std::size_t count, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (auto& v : values) v = uniform(generator);
  return values;
}

// The test's own definition: C[i][j] = alpha * sum_p op(A)[i][p] * op(B)[p][j] + beta * C[i][j],
// beta == 0 ignoring C.
struct Problem {
  std::int64_t m, n, k;
  bool transpose_a = false, transpose_b = false;
  float alpha = 1.0f, beta = 0.0f;
  std::int64_t extra_ld = 0;  // operands and C stored with wider rows than they use
};

struct Data {
  std::vector<float> a, b, c;
  std::int64_t lda, ldb, ldc;
};

Data MakeData(const Problem& p, unsigned seed) {
  Data d;
  const std::int64_t a_rows = p.transpose_a ? p.k : p.m, a_cols = p.transpose_a ? p.m : p.k;
  const std::int64_t b_rows = p.transpose_b ? p.n : p.k, b_cols = p.transpose_b ? p.k : p.n;
  d.lda = a_cols + p.extra_ld;
  d.ldb = b_cols + p.extra_ld;
  d.ldc = p.n + p.extra_ld;
  d.a = Random(static_cast<std::size_t>(a_rows * d.lda), seed);
  d.b = Random(static_cast<std::size_t>(b_rows * d.ldb), seed + 1);
  d.c = Random(static_cast<std::size_t>(p.m * d.ldc), seed + 2);
  return d;
}

std::vector<double> Naive(const Problem& p, const Data& d) {
  std::vector<double> c(d.c.begin(), d.c.end());
  for (std::int64_t i = 0; i < p.m; ++i) {
    for (std::int64_t j = 0; j < p.n; ++j) {
      double sum = 0.0;
      for (std::int64_t q = 0; q < p.k; ++q) {
        const double a = p.transpose_a ? d.a[q * d.lda + i] : d.a[i * d.lda + q];
        const double b = p.transpose_b ? d.b[j * d.ldb + q] : d.b[q * d.ldb + j];
        sum += a * b;
      }
      double& out = c[i * d.ldc + j];
      out = p.alpha * sum + (p.beta == 0.0f ? 0.0 : p.beta * out);
    }
  }
  return c;
}

enum class Packing { kNone, kA, kB, kBoth };

std::vector<float> Run(const Problem& p, const Data& d, Packing packing) {
  GemmOperand a = GemmOperand::RowMajor(d.a.data(), d.lda, p.transpose_a);
  GemmOperand b = GemmOperand::RowMajor(d.b.data(), d.ldb, p.transpose_b);
  std::vector<float> packed_a, packed_b;
  if (packing == Packing::kA || packing == Packing::kBoth) {
    packed_a.resize(backplane::reference::PackedASize(p.m, p.k));
    backplane::reference::PackA(a, p.m, p.k, packed_a.data());
    a = GemmOperand::Packed(packed_a.data());
  }
  if (packing == Packing::kB || packing == Packing::kBoth) {
    packed_b.resize(backplane::reference::PackedBSize(p.k, p.n));
    backplane::reference::PackB(b, p.k, p.n, packed_b.data());
    b = GemmOperand::Packed(packed_b.data());
  }
  std::vector<float> workspace(GemmWorkspaceSize(p.m, p.n, p.k, a, b));
  std::vector<float> c = d.c;
  Gemm(p.m, p.n, p.k, p.alpha, a, b, p.beta, c.data(), d.ldc, workspace.empty() ? nullptr : workspace.data());
  return c;
}

void CheckProblem(const Problem& p, Packing packing = Packing::kNone) {
  CAPTURE(p.m);
  CAPTURE(p.n);
  CAPTURE(p.k);
  CAPTURE(p.transpose_a);
  CAPTURE(p.transpose_b);
  CAPTURE(static_cast<int>(packing));
  const Data d = MakeData(p, static_cast<unsigned>(p.m * 131 + p.n * 17 + p.k));
  CheckClose(Run(p, d, packing), Naive(p, d));
}

}  // namespace

TEST_CASE("gemm: a 2x3 by 3x2 product worked out by hand") {
  // [1 2 3; 4 5 6] * [7 8; 9 10; 11 12] = [58 64; 139 154]; then 2 * that + 0.5 * C.
  const std::vector<float> a{1, 2, 3, 4, 5, 6}, b{7, 8, 9, 10, 11, 12};
  std::vector<float> c{2, 4, 6, 8};
  std::vector<float> workspace(GemmWorkspaceSize(2, 2, 3, GemmOperand::RowMajor(a.data(), 3),
                                                 GemmOperand::RowMajor(b.data(), 2)));
  Gemm(2, 2, 3, 2.0f, GemmOperand::RowMajor(a.data(), 3), GemmOperand::RowMajor(b.data(), 2), 0.5f, c.data(), 2,
       workspace.data());
  CHECK(c == std::vector<float>{117, 130, 281, 312});
}

TEST_CASE("gemm: transposed operands by hand") {
  // A^T with A = [1 4; 2 5; 3 6] (3x2) is [1 2 3; 4 5 6]; B^T with B = [7 9 11; 8 10 12].
  const std::vector<float> a{1, 4, 2, 5, 3, 6}, b{7, 9, 11, 8, 10, 12};
  std::vector<float> c(4, std::numeric_limits<float>::quiet_NaN());
  std::vector<float> workspace(GemmWorkspaceSize(2, 2, 3, GemmOperand::RowMajor(a.data(), 2, true),
                                                 GemmOperand::RowMajor(b.data(), 3, true)));
  Gemm(2, 2, 3, 1.0f, GemmOperand::RowMajor(a.data(), 2, true), GemmOperand::RowMajor(b.data(), 3, true), 0.0f,
       c.data(), 2, workspace.data());
  CHECK(c == std::vector<float>{58, 64, 139, 154});
}

TEST_CASE("gemm: odd shapes against the naive loop, every transpose") {
  const std::vector<Problem> shapes{
      {1, 1, 1},   {7, 5, 3},     {6, 16, 8},     {5, 15, 1},  {13, 37, 300}, {kGemmMc + 7, 20, 10},
      {3, 4, 2 * kGemmKc + 1}, {64, 64, 513}, {2, kGemmNc + 21, 3},
  };
  for (Problem p : shapes) {
    for (int t = 0; t < 4; ++t) {
      p.transpose_a = (t & 1) != 0;
      p.transpose_b = (t & 2) != 0;
      CheckProblem(p);
    }
  }
}

TEST_CASE("gemm: alpha, beta and strided storage") {
  CheckProblem({9, 23, 17, false, false, 0.5f, 2.0f});
  CheckProblem({9, 23, 17, true, true, -1.5f, 1.0f, 5});
  CheckProblem({31, 33, 260, false, true, 1.0f, -0.25f, 3});
}

TEST_CASE("gemm: prepacked operands give the same result") {
  for (const Packing packing : {Packing::kA, Packing::kB, Packing::kBoth}) {
    CheckProblem({7, 5, 3, false, false, 1.0f, 0.0f}, packing);
    CheckProblem({kGemmMc + 11, 45, kGemmKc + 33, true, false, 2.0f, 1.0f}, packing);
    CheckProblem({20, kGemmNc + 5, 7, false, true, 1.0f, 0.5f, 2}, packing);
  }
  // Packing needs no workspace for that operand; with both packed, none at all.
  const std::vector<float> dummy(1);
  const GemmOperand packed = GemmOperand::Packed(dummy.data());
  CHECK(GemmWorkspaceSize(100, 100, 100, packed, packed) == 0);
  CHECK(GemmWorkspaceSize(100, 100, 100, packed, GemmOperand::RowMajor(dummy.data(), 100)) <
        GemmWorkspaceSize(100, 100, 100, GemmOperand::RowMajor(dummy.data(), 100),
                          GemmOperand::RowMajor(dummy.data(), 100)));
}

TEST_CASE("gemm: beta 0 overwrites C, NaNs included, k = 0 scales C by beta") {
  const std::vector<float> a{1, 2}, b{3, 4};
  std::vector<float> c{std::numeric_limits<float>::quiet_NaN()};
  std::vector<float> workspace(
      GemmWorkspaceSize(1, 1, 2, GemmOperand::RowMajor(a.data(), 2), GemmOperand::RowMajor(b.data(), 1)));
  Gemm(1, 1, 2, 1.0f, GemmOperand::RowMajor(a.data(), 2), GemmOperand::RowMajor(b.data(), 1), 0.0f, c.data(), 1,
       workspace.data());
  CHECK(c[0] == 11.0f);

  std::vector<float> scaled{1, 2, 3, 4};
  Gemm(2, 2, 0, 1.0f, GemmOperand::RowMajor(a.data(), 0), GemmOperand::RowMajor(b.data(), 2), 3.0f, scaled.data(), 2,
       nullptr);
  CHECK(scaled == std::vector<float>{3, 6, 9, 12});
  Gemm(2, 2, 0, 1.0f, GemmOperand::RowMajor(a.data(), 0), GemmOperand::RowMajor(b.data(), 2), 0.0f, scaled.data(), 2,
       nullptr);
  CHECK(scaled == std::vector<float>{0, 0, 0, 0});
}

TEST_CASE("gemm: PackedBRowOf locates PackB's elements") {
  const std::int64_t k = kGemmKc + 40, n = 2 * kGemmNr + 5;
  const std::vector<float> b = Random(static_cast<std::size_t>(k * n), 7);
  std::vector<float> packed(backplane::reference::PackedBSize(k, n));
  backplane::reference::PackB(GemmOperand::RowMajor(b.data(), n), k, n, packed.data());
  std::size_t misses = 0;
  for (std::int64_t row = 0; row < k; ++row) {
    const auto layout = backplane::reference::PackedBRowOf(k, n, row);
    for (std::int64_t col = 0; col < n; ++col) {
      const float at = packed[layout.offset + (col / kGemmNr) * layout.panel_stride + col % kGemmNr];
      misses += at != b[row * n + col];
    }
  }
  CHECK(misses == 0);
}

TEST_CASE("gemm: names the micro-kernel it dispatches to") {
  const std::string name = backplane::reference::GemmKernelName();
  CHECK((name == "avx2+fma" || name == "vector4" || name == "scalar"));
}
