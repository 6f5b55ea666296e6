// The kernel around CLBlast's GEMM (ops/gemm.cpp): the sum of a split-K product's partial
// outputs.

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
