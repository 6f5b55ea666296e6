// Convolution kernels around CLBlast's GEMM (ops/convolution2d.cpp): im2col and a direct
// convolution for depthwise layers, where each GEMM would be one row high (the bias after a
// GEMM is the epilogue's, kernels/elementwise.cl). NCHW throughout; padding may differ per side.

// Columns of one image: cols[(c * kh + fy) * kw + fx][oy * Wo + ox] = x[c][iy][ix] (0 in the
// padding), iy = oy * sh - pt + fy * dh, ix = ox * sw - pl + fx * dw, for every channel c of the
// image (a group's rows are contiguous: group g's are rows g * Cg * kh * kw onwards). Two
// shapes of the same copy: im2col for GPUs, one output column per work-item along dimension 0
// (neighbours write neighbours, whole warps), one (c, fy, fx) row along 1; im2col_rows for CPU
// devices, one output row (oy, row) per work-item looping over ox, which PoCL runs about 7 times
// faster (0.8 against 6 ms for ResNet's [576 x 3136] columns on two cores).
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

__kernel void im2col_rows(__global const float* x, const int x_offset, __global float* cols, const int H,
                          const int W, const int kh, const int kw, const int Ho, const int Wo, const int sh,
                          const int sw, const int dh, const int dw, const int pt, const int pl, const int rows) {
  const int oy = get_global_id(0), row = get_global_id(1);
  if (oy >= Ho || row >= rows) return;
  const int fx = row % kw, fy = (row / kw) % kh, c = row / (kw * kh);
  const int iy = oy * sh - pt + fy * dh, x0 = fx * dw - pl;
  __global float* out = cols + (row * Ho + oy) * Wo;
  if (iy < 0 || iy >= H) {
    for (int ox = 0; ox < Wo; ++ox) out[ox] = 0.0f;
    return;
  }
  __global const float* in = x + x_offset + (c * H + iy) * W;
  for (int ox = 0; ox < Wo; ++ox) {
    const int ix = ox * sw + x0;
    out[ox] = (ix >= 0 && ix < W) ? in[ix] : 0.0f;
  }
}

// The input plane that output plane z = image * M_total + m reads as channel ci of its group.
inline __global const float* input_plane(__global const float* x, const int z, const int ci, const int C, const int H,
                                         const int W, const int M_total, const int groups, const int Cg) {
  const int image = z / M_total, group = (z % M_total) / (M_total / groups);
  return x + (image * C + group * Cg + ci) * H * W;
}

// The direct convolution (depthwise layers), in two shapes as im2col: conv_direct for GPUs, one
// output per work-item (ox, oy, image * M_total + m); conv_direct_rows for CPU devices, one
// output row (oy, image * M_total + m) per work-item, each tap one loop over the row that a CPU
// compiler vectorizes (PoCL ran mobilenet_v2's depthwise layers at under 1 GFLOP/s the other way).
__kernel void conv_direct(__global const float* x, __global const float* w, __global const float* bias,
                          const int has_bias, __global float* y, const int C, const int H, const int W,
                          const int M_total, const int groups, const int Cg, const int kh, const int kw,
                          const int Ho, const int Wo, const int sh, const int sw, const int dh, const int dw,
                          const int pt, const int pl) {
  const int ox = get_global_id(0), oy = get_global_id(1), z = get_global_id(2);
  if (ox >= Wo || oy >= Ho) return;
  const int m = z % M_total;
  float sum = has_bias ? bias[m] : 0.0f;
  for (int ci = 0; ci < Cg; ++ci) {
    __global const float* plane = input_plane(x, z, ci, C, H, W, M_total, groups, Cg);
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
  y[(z * Ho + oy) * Wo + ox] = sum;
}

__kernel void conv_direct_rows(__global const float* x, __global const float* w, __global const float* bias,
                               const int has_bias, __global float* y, const int C, const int H, const int W,
                               const int M_total, const int groups, const int Cg, const int kh, const int kw,
                               const int Ho, const int Wo, const int sh, const int sw, const int dh, const int dw,
                               const int pt, const int pl) {
  const int oy = get_global_id(0), z = get_global_id(1);
  if (oy >= Ho) return;
  const int m = z % M_total;
  __global float* out = y + (z * Ho + oy) * Wo;
  const float start = has_bias ? bias[m] : 0.0f;
  for (int ox = 0; ox < Wo; ++ox) out[ox] = start;
  for (int ci = 0; ci < Cg; ++ci) {
    __global const float* filter = w + (m * Cg + ci) * kh * kw;
    for (int fy = 0; fy < kh; ++fy) {
      const int iy = oy * sh - pt + fy * dh;
      if (iy < 0 || iy >= H) continue;
      __global const float* row = input_plane(x, z, ci, C, H, W, M_total, groups, Cg) + iy * W;
      for (int fx = 0; fx < kw; ++fx) {
        // The outputs whose input column ix = ox * sw + x0 lies in [0, W).
        const int x0 = fx * dw - pl;
        const int first = x0 >= 0 ? 0 : (sw - 1 - x0) / sw;
        const int end = W - 1 - x0 < 0 ? 0 : min(Wo, (W - 1 - x0) / sw + 1);
        const float tap = filter[fy * kw + fx];
        for (int ox = first; ox < end; ++ox) out[ox] = mad(row[ox * sw + x0], tap, out[ox]);
      }
    }
  }
}
