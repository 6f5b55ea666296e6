#include "gemm.hpp"

#include <algorithm>
#include <cstring>

namespace backplane::reference {

namespace {

std::int64_t RoundUp(std::int64_t value, std::int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

float ElementOf(const GemmOperand& x, std::int64_t row, std::int64_t col) {
  return x.transposed ? x.data[col * x.ld + row] : x.data[row * x.ld + col];
}

// Rows [row0, row0 + rows) and depth [k0, k0 + kc) of op(A) into kGemmMr-row panels at dst.
void PackABlock(const GemmOperand& a, std::int64_t row0, std::int64_t rows, std::int64_t k0, std::int64_t kc,
                float* dst) {
  for (std::int64_t p = 0; p < rows; p += kGemmMr) {
    const std::int64_t valid = std::min(kGemmMr, rows - p);
    float* panel = dst + p * kc;
    for (std::int64_t kk = 0; kk < kc; ++kk) {
      float* out = panel + kk * kGemmMr;
      for (std::int64_t i = 0; i < valid; ++i) out[i] = ElementOf(a, row0 + p + i, k0 + kk);
      for (std::int64_t i = valid; i < kGemmMr; ++i) out[i] = 0.0f;
    }
  }
}

// Depth [k0, k0 + kc) and columns [col0, col0 + cols) of op(B) into kGemmNr-column panels at dst.
void PackBBlock(const GemmOperand& b, std::int64_t k0, std::int64_t kc, std::int64_t col0, std::int64_t cols,
                float* dst) {
  for (std::int64_t q = 0; q < cols; q += kGemmNr) {
    const std::int64_t valid = std::min(kGemmNr, cols - q);
    float* panel = dst + q * kc;
    if (!b.transposed && valid == kGemmNr) {
      for (std::int64_t kk = 0; kk < kc; ++kk) {
        std::memcpy(panel + kk * kGemmNr, b.data + (k0 + kk) * b.ld + col0 + q, kGemmNr * sizeof(float));
      }
      continue;
    }
    for (std::int64_t kk = 0; kk < kc; ++kk) {
      float* out = panel + kk * kGemmNr;
      for (std::int64_t j = 0; j < valid; ++j) out[j] = ElementOf(b, k0 + kk, col0 + q + j);
      for (std::int64_t j = valid; j < kGemmNr; ++j) out[j] = 0.0f;
    }
  }
}

// The micro-kernel: C tile (rows x cols, at most kGemmMr x kGemmNr) = alpha * Ap * Bp +
// beta * C tile, Ap one packed A panel and Bp one packed B panel of depth kc. C is not read
// when beta == 0. `Vec` is a GCC vector of floats (or float itself) whose width divides
// kGemmNr: each row of the accumulator tile is kGemmNr / width vectors, kept in registers.
using MicroKernel = void (*)(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                             std::int64_t rows, std::int64_t cols, float alpha, float beta);

#if defined(__GNUC__)
#define BACKPLANE_GEMM_INLINE __attribute__((always_inline)) inline
#else
#define BACKPLANE_GEMM_INLINE inline
#endif

template <typename Vec>
BACKPLANE_GEMM_INLINE void MicroKernelBody(std::int64_t kc, const float* __restrict a, const float* __restrict b,
                                           float* __restrict c, std::int64_t ldc, std::int64_t rows,
                                           std::int64_t cols, float alpha, float beta) {
  constexpr std::int64_t kWidth = sizeof(Vec) / sizeof(float);
  constexpr std::int64_t kVecs = kGemmNr / kWidth;
  static_assert(kGemmNr % kWidth == 0, "the vector width must divide kGemmNr");

  Vec acc[kGemmMr][kVecs];
  for (std::int64_t i = 0; i < kGemmMr; ++i) {
    for (std::int64_t v = 0; v < kVecs; ++v) acc[i][v] = Vec{};
  }
  for (std::int64_t k = 0; k < kc; ++k) {
    Vec bk[kVecs];
    for (std::int64_t v = 0; v < kVecs; ++v) std::memcpy(&bk[v], b + k * kGemmNr + v * kWidth, sizeof(Vec));
    for (std::int64_t i = 0; i < kGemmMr; ++i) {
      const float ai = a[k * kGemmMr + i];
      for (std::int64_t v = 0; v < kVecs; ++v) acc[i][v] += ai * bk[v];
    }
  }

  if (rows == kGemmMr && cols == kGemmNr) {
    for (std::int64_t i = 0; i < kGemmMr; ++i) {
      float* row = c + i * ldc;
      for (std::int64_t v = 0; v < kVecs; ++v) {
        Vec result = alpha * acc[i][v];
        if (beta != 0.0f) {
          Vec old;
          std::memcpy(&old, row + v * kWidth, sizeof old);
          result += beta * old;
        }
        std::memcpy(row + v * kWidth, &result, sizeof result);
      }
    }
    return;
  }
  // Copied through a local so that acc's address is never taken and it stays in registers.
  float tile[kGemmMr][kGemmNr];
  for (std::int64_t i = 0; i < kGemmMr; ++i) {
    for (std::int64_t v = 0; v < kVecs; ++v) {
      const Vec value = acc[i][v];
      std::memcpy(&tile[i][v * kWidth], &value, sizeof value);
    }
  }
  for (std::int64_t i = 0; i < rows; ++i) {
    float* row = c + i * ldc;
    for (std::int64_t j = 0; j < cols; ++j) {
      row[j] = beta != 0.0f ? alpha * tile[i][j] + beta * row[j] : alpha * tile[i][j];
    }
  }
}

// The same body compiled for each instruction set; Gemm picks one per call from what the CPU
// supports. x86-64 builds stay portable: only these functions use AVX2/FMA instructions, and
// they run only where the CPU has them.
#if defined(__GNUC__)
typedef float Float4 __attribute__((vector_size(16)));
typedef float Float8 __attribute__((vector_size(32)));

__attribute__((noinline)) void MicroKernelBaseline(std::int64_t kc, const float* a, const float* b, float* c,
                                                   std::int64_t ldc, std::int64_t rows, std::int64_t cols,
                                                   float alpha, float beta) {
  MicroKernelBody<Float4>(kc, a, b, c, ldc, rows, cols, alpha, beta);
}
constexpr const char* kBaselineName = "vector4";
#else
void MicroKernelBaseline(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                         std::int64_t rows, std::int64_t cols, float alpha, float beta) {
  MicroKernelBody<float>(kc, a, b, c, ldc, rows, cols, alpha, beta);
}
constexpr const char* kBaselineName = "scalar";
#endif

#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((noinline, target("avx2,fma"))) void MicroKernelAvx2(std::int64_t kc, const float* a, const float* b,
                                                                    float* c, std::int64_t ldc, std::int64_t rows,
                                                                    std::int64_t cols, float alpha, float beta) {
  MicroKernelBody<Float8>(kc, a, b, c, ldc, rows, cols, alpha, beta);
}

bool CpuHasAvx2Fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

struct KernelChoice {
  MicroKernel kernel;
  const char* name;
};

KernelChoice SelectMicroKernel() {
#if defined(__GNUC__) && defined(__x86_64__)
  if (CpuHasAvx2Fma()) return {MicroKernelAvx2, "avx2+fma"};
#endif
  return {MicroKernelBaseline, kBaselineName};
}

// Thread-safe: initialized once (C++11 magic statics), read-only afterwards.
const KernelChoice& Kernel() {
  static const KernelChoice choice = SelectMicroKernel();
  return choice;
}

void ScaleC(std::int64_t m, std::int64_t n, float beta, float* c, std::int64_t ldc) {
  for (std::int64_t i = 0; i < m; ++i) {
    float* row = c + i * ldc;
    if (beta == 0.0f) {
      std::fill(row, row + n, 0.0f);
    } else {
      for (std::int64_t j = 0; j < n; ++j) row[j] *= beta;
    }
  }
}

std::size_t ABlockFloats(std::int64_t m, std::int64_t k) {
  return static_cast<std::size_t>(RoundUp(std::min(m, kGemmMc), kGemmMr) * std::min(k, kGemmKc));
}
std::size_t BBlockFloats(std::int64_t k, std::int64_t n) {
  return static_cast<std::size_t>(std::min(k, kGemmKc) * RoundUp(std::min(n, kGemmNc), kGemmNr));
}

}  // namespace

std::size_t PackedASize(std::int64_t m, std::int64_t k) { return static_cast<std::size_t>(RoundUp(m, kGemmMr) * k); }
std::size_t PackedBSize(std::int64_t k, std::int64_t n) { return static_cast<std::size_t>(k * RoundUp(n, kGemmNr)); }

void PackA(const GemmOperand& source, std::int64_t m, std::int64_t k, float* packed) {
  const std::int64_t padded_m = RoundUp(m, kGemmMr);
  for (std::int64_t pc = 0; pc < k; pc += kGemmKc) {
    PackABlock(source, 0, m, pc, std::min(kGemmKc, k - pc), packed + pc * padded_m);
  }
}

void PackB(const GemmOperand& source, std::int64_t k, std::int64_t n, float* packed) {
  const std::int64_t padded_n = RoundUp(n, kGemmNr);
  for (std::int64_t pc = 0; pc < k; pc += kGemmKc) {
    PackBBlock(source, pc, std::min(kGemmKc, k - pc), 0, n, packed + pc * padded_n);
  }
}

PackedBRow PackedBRowOf(std::int64_t k, std::int64_t n, std::int64_t row) {
  const std::int64_t block = row / kGemmKc * kGemmKc;
  const std::int64_t kc = std::min(kGemmKc, k - block);
  return {block * RoundUp(n, kGemmNr) + (row - block) * kGemmNr, kGemmNr * kc};
}

std::size_t GemmWorkspaceSize(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand& a,
                              const GemmOperand& b) {
  if (m == 0 || n == 0 || k == 0) return 0;
  // The B block starts on a 64-byte boundary when the workspace does.
  const std::size_t a_floats = a.packed ? 0 : static_cast<std::size_t>(RoundUp(ABlockFloats(m, k), 16));
  const std::size_t b_floats = b.packed ? 0 : BBlockFloats(k, n);
  return a_floats + b_floats;
}

void Gemm(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const GemmOperand& a, const GemmOperand& b,
          float beta, float* c, std::int64_t ldc, float* workspace) {
  if (m == 0 || n == 0) return;
  if (k == 0 || alpha == 0.0f) {
    ScaleC(m, n, beta, c, ldc);
    return;
  }
  const MicroKernel kernel = Kernel().kernel;
  const std::int64_t padded_m = RoundUp(m, kGemmMr);
  const std::int64_t padded_n = RoundUp(n, kGemmNr);
  float* a_block = workspace;
  float* b_block = workspace + (a.packed ? 0 : RoundUp(ABlockFloats(m, k), 16));

  for (std::int64_t jc = 0; jc < n; jc += kGemmNc) {
    const std::int64_t nc = std::min(kGemmNc, n - jc);
    for (std::int64_t pc = 0; pc < k; pc += kGemmKc) {
      const std::int64_t kc = std::min(kGemmKc, k - pc);
      // Later depth blocks accumulate onto what the first one wrote.
      const float block_beta = pc == 0 ? beta : 1.0f;
      const float* bp = b.data + pc * padded_n + jc * kc;
      if (!b.packed) {
        PackBBlock(b, pc, kc, jc, nc, b_block);
        bp = b_block;
      }
      for (std::int64_t ic = 0; ic < m; ic += kGemmMc) {
        const std::int64_t mc = std::min(kGemmMc, m - ic);
        const float* ap = a.data + pc * padded_m + ic * kc;
        if (!a.packed) {
          PackABlock(a, ic, mc, pc, kc, a_block);
          ap = a_block;
        }
        for (std::int64_t jr = 0; jr < nc; jr += kGemmNr) {
          for (std::int64_t ir = 0; ir < mc; ir += kGemmMr) {
            kernel(kc, ap + ir * kc, bp + jr * kc, c + (ic + ir) * ldc + jc + jr, ldc, std::min(kGemmMr, mc - ir),
                   std::min(kGemmNr, nc - jr), alpha, block_beta);
          }
        }
      }
    }
  }
}

const char* GemmKernelName() { return Kernel().name; }

}  // namespace backplane::reference
