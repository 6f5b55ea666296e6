// GEMM kernels (strategies chosen in ops/gemm.hpp): a local-memory tiled body for GPUs, shared
// by the plain (batched, strided) GEMM and the implicit-GEMM convolution; a barrier-free
// register-blocked form of both for CPU devices; one output per work-item for thin shapes; and
// a direct convolution for depthwise layers.
//
// Tiled body: a 16x16 work-group computes a 64x64 tile of C; each work-item keeps a 4x4 block
// of accumulators in registers (rows ty + 16 i, columns tx + 16 j, so stores stay coalesced);
// 64x16 tiles of A and 16x64 tiles of B are staged in local memory, zero-filled past the
// edges. Every load goes through LOAD_A(m, k) / LOAD_B(k, n) and every store through
// STORE_C(m, n, value), which each kernel defines before expanding GEMM_TILED_BODY.

#define TILE_M 64
#define TILE_N 64
#define TILE_K 16
#define BLOCK 4
#define GROUP 16

#define GEMM_TILED_BODY                                                                 \
  __local float a_tile[TILE_K][TILE_M + 1];                                             \
  __local float b_tile[TILE_K][TILE_N];                                                 \
  const int tx = get_local_id(0), ty = get_local_id(1);                                 \
  const int m0 = get_group_id(1) * TILE_M, n0 = get_group_id(0) * TILE_N;              \
  const int lid = ty * GROUP + tx;                                                      \
  float acc[BLOCK][BLOCK];                                                              \
  for (int i = 0; i < BLOCK; ++i)                                                       \
    for (int j = 0; j < BLOCK; ++j) acc[i][j] = 0.0f;                                   \
  for (int k0 = 0; k0 < K; k0 += TILE_K) {                                              \
    for (int e = 0; e < (TILE_M * TILE_K) / (GROUP * GROUP); ++e) {                     \
      const int idx = lid + e * GROUP * GROUP;                                          \
      const int kk = idx % TILE_K, mm = idx / TILE_K;                                   \
      const int m = m0 + mm, k = k0 + kk;                                               \
      a_tile[kk][mm] = (m < M && k < K) ? LOAD_A(m, k) : 0.0f;                          \
    }                                                                                   \
    for (int e = 0; e < (TILE_N * TILE_K) / (GROUP * GROUP); ++e) {                     \
      const int idx = lid + e * GROUP * GROUP;                                          \
      const int nn = idx % TILE_N, kk = idx / TILE_N;                                   \
      const int n = n0 + nn, k = k0 + kk;                                               \
      b_tile[kk][nn] = (n < N && k < K) ? LOAD_B(k, n) : 0.0f;                          \
    }                                                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                       \
    for (int kk = 0; kk < TILE_K; ++kk) {                                               \
      float a_reg[BLOCK], b_reg[BLOCK];                                                 \
      for (int i = 0; i < BLOCK; ++i) a_reg[i] = a_tile[kk][ty + GROUP * i];            \
      for (int j = 0; j < BLOCK; ++j) b_reg[j] = b_tile[kk][tx + GROUP * j];            \
      for (int i = 0; i < BLOCK; ++i)                                                   \
        for (int j = 0; j < BLOCK; ++j) acc[i][j] = mad(a_reg[i], b_reg[j], acc[i][j]); \
    }                                                                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                                       \
  }                                                                                     \
  for (int i = 0; i < BLOCK; ++i) {                                                     \
    const int m = m0 + ty + GROUP * i;                                                  \
    if (m >= M) continue;                                                               \
    for (int j = 0; j < BLOCK; ++j) {                                                   \
      const int n = n0 + tx + GROUP * j;                                                \
      if (n < N) STORE_C(m, n, acc[i][j]);                                              \
    }                                                                                   \
  }

// Register-blocked without local memory or barriers, for CPU devices (PoCL keeps private
// values that live across a barrier in memory, which defeats the tiled body's accumulator
// block): work-item (c, r) computes rows 4r..4r+3 and columns c + j * cols, j < 4, with
// cols = ceil(N / 4), so neighbouring work-items read neighbouring B elements (PoCL vectorizes
// across them) and caches do the reuse local memory does on a GPU. Global (cols, ceil(M/4), .).
#define GEMM_BLOCKED_BODY                                                               \
  const int col0 = get_global_id(0), m0 = get_global_id(1) * BLOCK;                     \
  const int cols = (N + BLOCK - 1) / BLOCK;                                             \
  if (col0 >= cols || m0 >= M) return;                                                  \
  int rows[BLOCK], ns[BLOCK];                                                           \
  for (int i = 0; i < BLOCK; ++i) rows[i] = min(m0 + i, M - 1);                         \
  for (int j = 0; j < BLOCK; ++j) ns[j] = min(col0 + j * cols, N - 1);                  \
  float acc[BLOCK][BLOCK];                                                              \
  for (int i = 0; i < BLOCK; ++i)                                                       \
    for (int j = 0; j < BLOCK; ++j) acc[i][j] = 0.0f;                                   \
  for (int k = 0; k < K; ++k) {                                                         \
    float a_reg[BLOCK], b_reg[BLOCK];                                                   \
    for (int i = 0; i < BLOCK; ++i) a_reg[i] = LOAD_A(rows[i], k);                      \
    for (int j = 0; j < BLOCK; ++j) b_reg[j] = LOAD_B(k, ns[j]);                        \
    for (int i = 0; i < BLOCK; ++i)                                                     \
      for (int j = 0; j < BLOCK; ++j) acc[i][j] = mad(a_reg[i], b_reg[j], acc[i][j]);   \
  }                                                                                     \
  for (int i = 0; i < BLOCK; ++i) {                                                     \
    const int m = m0 + i;                                                               \
    if (m >= M) break;                                                                  \
    for (int j = 0; j < BLOCK; ++j) {                                                   \
      const int n = col0 + j * cols;                                                    \
      if (n < N) STORE_C(m, n, acc[i][j]);                                              \
    }                                                                                   \
  }

// C[b] = alpha * op(A[b]) * op(B[b]) + beta * Cin, per batch entry b = get_group_id(2) (or
// get_global_id(2) for the simple kernel). Element (m, k) of A is at
// a[offsets[2 b] + m * a_rs + k * a_cs] (a transpose swaps the strides), (k, n) of B at
// b[offsets[2 b + 1] + k * b_rs + n * b_cs]; the output is dense [batch, M, N]. With has_c,
// beta * c[m * c_rs + n * c_cs] is added (strides 0 broadcast).
#define GEMM_ARGS                                                                       \
  const int M, const int N, const int K, __global const float* a, const int a_rs,       \
      const int a_cs, __global const float* b, const int b_rs, const int b_cs,          \
      __global const int* offsets, const float alpha, __global const float* c,          \
      const int has_c, const int c_rs, const int c_cs, const float beta,                \
      __global float* y

#define LOAD_A(m, k) a[a_off + (m) * a_rs + (k) * a_cs]
#define LOAD_B(k, n) b[b_off + (k) * b_rs + (n) * b_cs]
#define STORE_C(m, n, v) \
  y[y_off + (m) * N + (n)] = alpha * (v) + (has_c ? beta * c[(m) * c_rs + (n) * c_cs] : 0.0f)

__kernel __attribute__((reqd_work_group_size(GROUP, GROUP, 1))) void gemm_tiled(GEMM_ARGS) {
  const int batch = get_group_id(2);
  const int a_off = offsets[2 * batch], b_off = offsets[2 * batch + 1];
  const int y_off = batch * M * N;
  GEMM_TILED_BODY
}

__kernel void gemm_simple(GEMM_ARGS) {
  const int n = get_global_id(0), m = get_global_id(1), batch = get_global_id(2);
  if (n >= N || m >= M) return;
  const int a_off = offsets[2 * batch], b_off = offsets[2 * batch + 1];
  const int y_off = batch * M * N;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum = mad(LOAD_A(m, k), LOAD_B(k, n), sum);
  STORE_C(m, n, sum);
}

__kernel void gemm_blocked(GEMM_ARGS) {
  const int batch = get_global_id(2);
  const int a_off = offsets[2 * batch], b_off = offsets[2 * batch + 1];
  const int y_off = batch * M * N;
  GEMM_BLOCKED_BODY
}

#undef LOAD_A
#undef LOAD_B
#undef STORE_C

// Convolution as an implicit GEMM, per (image, group) = get_group_id(2): A is the group's
// weights [Mg, K = Cg*kH*kW] (row-major, as stored), B the im2col matrix [K, Ho*Wo] computed
// on the fly from x (zero in the padding), C the group's output planes, plus bias[m].
#define CONV_ARGS                                                                       \
  __global const float* x, __global const float* w, __global const float* bias,         \
      const int has_bias, __global float* y, const int C, const int H, const int W,      \
      const int M_total, const int groups, const int Cg, const int kh, const int kw,     \
      const int Ho, const int Wo, const int sh, const int sw, const int dh,              \
      const int dw, const int pt, const int pl

#define LOAD_A(m, k) w[w_off + (m) * K + (k)]
#define LOAD_B(k, n) conv_input(x_img, k, n, H, W, kh, kw, Wo, sh, sw, dh, dw, pt, pl)
#define STORE_C(m, n, v) y[y_off + (m) * N + (n)] = (v) + (has_bias ? bias[g * M + (m)] : 0.0f)

inline float conv_input(__global const float* x_img, int k, int n, int H, int W, int kh, int kw, int Wo,
                        int sh, int sw, int dh, int dw, int pt, int pl) {
  const int taps = kh * kw;
  const int ci = k / taps, r = k - ci * taps;
  const int fy = r / kw, fx = r - fy * kw;
  const int oy = n / Wo, ox = n - oy * Wo;
  const int iy = oy * sh - pt + fy * dh, ix = ox * sw - pl + fx * dw;
  return (iy >= 0 && iy < H && ix >= 0 && ix < W) ? x_img[(ci * H + iy) * W + ix] : 0.0f;
}

__kernel __attribute__((reqd_work_group_size(GROUP, GROUP, 1))) void conv_implicit_gemm(CONV_ARGS) {
  const int z = get_group_id(2);
  const int image = z / groups, g = z - image * groups;
  const int M = M_total / groups, N = Ho * Wo, K = Cg * kh * kw;
  __global const float* x_img = x + (image * C + g * Cg) * H * W;
  const int w_off = g * M * K;
  const int y_off = (image * M_total + g * M) * N;
  GEMM_TILED_BODY
}

// The blocked GEMM body for convolutions (CPU devices): the same 4x4 register blocks, with the
// K loop split into (input channel, filter row, filter column) so each im2col element costs a
// bounds check instead of the divisions conv_input needs.
__kernel void conv_blocked(CONV_ARGS) {
  const int z = get_global_id(2);
  const int image = z / groups, g = z - image * groups;
  const int M = M_total / groups, N = Ho * Wo, K = Cg * kh * kw;
  __global const float* x_img = x + (image * C + g * Cg) * H * W;
  const int w_off = g * M * K;
  const int y_off = (image * M_total + g * M) * N;
  const int col0 = get_global_id(0), m0 = get_global_id(1) * BLOCK;
  const int cols = (N + BLOCK - 1) / BLOCK;
  if (col0 >= cols || m0 >= M) return;
  int rows[BLOCK], iy0[BLOCK], ix0[BLOCK];
  for (int i = 0; i < BLOCK; ++i) rows[i] = min(m0 + i, M - 1);
  for (int j = 0; j < BLOCK; ++j) {
    const int n = min(col0 + j * cols, N - 1);
    const int oy = n / Wo, ox = n - oy * Wo;
    iy0[j] = oy * sh - pt;
    ix0[j] = ox * sw - pl;
  }
  float acc[BLOCK][BLOCK];
  for (int i = 0; i < BLOCK; ++i)
    for (int j = 0; j < BLOCK; ++j) acc[i][j] = 0.0f;
  for (int ci = 0; ci < Cg; ++ci) {
    __global const float* plane = x_img + ci * H * W;
    for (int fy = 0; fy < kh; ++fy) {
      for (int fx = 0; fx < kw; ++fx) {
        const int k = (ci * kh + fy) * kw + fx;
        float a_reg[BLOCK], b_reg[BLOCK];
        for (int i = 0; i < BLOCK; ++i) a_reg[i] = w[w_off + rows[i] * K + k];
        for (int j = 0; j < BLOCK; ++j) {
          const int iy = iy0[j] + fy * dh, ix = ix0[j] + fx * dw;
          b_reg[j] = (iy >= 0 && iy < H && ix >= 0 && ix < W) ? plane[iy * W + ix] : 0.0f;
        }
        for (int i = 0; i < BLOCK; ++i)
          for (int j = 0; j < BLOCK; ++j) acc[i][j] = mad(a_reg[i], b_reg[j], acc[i][j]);
      }
    }
  }
  for (int i = 0; i < BLOCK; ++i) {
    const int m = m0 + i;
    if (m >= M) break;
    for (int j = 0; j < BLOCK; ++j) {
      const int n = col0 + j * cols;
      if (n < N) y[y_off + m * N + n] = acc[i][j] + (has_bias ? bias[g * M + m] : 0.0f);
    }
  }
}

#undef LOAD_A
#undef LOAD_B
#undef STORE_C

// Direct convolution, one output per work-item, global (Wo, Ho, N * M): the depthwise path
// (one input channel per group, where each GEMM would be one row high) and the fallback for
// devices whose work-groups cannot hold the tiled kernel.
__kernel void conv_direct(CONV_ARGS) {
  const int ox = get_global_id(0), oy = get_global_id(1), z = get_global_id(2);
  if (ox >= Wo || oy >= Ho) return;
  const int image = z / M_total, m = z - image * M_total;
  const int g = m / (M_total / groups);
  float sum = has_bias ? bias[m] : 0.0f;
  for (int ci = 0; ci < Cg; ++ci) {
    __global const float* plane = x + (image * C + g * Cg + ci) * H * W;
    __global const float* filter = w + (m * Cg + ci) * kh * kw;
    for (int fy = 0; fy < kh; ++fy) {
      const int iy = oy * sh - pt + fy * dh;
      if (iy < 0 || iy >= H) continue;
      for (int fx = 0; fx < kw; ++fx) {
        const int ix = ox * sw - pl + fx * dw;
        if (ix >= 0 && ix < W) sum = mad(plane[iy * W + ix], filter[fy * kw + fx], sum);
      }
    }
  }
  y[((image * M_total + m) * Ho + oy) * Wo + ox] = sum;
}
