// The kernels of GpuOpenCl's matrix products (ops/gemm.cpp): the register-tiled GEMM that CPU
// devices run instead of CLBlast's, and the sum of a split-K product's partial outputs.

// y = alpha * acc + beta * y over 8 floats (beta 0: y is not read).
inline void store8(__global float* y, const float8 acc, const float alpha, const float beta) {
  const float8 v = alpha * acc;
  vstore8(beta == 0.0f ? v : v + beta * vload8(0, y), 0, y);
}

// Y = alpha * op(A) * op(B) + beta * Y (beta 0: Y is not read), op(A) [M, K], op(B) [K, N],
// one batch entry per index along dimension 2, each `*_stride` elements after the previous.
// Transposes are strides: op(A)[r][p] = A[r * a_rs + p * a_ps], op(B)[p][c] = B[p * b_ps +
// c * b_cs], Y[r][c] at r * y_ld + c. Each work-item computes a 4 x 16 tile (rows 4 * id(1)
// on, columns 16 * id(0) on) in eight float8 accumulators. Where B's columns are contiguous
// (b_cs 1) and the tile is whole, each step of K is two vector loads of B, four scalars of A and
// eight FMAs, which a CPU compiler keeps in vector registers; elsewhere a scalar loop.
__kernel void gemm_tiled(__global const float* A, const ulong a_offset, const ulong a_stride, const int a_rs,
                         const int a_ps, __global const float* B, const ulong b_offset, const ulong b_stride,
                         const int b_ps, const int b_cs, __global float* Y, const ulong y_offset, const ulong y_stride,
                         const int y_ld, const int M, const int N, const int K, const float alpha, const float beta) {
  const int j = get_global_id(0) * 16, i = get_global_id(1) * 4;
  if (i >= M || j >= N) return;
  const ulong batch = get_global_id(2);
  A += a_offset + batch * a_stride;
  B += b_offset + batch * b_stride;
  Y += y_offset + batch * y_stride + (ulong)i * y_ld + j;
  const int rows = min(4, M - i), columns = min(16, N - j);
  // Rows past M read the last row again (never stored).
  __global const float* a0 = A + i * a_rs;
  __global const float* a1 = A + min(i + 1, M - 1) * a_rs;
  __global const float* a2 = A + min(i + 2, M - 1) * a_rs;
  __global const float* a3 = A + min(i + 3, M - 1) * a_rs;
  if (b_cs == 1 && columns == 16) {
    float8 c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f, c20 = 0.0f, c21 = 0.0f, c30 = 0.0f, c31 = 0.0f;
    __global const float* b = B + j;
    for (int p = 0; p < K; ++p, b += b_ps) {
      const float8 b0 = vload8(0, b), b1 = vload8(0, b + 8);
      const int at = p * a_ps;
      const float8 x0 = (float8)(a0[at]), x1 = (float8)(a1[at]), x2 = (float8)(a2[at]), x3 = (float8)(a3[at]);
      c00 = fma(x0, b0, c00);
      c01 = fma(x0, b1, c01);
      c10 = fma(x1, b0, c10);
      c11 = fma(x1, b1, c11);
      c20 = fma(x2, b0, c20);
      c21 = fma(x2, b1, c21);
      c30 = fma(x3, b0, c30);
      c31 = fma(x3, b1, c31);
    }
    store8(Y, c00, alpha, beta);
    store8(Y + 8, c01, alpha, beta);
    if (rows > 1) {
      store8(Y + y_ld, c10, alpha, beta);
      store8(Y + y_ld + 8, c11, alpha, beta);
    }
    if (rows > 2) {
      store8(Y + 2 * y_ld, c20, alpha, beta);
      store8(Y + 2 * y_ld + 8, c21, alpha, beta);
    }
    if (rows > 3) {
      store8(Y + 3 * y_ld, c30, alpha, beta);
      store8(Y + 3 * y_ld + 8, c31, alpha, beta);
    }
    return;
  }
  for (int r = 0; r < rows; ++r) {
    __global const float* a = A + (i + r) * a_rs;
    for (int c = 0; c < columns; ++c) {
      __global const float* b = B + (j + c) * b_cs;
      float sum = 0.0f;
      for (int p = 0; p < K; ++p) sum = fma(a[p * a_ps], b[p * b_ps], sum);
      __global float* y = Y + r * y_ld + c;
      *y = beta == 0.0f ? alpha * sum : alpha * sum + beta * *y;
    }
  }
}

// y[r][c] = beta * y[r][c] + sum over s of partials[s][r][c], partials dense [split][m][n], y
// from y_offset with rows y_ld apart (beta 0: y is not read, so it may hold anything). One
// output column per work-item along dimension 0, one row along 1.
__kernel void sum_partials(__global const float* partials, const int split, const int m, const int n,
                           __global float* y, const ulong y_offset, const ulong y_ld, const float beta) {
  const int c = get_global_id(0), r = get_global_id(1);
  if (c >= n || r >= m) return;
  const int plane = m * n;
  float sum = 0.0f;
  for (int s = 0; s < split; ++s) sum += partials[s * plane + r * n + c];
  __global float* out = y + y_offset + r * y_ld + c;
  *out = beta == 0.0f ? sum : beta * *out + sum;
}
