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
