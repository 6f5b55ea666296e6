// Single-precision GEMM for the reference backend's Convolution2d, FullyConnected and MatMul:
// C = alpha * op(A) * op(B) + beta * C on row-major matrices, op(X) = X or X transposed.
//
// Cache-blocked in the Goto/BLIS way: blocks of op(B) (kKc x kNc) and of op(A) (kMc x kKc)
// are packed into contiguous panels, and a kMr x kNr register-blocked micro-kernel multiplies
// one panel of each. An operand used many times (constant weights) can be packed once, with
// PackA/PackB, and passed as packed. Single-threaded. Every function is thread-safe: there is
// no shared state, and the caller owns every buffer.
#pragma once

#include <cstddef>
#include <cstdint>

namespace backplane::reference {

// Micro-tile and block sizes. The packed layouts below depend on them.
inline constexpr std::int64_t kGemmMr = 6;     // rows of C per micro-tile
inline constexpr std::int64_t kGemmNr = 16;    // columns of C per micro-tile
inline constexpr std::int64_t kGemmKc = 256;   // depth of one packed block
inline constexpr std::int64_t kGemmMc = 144;   // rows of op(A) per packed block (multiple of kGemmMr)
inline constexpr std::int64_t kGemmNc = 4096;  // columns of op(B) per packed block (multiple of kGemmNr)

// One operand of Gemm, not owned. Either a row-major matrix (element (r, c) of op(X) is
// data[r * ld + c], or data[c * ld + r] when `transposed`), packed block by block into the
// workspace as Gemm goes; or a whole matrix already in PackA's / PackB's layout (`packed`:
// ld and transposed are then unused).
struct GemmOperand {
  const float* data = nullptr;
  std::int64_t ld = 0;
  bool transposed = false;
  bool packed = false;

  static GemmOperand RowMajor(const float* data, std::int64_t ld, bool transposed = false) {
    return {data, ld, transposed, false};
  }
  static GemmOperand Packed(const float* data) { return {data, 0, false, true}; }
};

// Packed layouts, in floats. op(A) (m x k) is stored as depth blocks of kGemmKc rows of k;
// within a block, panels of kGemmMr rows, each panel depth-major (kGemmMr values per step of
// k), rows past m zero. op(B) (k x n) likewise: depth blocks, panels of kGemmNr columns, each
// panel depth-major, columns past n zero.
std::size_t PackedASize(std::int64_t m, std::int64_t k);
std::size_t PackedBSize(std::int64_t k, std::int64_t n);

// Packs all of op(A) (m x k) / op(B) (k x n) from the row-major `source` into `packed`
// (PackedASize / PackedBSize floats; no alignment needed).
void PackA(const GemmOperand& source, std::int64_t m, std::int64_t k, float* packed);
void PackB(const GemmOperand& source, std::int64_t k, std::int64_t n, float* packed);

// Where row `row` of a k x n op(B) lives in PackB's layout: element (row, col) is at
// offset + (col / kGemmNr) * panel_stride + col % kGemmNr. For producers that write the packed
// layout themselves (Convolution2d's im2col); they must also zero columns n .. n rounded up
// to kGemmNr.
struct PackedBRow {
  std::int64_t offset;
  std::int64_t panel_stride;
};
PackedBRow PackedBRowOf(std::int64_t k, std::int64_t n, std::int64_t row);

// Floats of workspace Gemm needs for these sizes: room for the blocks of whichever operands
// are not packed. 0 when both are.
std::size_t GemmWorkspaceSize(std::int64_t m, std::int64_t n, std::int64_t k, const GemmOperand& a,
                              const GemmOperand& b);

// C (m x n, row stride ldc) = alpha * op(A) * op(B) + beta * C, op(A) m x k, op(B) k x n.
// With beta == 0, C is only written (NaNs in it do not propagate). `workspace` holds
// GemmWorkspaceSize floats (may be null when that is 0); 64-byte alignment helps, is not
// required. C must not overlap A, B or the workspace. Never throws.
void Gemm(std::int64_t m, std::int64_t n, std::int64_t k, float alpha, const GemmOperand& a, const GemmOperand& b,
          float beta, float* c, std::int64_t ldc, float* workspace);

// The micro-kernel Gemm dispatches to on this CPU, for benchmarks and diagnostics: "avx2+fma",
// else "vector4" (GCC vectors of 4 floats) or, without GCC vector extensions, "scalar".
const char* GemmKernelName();

}  // namespace backplane::reference
