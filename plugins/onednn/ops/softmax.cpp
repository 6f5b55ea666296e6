// Softmax along one axis (dense layout). Along the last axis on AVX-512 CPUs (attention's rows),
// our own row kernel; otherwise oneDNN's softmax primitive.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <cstdint>
#include <limits>

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12 warns inside its own AVX-512 intrinsics when they are inlined into a function compiled
// for AVX-512 by attribute (their `__Y = __Y` self-initialisations); the warnings are about the header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define BACKPLANE_ROW_SOFTMAX 1
#endif

namespace backplane::onednn {

namespace {

#if defined(BACKPLANE_ROW_SOFTMAX)
// e^x for x <= 0 in each lane: 2^n e^r with n = round(x / ln 2) and |r| <= ln 2 / 2 (ln 2 in
// two parts, so r is exact to float precision), e^r by its Taylor polynomial of degree 6
// (relative error below 2e-7). Below -87.33 (e^x under the smallest normal float, masked
// entries' -inf or -10000 among them) the lane gives 0: a denormal there would make every
// product that reads the softmax (attention's P x V) take microcode assists, 40x slower.
__attribute__((target("avx512f"))) inline __m512 ExpNonPositive(__m512 x) {
  const __mmask16 normal = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.33654f), _CMP_GE_OQ);
  x = _mm512_max_ps(x, _mm512_set1_ps(-87.33654f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.0f / 720.0f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_maskz_mov_ps(normal, _mm512_scalef_ps(p, n));
}

// y * scale, with what falls below the smallest normal float written as 0 (see ExpNonPositive).
__attribute__((target("avx512f"))) inline __m512 ScaleNormal(__m512 y, __m512 scale) {
  const __m512 scaled = _mm512_mul_ps(y, scale);
  return _mm512_maskz_mov_ps(
      _mm512_cmp_ps_mask(scaled, _mm512_set1_ps(std::numeric_limits<float>::min()), _CMP_GE_OQ), scaled);
}

// y = softmax(x) over `length` floats (y may be x; never a denormal): the row's maximum,
// e^(x - max) and their sum, then the scaling; 16 lanes at a time, the tail under a mask.
__attribute__((target("avx512f"))) void SoftmaxRow(const float* x, float* y, std::int64_t length) {
  const std::int64_t full = length / 16 * 16;
  const auto tail = static_cast<__mmask16>((1u << (length - full)) - 1u);
  __m512 max = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  for (std::int64_t i = 0; i < full; i += 16) max = _mm512_max_ps(max, _mm512_loadu_ps(x + i));
  if (tail) max = _mm512_mask_max_ps(max, tail, max, _mm512_maskz_loadu_ps(tail, x + full));
  const __m512 row_max = _mm512_set1_ps(_mm512_reduce_max_ps(max));
  __m512 sum = _mm512_setzero_ps();
  for (std::int64_t i = 0; i < full; i += 16) {
    const __m512 e = ExpNonPositive(_mm512_sub_ps(_mm512_loadu_ps(x + i), row_max));
    _mm512_storeu_ps(y + i, e);
    sum = _mm512_add_ps(sum, e);
  }
  if (tail) {
    const __m512 e = ExpNonPositive(_mm512_sub_ps(_mm512_maskz_loadu_ps(tail, x + full), row_max));
    _mm512_mask_storeu_ps(y + full, tail, e);
    sum = _mm512_mask_add_ps(sum, tail, sum, e);
  }
  const __m512 scale = _mm512_set1_ps(1.0f / _mm512_reduce_add_ps(sum));
  for (std::int64_t i = 0; i < full; i += 16) _mm512_storeu_ps(y + i, ScaleNormal(_mm512_loadu_ps(y + i), scale));
  if (tail) _mm512_mask_storeu_ps(y + full, tail, ScaleNormal(_mm512_maskz_loadu_ps(tail, y + full), scale));
}

// Softmax along the last axis of a dense f32 tensor, its rows split between the execution's
// threads. oneDNN 2.6's jit softmax took 0.07 ms on BERT's 12x128x128 alone and 0.17-0.20 in
// the network, ONNX Runtime's 0.05. Immutable; Execute is thread-safe.
class RowSoftmaxWorkload final : public backend::IWorkload {
 public:
  RowSoftmaxWorkload(const TensorInfo& info, ExecutionSettingsPtr execution)
      : dims_(DimsOf(info)), plain_(PlainDesc(dims_)), execution_(std::move(execution)) {
    length_ = dims_.back();
    rows_ = info.shape.NumElements() / std::max<std::int64_t>(length_, 1);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* x = static_cast<const float*>(args.inputs.at(0)->Map());  // dense (reorders if blocked)
    backend::ITensorHandle* out = args.outputs.at(0);
    auto* ours = dynamic_cast<OneDnnTensorHandle*>(out);
    auto* y = static_cast<float*>(ours ? ours->PrepareWrite(plain_) : out->Map());
    if (length_ == 0) return;
    // A thread only for at least 16 rows of 128 (the fork costs about a microsecond).
    const std::int64_t wanted = std::max<std::int64_t>(1, rows_ * length_ / (16 * 128));
    GateUnits units(*execution_->gate, static_cast<int>(std::min<std::int64_t>(execution_->Threads(), wanted)));
    const std::int64_t length = length_;
#pragma omp parallel for num_threads(units.Units()) schedule(static)
    for (std::int64_t row = 0; row < rows_; ++row) SoftmaxRow(x + row * length, y + row * length, length);
  }
  backend::WorkloadInfo GetInfo() const override { return {"backplane:avx512 row softmax", ""}; }

 private:
  dnnl::memory::dims dims_;
  dnnl::memory::desc plain_;
  std::int64_t length_ = 0, rows_ = 0;
  ExecutionSettingsPtr execution_;
};
#endif

}  // namespace

bool IsSoftmaxSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFloat32(layer, reason) && FitsOneDnnRank(layer.GetInputInfo(0).shape, reason);
}

std::unique_ptr<backend::IWorkload> CreateSoftmaxWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const auto dims = DimsOf(spec.output);
  std::size_t axis = 0;
  NormalizeAxis(static_cast<const SoftmaxDescriptor&>(*spec.descriptor).axis, dims.size(), axis);
#if defined(BACKPLANE_ROW_SOFTMAX)
  if (axis + 1 == dims.size() && spec.post_ops.empty() && compat::Avx512CoreEffective()) {
    return std::make_unique<RowSoftmaxWorkload>(spec.output, execution);
  }
#endif
  try {
    const dnnl::memory::desc data = PlainDesc(dims);
    auto pd = compat::Softmax(execution->engine, data, static_cast<int>(axis), execution->Attr());
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::softmax_forward(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, spec.inputs[0].index, spec.inputs[0].info, data, pd.src_desc());
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, data, pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("softmax: ") + error.what());
  }
}

}  // namespace backplane::onednn
