// Pooling2d: one output per work-item, global (Wo, Ho, N * C). Padding never contributes a
// value: max takes the largest input element under the window (the lowest float when none),
// average divides by the count of input elements, or with count_include_pad by the taps inside
// the padded input (0 when the window covers nothing).
__kernel void pool2d(__global const float* x, __global float* y, const int H, const int W, const int Ho,
                     const int Wo, const int kh, const int kw, const int sh, const int sw, const int dh,
                     const int dw, const int pt, const int pl, const int pb, const int pr, const int is_max,
                     const int count_include_pad) {
  const int ox = get_global_id(0), oy = get_global_id(1), plane = get_global_id(2);
  if (ox >= Wo || oy >= Ho) return;
  __global const float* in = x + plane * H * W;
  float maximum = -FLT_MAX, sum = 0.0f;
  int inputs = 0, padded_rows = 0, padded_cols = 0;
  const int y0 = oy * sh - pt, x0 = ox * sw - pl;
  for (int fy = 0; fy < kh; ++fy) {
    const int iy = y0 + fy * dh;
    padded_rows += (iy >= -pt && iy < H + pb);
    if (iy < 0 || iy >= H) continue;
    for (int fx = 0; fx < kw; ++fx) {
      const int ix = x0 + fx * dw;
      if (ix < 0 || ix >= W) continue;
      const float v = in[iy * W + ix];
      maximum = fmax(maximum, v);
      sum += v;
      ++inputs;
    }
  }
  float result;
  if (is_max) {
    result = maximum;
  } else {
    for (int fx = 0; fx < kw; ++fx) {
      const int ix = x0 + fx * dw;
      padded_cols += (ix >= -pl && ix < W + pr);
    }
    const int count = count_include_pad ? padded_rows * padded_cols : inputs;
    result = count == 0 ? 0.0f : sum / (float)count;
  }
  y[(plane * Ho + oy) * Wo + ox] = result;
}

#define UNPACK3(name, v) const int name[3] = {v.s0, v.s1, v.s2}

// The number of output position o's window taps along one axis inside the padded input.
inline int PaddedTaps(const int o, const int size, const int taps_per_window, const int stride, const int dilation,
                      const int pad_begin, const int pad_end) {
  int taps = 0;
  for (int t = 0; t < taps_per_window; ++t) {
    const int i = o * stride - pad_begin + t * dilation;
    taps += (i >= -pad_begin && i < size + pad_end);
  }
  return taps;
}

// PoolingNd over 1 to 3 spatial axes, run as three (D, H, W; missing leading axes of extent 1):
// one output per work-item, global (O_D * O_H * O_W, N * C), pool2d's rules on every axis
// (count_include_pad: the product of the axes' taps inside the padded input). The axes'
// parameters come as int8, lanes 0..2 used.
__kernel void pool_nd(__global const float* x, __global float* y, const int8 size, const int8 out,
                      const int8 window, const int8 stride, const int8 dilation, const int8 pad_begin,
                      const int8 pad_end, const int is_max, const int count_include_pad) {
  UNPACK3(sz, size);
  UNPACK3(od, out);
  UNPACK3(k, window);
  UNPACK3(st, stride);
  UNPACK3(dl, dilation);
  UNPACK3(pb, pad_begin);
  UNPACK3(pe, pad_end);
  const int o = get_global_id(0), plane = get_global_id(1);
  const int out_spatial = od[0] * od[1] * od[2];
  if (o >= out_spatial) return;
  const int ow = o % od[2], oh = (o / od[2]) % od[1], oz = o / (od[2] * od[1]);
  __global const float* in = x + plane * sz[0] * sz[1] * sz[2];
  float maximum = -FLT_MAX, sum = 0.0f;
  int inputs = 0;
  for (int kd = 0; kd < k[0]; ++kd) {
    const int id = oz * st[0] - pb[0] + kd * dl[0];
    if (id < 0 || id >= sz[0]) continue;
    for (int kh = 0; kh < k[1]; ++kh) {
      const int ih = oh * st[1] - pb[1] + kh * dl[1];
      if (ih < 0 || ih >= sz[1]) continue;
      for (int kw = 0; kw < k[2]; ++kw) {
        const int iw = ow * st[2] - pb[2] + kw * dl[2];
        if (iw < 0 || iw >= sz[2]) continue;
        const float v = in[(id * sz[1] + ih) * sz[2] + iw];
        maximum = fmax(maximum, v);
        sum += v;
        ++inputs;
      }
    }
  }
  float result = maximum;
  if (!is_max) {
    const int count = count_include_pad ? PaddedTaps(oz, sz[0], k[0], st[0], dl[0], pb[0], pe[0]) *
                                              PaddedTaps(oh, sz[1], k[1], st[1], dl[1], pb[1], pe[1]) *
                                              PaddedTaps(ow, sz[2], k[2], st[2], dl[2], pb[2], pe[2])
                                        : inputs;
    result = count == 0 ? 0.0f : sum / (float)count;
  }
  y[plane * out_spatial + o] = result;
}
