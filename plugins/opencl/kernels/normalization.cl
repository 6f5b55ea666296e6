// Softmax, BatchNormalization, LayerNormalization and Reduce.

// Softmax over [outer, n, inner]: one (outer, inner) column per work-item, global
// (inner, outer); exp(x - max) / sum, so no exp() overflows.
__kernel void softmax_columns(__global const float* x, __global float* y, const int outer, const int n,
                              const int inner) {
  const int j = get_global_id(0), o = get_global_id(1);
  if (j >= inner || o >= outer) return;
  const int base = o * n * inner + j;
  float maximum = -INFINITY;
  for (int k = 0; k < n; ++k) maximum = fmax(maximum, x[base + k * inner]);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) {
    const float e = exp(x[base + k * inner] - maximum);
    y[base + k * inner] = e;
    sum += e;
  }
  const float inv = 1.0f / sum;
  for (int k = 0; k < n; ++k) y[base + k * inner] *= inv;
}

// Softmax of contiguous rows (inner == 1): one work-group of `local` work-items per row, global
// (local, rows); the maximum and the sum reduced in local memory (local a power of two).
__kernel void softmax_rows(__global const float* x, __global float* y, const int n, __local float* scratch) {
  const int row = get_group_id(1), lid = get_local_id(0), size = get_local_size(0);
  __global const float* in = x + row * n;
  __global float* out = y + row * n;
  float maximum = -INFINITY;
  for (int k = lid; k < n; k += size) maximum = fmax(maximum, in[k]);
  scratch[lid] = maximum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] = fmax(scratch[lid], scratch[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  maximum = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  float sum = 0.0f;
  for (int k = lid; k < n; k += size) {
    const float e = exp(in[k] - maximum);
    out[k] = e;
    sum += e;
  }
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float inv = 1.0f / scratch[0];
  for (int k = lid; k < n; k += size) out[k] *= inv;
}

// y = x * a[c] + b[c], c = (i / spatial) % channels.
__kernel void batchnorm_affine(__global const float* x, __global float* y, __global const float* a,
                               __global const float* b, const int count, const int spatial, const int channels) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const int c = (i / spatial) % channels;
  y[i] = mad(x[i], a[c], b[c]);
}

// y = (x - mean[c]) / sqrt(var[c] + epsilon) * scale[c] + bias[c], parameters computed at run time.
__kernel void batchnorm_full(__global const float* x, __global float* y, __global const float* scale,
                             __global const float* bias, __global const float* mean, __global const float* var,
                             const float epsilon, const int count, const int spatial, const int channels) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const int c = (i / spatial) % channels;
  const float a = scale[c] / sqrt(var[c] + epsilon);
  y[i] = mad(x[i], a, bias[c] - mean[c] * a);
}

// LayerNormalization: one row of `size` elements per work-group, global (local, rows), mean
// and variance (population, two passes) reduced in local memory (local a power of two).
__kernel void layernorm_rows(__global const float* x, __global float* y, __global const float* scale,
                             __global const float* bias, const int has_bias, const int size, const float epsilon,
                             __local float* scratch) {
  const int row = get_group_id(1), lid = get_local_id(0), local_size = get_local_size(0);
  __global const float* in = x + row * size;
  __global float* out = y + row * size;
  float sum = 0.0f;
  for (int k = lid; k < size; k += local_size) sum += in[k];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = local_size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float mean = scratch[0] / (float)size;
  barrier(CLK_LOCAL_MEM_FENCE);
  float squares = 0.0f;
  for (int k = lid; k < size; k += local_size) {
    const float d = in[k] - mean;
    squares = mad(d, d, squares);
  }
  scratch[lid] = squares;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = local_size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float inv_std = rsqrt(scratch[0] / (float)size + epsilon);
  for (int k = lid; k < size; k += local_size) {
    const float v = (in[k] - mean) * inv_std * scale[k];
    out[k] = has_bias ? v + bias[k] : v;
  }
}

// Reduce (sum or mean): one output per work-item. The output index decomposes over the kept
// dimensions (kept_dims, input strides kept_strides), then the `count` reduced elements over
// red_dims / red_strides; the mean of an empty set is NaN.
__kernel void reduce_sum(__global const float* x, __global float* y, const int outputs, const int kept_rank,
                         const int8 kept_dims, const int8 kept_strides, const int red_rank, const int8 red_dims,
                         const int8 red_strides, const int count, const int mean) {
  const int o = get_global_id(0);
  if (o >= outputs) return;
  const int kd[8] = {kept_dims.s0, kept_dims.s1, kept_dims.s2, kept_dims.s3,
                     kept_dims.s4, kept_dims.s5, kept_dims.s6, kept_dims.s7};
  const int ks[8] = {kept_strides.s0, kept_strides.s1, kept_strides.s2, kept_strides.s3,
                     kept_strides.s4, kept_strides.s5, kept_strides.s6, kept_strides.s7};
  const int rd[8] = {red_dims.s0, red_dims.s1, red_dims.s2, red_dims.s3,
                     red_dims.s4, red_dims.s5, red_dims.s6, red_dims.s7};
  const int rs[8] = {red_strides.s0, red_strides.s1, red_strides.s2, red_strides.s3,
                     red_strides.s4, red_strides.s5, red_strides.s6, red_strides.s7};
  int rest = o, base = 0;
  for (int k = kept_rank - 1; k >= 0; --k) {
    base += (rest % kd[k]) * ks[k];
    rest /= kd[k];
  }
  float sum = 0.0f;
  for (int r = 0; r < count; ++r) {
    int left = r, offset = base;
    for (int k = red_rank - 1; k >= 0; --k) {
      offset += (left % rd[k]) * rs[k];
      left /= rd[k];
    }
    sum += x[offset];
  }
  y[o] = mean ? sum / (float)count : sum;
}

// Reduce over trailing axes (each output the sum of `size` contiguous elements): one row per
// work-group, global (local, rows), summed in local memory (local a power of two).
__kernel void reduce_rows(__global const float* x, __global float* y, const int size, const int mean,
                          __local float* scratch) {
  const int row = get_group_id(1), lid = get_local_id(0), local_size = get_local_size(0);
  __global const float* in = x + row * size;
  float sum = 0.0f;
  for (int k = lid; k < size; k += local_size) sum += in[k];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = local_size / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) y[row] = mean ? scratch[0] / (float)size : scratch[0];
}
