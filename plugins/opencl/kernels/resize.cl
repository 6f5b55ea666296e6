// Resize: one output element per work-item, the separable product of each axis' taps. The
// taps (input index and weight of each output position's neighbours, 4 slots per position)
// are computed on the host by backplane/backend/resampling.hpp, the one owner of Resize's
// coordinate and weight rules; this kernel only applies them. An axis the layer does not
// resample has one tap per position (itself, weight 1); a first slot index of -1 marks a
// tf_crop_and_resize position outside the input (the output is `extrapolation`).

#define UNPACK8(name, v) const int name[8] = {v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7}

// out_dims: the output's dims; in_strides: the input's dense strides; taps: the tap count of
// each axis; offsets: each axis' first position in the tap tables (in positions of 4 slots).
__kernel void resize_taps(__global const float* x, __global float* y, const int count, const int rank,
                          const int8 out_dims, const int8 in_strides, const int8 taps, const int8 offsets,
                          __global const int* tap_index, __global const float* tap_weight,
                          const float extrapolation) {
  const int i = get_global_id(0);
  if (i >= count) return;
  UNPACK8(od, out_dims);
  UNPACK8(is, in_strides);
  UNPACK8(n, taps);
  UNPACK8(off, offsets);
  int slot[8];
  int combinations = 1, rest = i;
  for (int k = rank - 1; k >= 0; --k) {
    slot[k] = (off[k] + rest % od[k]) * 4;
    rest /= od[k];
    if (tap_index[slot[k]] < 0) {
      y[i] = extrapolation;
      return;
    }
    combinations *= n[k];
  }
  float sum = 0.0f;
  for (int c = 0; c < combinations; ++c) {
    int pick = c, offset = 0;
    float weight = 1.0f;
    for (int k = rank - 1; k >= 0; --k) {
      const int j = slot[k] + pick % n[k];
      pick /= n[k];
      offset += tap_index[j] * is[k];
      weight *= tap_weight[j];
    }
    sum += weight * x[offset];
  }
  y[i] = sum;
}
