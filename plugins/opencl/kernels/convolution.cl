// Convolution kernels around CLBlast's GEMM (ops/convolution2d.cpp): im2col and a direct
// convolution for depthwise layers, where each GEMM would be one row high (the bias after a
// GEMM is the epilogue's, kernels/elementwise.cl). NCHW throughout; padding may differ per side.

// Columns of one image: cols[(c * kh + fy) * kw + fx][oy * Wo + ox] = x[c][iy][ix] (0 in the
// padding), iy = oy * sh - pt + fy * dh, ix = ox * sw - pl + fx * dw, for every channel c of the
// image (a group's rows are contiguous: group g's are rows g * Cg * kh * kw onwards). One
// output column per work-item along dimension 0, one (c, fy, fx) row per work-item along 1.
__kernel void im2col(__global const float* x, const int x_offset, __global float* cols, const int H, const int W,
                     const int kh, const int kw, const int Ho, const int Wo, const int sh, const int sw,
                     const int dh, const int dw, const int pt, const int pl, const int rows) {
  const int column = get_global_id(0), row = get_global_id(1);
  if (column >= Ho * Wo || row >= rows) return;
  const int fx = row % kw, fy = (row / kw) % kh, c = row / (kw * kh);
  const int oy = column / Wo, ox = column - oy * Wo;
  const int iy = oy * sh - pt + fy * dh, ix = ox * sw - pl + fx * dw;
  const bool inside = iy >= 0 && iy < H && ix >= 0 && ix < W;
  cols[row * Ho * Wo + column] = inside ? x[x_offset + (c * H + iy) * W + ix] : 0.0f;
}

// One output per work-item: (ox, oy, image * M_total + m).
__kernel void conv_direct(__global const float* x, __global const float* w, __global const float* bias,
                          const int has_bias, __global float* y, const int C, const int H, const int W,
                          const int M_total, const int groups, const int Cg, const int kh, const int kw,
                          const int Ho, const int Wo, const int sh, const int sw, const int dh, const int dw,
                          const int pt, const int pl) {
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
