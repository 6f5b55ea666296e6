// ConvolutionNd and ConvolutionTranspose over 1 to 3 spatial axes, run as three (D, H, W; the
// missing leading axes of extent 1, one tap, stride and dilation 1, no padding): a direct gather,
// one output element per work-item, global (O_D * O_H * O_W, M, N). The axes' parameters come
// as int8 with lanes 0..2 used: size (input extents), out (output extents), window (the kernel
// extents), stride, dilation, pad (the begin pads). Taps outside the input add nothing.

#define UNPACK3(name, v) const int name[3] = {v.s0, v.s1, v.s2}

// The input index along one axis that output position `o` reads through tap `t`, or -1 when it
// lies outside [0, size). A convolution reads o * stride - pad + t * dilation; a transposed one
// the i with i * stride + t * dilation - pad == o (its scatter, gathered), when there is one.
inline int Source(const int o, const int t, const int size, const int stride, const int dilation, const int pad,
                  const int transposed) {
  int i = o * stride - pad + t * dilation;
  if (transposed) {
    const int shifted = o + pad - t * dilation;
    if (shifted < 0 || shifted % stride != 0) return -1;
    i = shifted / stride;
  }
  return i >= 0 && i < size ? i : -1;
}

// transposed 0: x [N, C, D, H, W], w [M, C/groups, kD, kH, kW]; transposed 1: w [C, M/groups,
// kD, kH, kW]. Optional bias [M] (has_bias); y [N, M, oD, oH, oW].
__kernel void conv_nd(__global const float* x, __global const float* w, __global const float* bias,
                      const int has_bias, __global float* y, const int C, const int M, const int groups,
                      const int8 size, const int8 out, const int8 window, const int8 stride, const int8 dilation,
                      const int8 pad, const int transposed) {
  UNPACK3(sz, size);
  UNPACK3(od, out);
  UNPACK3(k, window);
  UNPACK3(st, stride);
  UNPACK3(dl, dilation);
  UNPACK3(pd, pad);
  const int o = get_global_id(0), m = get_global_id(1), n = get_global_id(2);
  const int out_spatial = od[0] * od[1] * od[2];
  if (o >= out_spatial) return;
  const int ow = o % od[2], oh = (o / od[2]) % od[1], oz = o / (od[2] * od[1]);
  const int cg = C / groups, mg = M / groups, first_c = (m / mg) * cg;
  const int in_spatial = sz[0] * sz[1] * sz[2], k_spatial = k[0] * k[1] * k[2];
  float sum = has_bias ? bias[m] : 0.0f;
  for (int c = 0; c < cg; ++c) {
    __global const float* xc = x + (n * C + first_c + c) * in_spatial;
    __global const float* wc = w + (transposed ? (first_c + c) * mg + m % mg : m * cg + c) * k_spatial;
    for (int kd = 0; kd < k[0]; ++kd) {
      const int id = Source(oz, kd, sz[0], st[0], dl[0], pd[0], transposed);
      if (id < 0) continue;
      for (int kh = 0; kh < k[1]; ++kh) {
        const int ih = Source(oh, kh, sz[1], st[1], dl[1], pd[1], transposed);
        if (ih < 0) continue;
        for (int kw = 0; kw < k[2]; ++kw) {
          const int iw = Source(ow, kw, sz[2], st[2], dl[2], pd[2], transposed);
          if (iw < 0) continue;
          sum += xc[(id * sz[1] + ih) * sz[2] + iw] * wc[(kd * k[1] + kh) * k[2] + kw];
        }
      }
    }
  }
  y[(n * M + m) * out_spatial + o] = sum;
}
