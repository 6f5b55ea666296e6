// The oneDNN version shim: every call whose signature differs between oneDNN 2.x (Debian 12
// ships 2.6) and 3.x lives here, keyed on DNNL_VERSION_MAJOR, so the rest of the backend is
// written once. Differences covered: primitive descriptor construction (2.x builds an op
// descriptor first, 3.x passes the engine and shapes straight to the primitive descriptor),
// post-op appends (2.x takes a scale first), memory-descriptor queries (dims() vs
// get_dims()), pooling with dilation (pooling_v2 in 2.x), the fpmath mode (2.7+ only) and
// CPU ISA names.
//
// The 3.x path has never been compiled against a real oneDNN 3.x (none is installed here). It
// was checked by reading the C++ API header include/oneapi/dnnl/dnnl.hpp of oneDNN 3.x as
// stored from github.com/oneapi-src/oneDNN at commit 004a9fc7 (a 2023 v3.x header, API
// surface of about v3.2: avx2_vnni_2 and experimental CSR present, no group normalization):
// every constructor and call below matches it (engine-first primitive_desc constructors,
// softmax_forward with algorithm::softmax_accurate, pooling_forward with dilation,
// eltwise alpha/beta on the primitive_desc, append_eltwise without a scale, get_dims()), and
// the whole plugin passes g++ -fsyntax-only against a declaration-only transcription of those
// signatures. The cpu_isa and algorithm enumerators used were also found in the 2025 header
// of github.com/uxlfoundation/oneDNN (commit 04cdc163).
//
// Every function throws dnnl::error when oneDNN has no implementation for the request (the
// callers turn that into backplane::Exception naming the layer). Thread-safe: no state.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>
#include <oneapi/dnnl/dnnl_version.h>

#include <string>
#include <vector>

namespace backplane::onednn::compat {

using dnnl::algorithm;
using dnnl::engine;
using dnnl::memory;
using dnnl::primitive_attr;
using dnnl::prop_kind;

inline constexpr prop_kind kInference = prop_kind::forward_inference;

// ---- memory descriptors ----------------------------------------------------------------------

inline memory::dims Dims(const memory::desc& md) {
#if DNNL_VERSION_MAJOR >= 3
  return md.get_dims();
#else
  return md.dims();
#endif
}

// ---- post-ops ---------------------------------------------------------------------------------

inline void AppendEltwise(dnnl::post_ops& ops, algorithm alg, float alpha, float beta) {
#if DNNL_VERSION_MAJOR >= 3
  ops.append_eltwise(alg, alpha, beta);
#else
  ops.append_eltwise(1.0f, alg, alpha, beta);
#endif
}

inline void AppendSum(dnnl::post_ops& ops, float scale) { ops.append_sum(scale); }

inline void AppendBinary(dnnl::post_ops& ops, algorithm alg, const memory::desc& src1) {
  ops.append_binary(alg, src1);
}

// hardswish: x * relu6(x + 3) / 6. oneDNN 3.x parameterizes it as x * max(0, min(1, a x + b)).
inline void HardSwishParameters(float& alpha, float& beta) {
#if DNNL_VERSION_MAJOR >= 3
  alpha = 1.0f / 6.0f;
  beta = 0.5f;
#else
  alpha = 0.0f;
  beta = 0.0f;
#endif
}

// ---- fast math ---------------------------------------------------------------------------------

// Whether this oneDNN has fpmath_mode (2.7 and later).
inline constexpr bool kHasFpMathMode =
    DNNL_VERSION_MAJOR >= 3 || (DNNL_VERSION_MAJOR == 2 && DNNL_VERSION_MINOR >= 7);

// Lets primitives created with `attr` compute f32 in bf16 where the CPU supports it. Returns
// false, changing nothing, when this oneDNN has no fpmath mode.
inline bool SetFastMath(primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3 || (DNNL_VERSION_MAJOR == 2 && DNNL_VERSION_MINOR >= 7)
  attr.set_fpmath_mode(dnnl::fpmath_mode::bf16);
  return true;
#else
  (void)attr;
  return false;
#endif
}

// ---- primitive descriptors ---------------------------------------------------------------------

inline dnnl::convolution_forward::primitive_desc Convolution(
    const engine& eng, const memory::desc& src, const memory::desc& weights, const memory::desc* bias,
    const memory::desc& dst, const memory::dims& strides, const memory::dims& dilations,
    const memory::dims& pad_l, const memory::dims& pad_r, const primitive_attr& attr,
    algorithm alg = algorithm::convolution_direct) {
  // oneDNN dilation counts the gaps: ONNX dilation 1 is oneDNN 0.
  memory::dims gaps = dilations;
  for (auto& d : gaps) d -= 1;
#if DNNL_VERSION_MAJOR >= 3
  if (bias) {
    return {eng, kInference, alg, src, weights, *bias, dst, strides, gaps, pad_l, pad_r, attr};
  }
  return {eng, kInference, alg, src, weights, dst, strides, gaps, pad_l, pad_r, attr};
#else
  if (bias) {
    dnnl::convolution_forward::desc d(kInference, alg, src, weights, *bias, dst, strides,
                                      gaps, pad_l, pad_r);
    return {d, attr, eng};
  }
  dnnl::convolution_forward::desc d(kInference, alg, src, weights, dst, strides, gaps,
                                    pad_l, pad_r);
  return {d, attr, eng};
#endif
}

// A transposed convolution (oneDNN's deconvolution); dilations and pads as Convolution's.
inline dnnl::deconvolution_forward::primitive_desc Deconvolution(
    const engine& eng, const memory::desc& src, const memory::desc& weights, const memory::desc* bias,
    const memory::desc& dst, const memory::dims& strides, const memory::dims& dilations,
    const memory::dims& pad_l, const memory::dims& pad_r, const primitive_attr& attr) {
  memory::dims gaps = dilations;
  for (auto& d : gaps) d -= 1;
  const algorithm alg = algorithm::deconvolution_direct;
#if DNNL_VERSION_MAJOR >= 3
  if (bias) return {eng, kInference, alg, src, weights, *bias, dst, strides, gaps, pad_l, pad_r, attr};
  return {eng, kInference, alg, src, weights, dst, strides, gaps, pad_l, pad_r, attr};
#else
  if (bias) {
    return {dnnl::deconvolution_forward::desc(kInference, alg, src, weights, *bias, dst, strides, gaps, pad_l, pad_r),
            attr, eng};
  }
  return {dnnl::deconvolution_forward::desc(kInference, alg, src, weights, dst, strides, gaps, pad_l, pad_r), attr,
          eng};
#endif
}

inline dnnl::matmul::primitive_desc MatMul(const engine& eng, const memory::desc& src, const memory::desc& weights,
                                           const memory::desc* bias, const memory::desc& dst,
                                           const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  if (bias) return {eng, src, weights, *bias, dst, attr};
  return {eng, src, weights, dst, attr};
#else
  if (bias) return {dnnl::matmul::desc(src, weights, *bias, dst), attr, eng};
  return {dnnl::matmul::desc(src, weights, dst), attr, eng};
#endif
}

inline dnnl::inner_product_forward::primitive_desc InnerProduct(const engine& eng, const memory::desc& src,
                                                                const memory::desc& weights,
                                                                const memory::desc* bias,
                                                                const memory::desc& dst,
                                                                const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  if (bias) return {eng, kInference, src, weights, *bias, dst, attr};
  return {eng, kInference, src, weights, dst, attr};
#else
  if (bias) return {dnnl::inner_product_forward::desc(kInference, src, weights, *bias, dst), attr, eng};
  return {dnnl::inner_product_forward::desc(kInference, src, weights, dst), attr, eng};
#endif
}

#if DNNL_VERSION_MAJOR >= 3
using PoolingPrimitive = dnnl::pooling_forward;
#else
using PoolingPrimitive = dnnl::pooling_v2_forward;
#endif

inline PoolingPrimitive::primitive_desc Pooling(const engine& eng, algorithm alg, const memory::desc& src,
                                                const memory::desc& dst, const memory::dims& strides,
                                                const memory::dims& kernel, const memory::dims& dilations,
                                                const memory::dims& pad_l, const memory::dims& pad_r,
                                                const primitive_attr& attr) {
  memory::dims gaps = dilations;
  for (auto& d : gaps) d -= 1;
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, alg, src, dst, strides, kernel, gaps, pad_l, pad_r, attr};
#else
  return {PoolingPrimitive::desc(kInference, alg, src, dst, strides, kernel, gaps, pad_l, pad_r), attr, eng};
#endif
}

inline dnnl::resampling_forward::primitive_desc Resampling(const engine& eng, algorithm alg, const memory::desc& src,
                                                          const memory::desc& dst, const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, alg, src, dst, attr};
#else
  return {dnnl::resampling_forward::desc(kInference, alg, src, dst), attr, eng};
#endif
}

inline dnnl::eltwise_forward::primitive_desc Eltwise(const engine& eng, algorithm alg, const memory::desc& data,
                                                     float alpha, float beta, const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, alg, data, data, alpha, beta, attr};
#else
  return {dnnl::eltwise_forward::desc(kInference, alg, data, alpha, beta), attr, eng};
#endif
}

inline dnnl::binary::primitive_desc Binary(const engine& eng, algorithm alg, const memory::desc& src0,
                                           const memory::desc& src1, const memory::desc& dst,
                                           const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, alg, src0, src1, dst, attr};
#else
  return {dnnl::binary::desc(alg, src0, src1, dst), attr, eng};
#endif
}

inline dnnl::softmax_forward::primitive_desc Softmax(const engine& eng, const memory::desc& data, int axis,
                                                     const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, algorithm::softmax_accurate, data, data, axis, attr};
#else
  return {dnnl::softmax_forward::desc(kInference, data, axis), attr, eng};
#endif
}

// LRN across channels: dst = src / (k + alpha / local_size * sum of src^2 over channels
// c - (local_size - 1) / 2 .. c + (local_size - 1) / 2) ^ beta (an odd local_size is symmetric).
inline dnnl::lrn_forward::primitive_desc Lrn(const engine& eng, const memory::desc& data, memory::dim local_size,
                                             float alpha, float beta, float k, const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, algorithm::lrn_across_channels, data, data, local_size, alpha, beta, k, attr};
#else
  return {dnnl::lrn_forward::desc(kInference, algorithm::lrn_across_channels, data, local_size, alpha, beta, k), attr,
          eng};
#endif
}

// The memory descriptors of one RNN primitive (an empty src_iter / src_iter_c: a zero state; an
// empty weights_peephole: none).
struct RnnDescs {
  memory::desc src_layer, src_iter, src_iter_c, weights_layer, weights_iter, weights_peephole, bias, dst_layer,
      dst_iter, dst_iter_c;
};

inline dnnl::lstm_forward::primitive_desc Lstm(const engine& eng, dnnl::rnn_direction direction, const RnnDescs& d,
                                               const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, direction, d.src_layer, d.src_iter, d.src_iter_c, d.weights_layer, d.weights_iter,
          d.weights_peephole, d.bias, d.dst_layer, d.dst_iter, d.dst_iter_c, attr};
#else
  return {dnnl::lstm_forward::desc(kInference, direction, d.src_layer, d.src_iter, d.src_iter_c, d.weights_layer,
                                   d.weights_iter, d.weights_peephole, d.bias, d.dst_layer, d.dst_iter, d.dst_iter_c),
          attr, eng};
#endif
}

// GRU; `linear_before_reset`: oneDNN's lbr_gru (its bias has a fourth gate, Rb_h).
template <typename Primitive>
inline typename Primitive::primitive_desc Gru(const engine& eng, dnnl::rnn_direction direction, const RnnDescs& d,
                                              const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, direction, d.src_layer, d.src_iter, d.weights_layer, d.weights_iter, d.bias, d.dst_layer,
          d.dst_iter, attr};
#else
  return {typename Primitive::desc(kInference, direction, d.src_layer, d.src_iter, d.weights_layer, d.weights_iter,
                                   d.bias, d.dst_layer, d.dst_iter),
          attr, eng};
#endif
}

inline dnnl::vanilla_rnn_forward::primitive_desc VanillaRnn(const engine& eng, algorithm activation,
                                                            dnnl::rnn_direction direction, const RnnDescs& d,
                                                            const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, activation, direction, d.src_layer, d.src_iter, d.weights_layer, d.weights_iter, d.bias,
          d.dst_layer, d.dst_iter, attr};
#else
  return {dnnl::vanilla_rnn_forward::desc(kInference, activation, direction, d.src_layer, d.src_iter, d.weights_layer,
                                          d.weights_iter, d.bias, d.dst_layer, d.dst_iter),
          attr, eng};
#endif
}

// Reduction of `src` to `dst` (same rank, 1 along the reduced axes); `p` is the norms' power.
inline dnnl::reduction::primitive_desc Reduction(const engine& eng, algorithm alg, float p, const memory::desc& src,
                                                 const memory::desc& dst, const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, alg, src, dst, p, 0.0f, attr};
#else
  return {dnnl::reduction::desc(alg, src, dst, p, 0.0f), attr, eng};
#endif
}

// Inference batch normalization with given mean/variance and separate scale and shift.
inline dnnl::batch_normalization_forward::primitive_desc BatchNorm(const engine& eng, const memory::desc& data,
                                                                   float epsilon, const primitive_attr& attr) {
  const auto flags = dnnl::normalization_flags::use_global_stats | dnnl::normalization_flags::use_scale |
                     dnnl::normalization_flags::use_shift;
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, data, data, epsilon, flags, attr};
#else
  return {dnnl::batch_normalization_forward::desc(kInference, data, epsilon, flags), attr, eng};
#endif
}

// Layer normalization over the last dimension; `shift` adds a bias.
inline dnnl::layer_normalization_forward::primitive_desc LayerNorm(const engine& eng, const memory::desc& data,
                                                                   float epsilon, bool shift,
                                                                   const primitive_attr& attr) {
  auto flags = dnnl::normalization_flags::use_scale;
  if (shift) flags = flags | dnnl::normalization_flags::use_shift;
#if DNNL_VERSION_MAJOR >= 3
  return {eng, kInference, data, data, epsilon, flags, attr};
#else
  return {dnnl::layer_normalization_forward::desc(kInference, data, epsilon, flags), attr, eng};
#endif
}

inline dnnl::concat::primitive_desc Concat(const engine& eng, const memory::desc& dst, int axis,
                                           const std::vector<memory::desc>& sources,
                                           const primitive_attr& attr) {
#if DNNL_VERSION_MAJOR >= 3
  return {eng, dst, axis, sources, attr};
#else
  return {dst, axis, sources, eng, attr};
#endif
}

// ---- diagnostics -------------------------------------------------------------------------------

// The ISA oneDNN dispatches to on this CPU, e.g. "avx512_core_amx".
inline std::string EffectiveIsaName() {
  using dnnl::cpu_isa;
  switch (dnnl::get_effective_cpu_isa()) {
    case cpu_isa::sse41: return "sse41";
    case cpu_isa::avx: return "avx";
    case cpu_isa::avx2: return "avx2";
    case cpu_isa::avx2_vnni: return "avx2_vnni";
    case cpu_isa::avx512_core: return "avx512_core";
    case cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
    case cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
    case cpu_isa::avx512_core_amx: return "avx512_core_amx";
    default: return "other (dnnl_cpu_isa " + std::to_string(static_cast<int>(dnnl::get_effective_cpu_isa())) + ")";
  }
}

// Whether oneDNN dispatches to AVX-512 (avx512_core or later) on this CPU.
inline bool Avx512CoreEffective() {
  using dnnl::cpu_isa;
  switch (dnnl::get_effective_cpu_isa()) {
    case cpu_isa::avx512_core:
    case cpu_isa::avx512_core_vnni:
    case cpu_isa::avx512_core_bf16:
    case cpu_isa::avx512_core_amx:
      return true;
    default:
      return false;
  }
}

inline std::string VersionString() {
  const dnnl_version_t* v = dnnl_version();
  return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
}

}  // namespace backplane::onednn::compat
