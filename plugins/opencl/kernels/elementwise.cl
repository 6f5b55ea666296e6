// Elementwise kernels: activations and unary functions (one element per work-item, the
// function chosen by an argument), and binary operations with numpy broadcasting over up to 8
// dimensions (dims and per-operand strides passed as int8; the output is dense).

// Overflow-free sigmoid: exp() only ever sees a non-positive argument.
inline float sigmoid_of(float x) {
  if (x >= 0.0f) return 1.0f / (1.0f + exp(-x));
  const float e = exp(x);
  return e / (1.0f + e);
}

// log(1 + exp(x)) without overflow.
inline float softplus_of(float x) { return fmax(x, 0.0f) + log1p(exp(-fabs(x))); }

// Function ids: the order of backplane::ActivationFunction.
inline float activation(int function, float x, float alpha, float beta) {
  switch (function) {
    case 0: return x < 0.0f ? 0.0f : x;                                    // relu
    case 1: { const float low = x < alpha ? alpha : x; return low > beta ? beta : low; }  // clip
    case 2: return sigmoid_of(x);
    case 3: return tanh(x);
    case 4: return 0.5f * x * (1.0f + erf(x * 0.70710678118654752440f));  // gelu
    case 5: return 0.5f * x * (1.0f + tanh(0.79788456080286535588f * (x + 0.044715f * x * x * x)));
    case 6: return x < 0.0f ? alpha * x : x;                               // leaky relu
    case 7: { const float s = x + 3.0f; const float r6 = s < 0.0f ? 0.0f : (s > 6.0f ? 6.0f : s); return x * r6 / 6.0f; }
    case 8: return x * sigmoid_of(x);                                      // silu
    case 9: { const float v = alpha * x + beta; return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }
    case 10: return x < 0.0f ? alpha * expm1(x) : x;                      // elu
    case 11: return beta * (x <= 0.0f ? alpha * expm1(x) : x);             // selu (beta: gamma)
    case 12: return fmax(x, 0.0f) + fmin(0.0f, alpha * expm1(x / alpha));  // celu
    case 13: return softplus_of(x);
    case 14: return x / (1.0f + fabs(x));                                  // softsign
    case 15: return x > alpha ? x : 0.0f;                                  // thresholded relu
    case 16: return x * tanh(softplus_of(x));                              // mish
  }
  return x;
}

__kernel void activation_map(__global const float* x, __global float* y, const int count, const int function,
                             const float alpha, const float beta) {
  const int i = get_global_id(0);
  if (i < count) y[i] = activation(function, x[i], alpha, beta);
}

// Operation ids: the order of backplane::UnaryOperation.
__kernel void unary_map(__global const float* x, __global float* y, const int count, const int operation) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const float v = x[i];
  float r = v;
  switch (operation) {
    case 0: r = sqrt(v); break;
    case 1: r = exp(v); break;
    case 2: r = log(v); break;
    case 3: r = fabs(v); break;
    case 4: r = -v; break;
    case 5: r = erf(v); break;
    case 6: r = 1.0f / v; break;
    case 7: r = sin(v); break;
    case 8: r = cos(v); break;
    case 9: r = tan(v); break;
    case 10: r = asin(v); break;
    case 11: r = acos(v); break;
    case 12: r = atan(v); break;
    case 13: r = sinh(v); break;
    case 14: r = cosh(v); break;
    case 15: r = asinh(v); break;
    case 16: r = acosh(v); break;
    case 17: r = atanh(v); break;
    case 18: r = v > 0.0f ? 1.0f : (v < 0.0f ? -1.0f : v); break;  // sign; NaN stays NaN
    case 19: r = ceil(v); break;
    case 20: r = floor(v); break;
    case 21: r = rint(v); break;  // halves to even
  }
  y[i] = r;
}

// Operation ids: the order of backplane::BinaryOperation. max and min propagate NaN from
// either side (numpy.maximum / numpy.minimum).
inline float binary(int operation, float a, float b) {
  switch (operation) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / b;
    case 4: return (a > b || isnan(a)) ? a : b;
    case 5: return (a < b || isnan(a)) ? a : b;
    case 6: return pow(a, b);
  }
  return a;
}

// Element offsets of output index i for operands with strides sa, sb over dims (rank <= 8,
// dims padded with 1 at the front).
__kernel void binary_broadcast(__global const float* a, __global const float* b, __global float* y, const int count,
                               const int operation, const int rank, const int8 dims, const int8 sa, const int8 sb) {
  const int i = get_global_id(0);
  if (i >= count) return;
  const int d[8] = {dims.s0, dims.s1, dims.s2, dims.s3, dims.s4, dims.s5, dims.s6, dims.s7};
  const int ta[8] = {sa.s0, sa.s1, sa.s2, sa.s3, sa.s4, sa.s5, sa.s6, sa.s7};
  const int tb[8] = {sb.s0, sb.s1, sb.s2, sb.s3, sb.s4, sb.s5, sb.s6, sb.s7};
  int rest = i, oa = 0, ob = 0;
  for (int k = rank - 1; k >= 0; --k) {
    const int index = rest % d[k];
    rest /= d[k];
    oa += index * ta[k];
    ob += index * tb[k];
  }
  y[i] = binary(operation, a[oa], b[ob]);
}

// Same shapes on both sides: no index arithmetic.
__kernel void binary_same(__global const float* a, __global const float* b, __global float* y, const int count,
                          const int operation) {
  const int i = get_global_id(0);
  if (i < count) y[i] = binary(operation, a[i], b[i]);
}

// What follows a product (ops/epilogue.hpp): y[n][c][i] = act(y + bias[c] + residual[n][c][i])
// over y [batch, channels, spatial], the bias and residual added only when their flags say so,
// act = activation(function) unless function < 0. One element per work-item along dimension 0,
// channel along 1, image along 2.
__kernel void channel_epilogue(__global float* y, __global const float* bias, const int has_bias,
                               __global const float* residual, const int has_residual, const int channels,
                               const int spatial, const int function, const float alpha, const float beta) {
  const int i = get_global_id(0), c = get_global_id(1), n = get_global_id(2);
  if (i >= spatial) return;
  const int at = (n * channels + c) * spatial + i;
  float v = y[at];
  if (has_bias) v += bias[c];
  if (has_residual) v += residual[at];
  y[at] = function < 0 ? v : activation(function, v, alpha, beta);
}
