// Data movement: a strided copy over up to 8 dimensions (transpose, slice, concat, split),
// pad, gather and cast. Dims and strides come as int8 (rank <= 8, unused lanes ignored).

#define UNPACK8(name, v) const int name[8] = {v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7}

// dst[dst_off + sum idx[k] * dst_strides[k]] = src[src_off + sum idx[k] * src_strides[k]] for
// every index of `dims`; count = product of dims.
__kernel void strided_copy(__global const float* src, __global float* dst, const int count, const int rank,
                           const int8 dims, const int src_off, const int8 src_strides, const int dst_off,
                           const int8 dst_strides) {
  const int i = get_global_id(0);
  if (i >= count) return;
  UNPACK8(d, dims);
  UNPACK8(ss, src_strides);
  UNPACK8(ds, dst_strides);
  int rest = i, s = src_off, t = dst_off;
  for (int k = rank - 1; k >= 0; --k) {
    const int index = rest % d[k];
    rest /= d[k];
    s += index * ss[k];
    t += index * ds[k];
  }
  dst[t] = src[s];
}

// Pad: out_dims output, in_dims input, begin pads; mode 0 constant (value), 1 reflect, 2 edge.
__kernel void pad_nd(__global const float* x, __global float* y, const int count, const int rank,
                     const int8 out_dims, const int8 in_dims, const int8 begins, const int mode, const float value) {
  const int i = get_global_id(0);
  if (i >= count) return;
  UNPACK8(od, out_dims);
  UNPACK8(id, in_dims);
  UNPACK8(b, begins);
  int rest = i, offset = 0, stride = 1, fill = 0;
  for (int k = rank - 1; k >= 0; --k) {
    const int o = rest % od[k];
    rest /= od[k];
    int s = o - b[k];
    const int dim = id[k];
    if (s < 0 || s >= dim) {
      if (mode == 0) {
        fill = 1;
      } else if (mode == 2) {
        s = s < 0 ? 0 : dim - 1;
      } else if (dim == 1) {
        s = 0;
      } else {
        const int period = 2 * (dim - 1);
        const int m = ((s % period) + period) % period;
        s = m < dim ? m : period - m;
      }
    }
    offset += s * stride;
    stride *= dim;
  }
  y[i] = fill ? value : x[offset];
}

// Gather along an axis: data [outer, axis_length, inner], indices (count_indices), output
// [outer, count_indices, inner]. Negative indices count from the end; an index still out of
// range writes 0 (run-time indices cannot raise an error from the device).
#define GATHER_KERNEL(name, index_type)                                                                 \
  __kernel void name(__global const float* data, __global const index_type* indices, __global float* y, \
                     const int count, const int axis_length, const int count_indices, const int inner) {  \
    const int i = get_global_id(0);                                                                      \
    if (i >= count) return;                                                                              \
    const int in = i % inner;                                                                            \
    const int j = (i / inner) % count_indices;                                                           \
    const int o = i / (inner * count_indices);                                                           \
    long index = (long)indices[j];                                                                       \
    if (index < 0) index += axis_length;                                                                 \
    y[i] = (index >= 0 && index < axis_length) ? data[(o * axis_length + (int)index) * inner + in] : 0.0f; \
  }
GATHER_KERNEL(gather_i32, int)
GATHER_KERNEL(gather_i64, long)

// Cast between f32, i32, i64 and bool (uchar), as numpy's astype: float to integer truncates
// toward zero and saturates (NaN gives 0), anything to bool is "not zero" (NaN is true), bool reads
// as 0 or 1, i64 to i32 keeps the low 32 bits.
#define CAST_KERNEL(name, from, to, convert)                                                  \
  __kernel void name(__global const from* x, __global to* y, const int count) {               \
    const int i = get_global_id(0);                                                           \
    if (i < count) y[i] = convert(x[i]);                                                      \
  }
#define TO_BOOL(v) (uchar)((v) != 0)
// NaN gives 0 by the spec's rule for _sat conversions, but NVIDIA's driver (580, H200) gives
// LONG_MIN for convert_long_sat_rtz(NaN): NaN is mapped to 0 here, on every device.
#define F32_TO_I32(v) (isnan(v) ? 0 : convert_int_sat_rtz(v))
#define F32_TO_I64(v) (isnan(v) ? 0L : convert_long_sat_rtz(v))
#define IDENTITY(v) (v)
#define I64_TO_I32(v) (int)(v)
CAST_KERNEL(cast_f32_f32, float, float, IDENTITY)
CAST_KERNEL(cast_f32_i32, float, int, F32_TO_I32)
CAST_KERNEL(cast_f32_i64, float, long, F32_TO_I64)
CAST_KERNEL(cast_f32_bool, float, uchar, TO_BOOL)
CAST_KERNEL(cast_i32_f32, int, float, convert_float)
CAST_KERNEL(cast_i32_i32, int, int, IDENTITY)
CAST_KERNEL(cast_i32_i64, int, long, convert_long)
CAST_KERNEL(cast_i32_bool, int, uchar, TO_BOOL)
CAST_KERNEL(cast_i64_f32, long, float, convert_float)
CAST_KERNEL(cast_i64_i32, long, int, I64_TO_I32)
CAST_KERNEL(cast_i64_i64, long, long, IDENTITY)
CAST_KERNEL(cast_i64_bool, long, uchar, TO_BOOL)
#define BOOL_TO_F32(v) ((v) != 0 ? 1.0f : 0.0f)
#define BOOL_TO_I32(v) ((v) != 0 ? 1 : 0)
#define BOOL_TO_I64(v) ((v) != 0 ? 1L : 0L)
CAST_KERNEL(cast_bool_f32, uchar, float, BOOL_TO_F32)
CAST_KERNEL(cast_bool_i32, uchar, int, BOOL_TO_I32)
CAST_KERNEL(cast_bool_i64, uchar, long, BOOL_TO_I64)
CAST_KERNEL(cast_bool_bool, uchar, uchar, TO_BOOL)
