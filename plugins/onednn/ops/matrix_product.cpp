// FullyConnected (ONNX Gemm) and MatMul (numpy matmul, batched with broadcasting), both as a
// oneDNN matmul primitive (a single row times large constant weights as an inner product:
// BuildStreamedRow): constant right-hand operands are reordered once into the layout oneDNN
// prefers; bias, activations and other post-ops fused.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

namespace backplane::onednn {

namespace {
using dnnl::memory;

// A [rows, cols] operand stored as [cols, rows] densely, read transposed.
memory::desc Transposed(memory::dim rows, memory::dim cols) {
  return memory::desc({rows, cols}, memory::data_type::f32, memory::dims{1, rows});
}

// Constant weights of at least this many bytes are read from memory on every run of a
// single-row product (they do not stay in the per-core caches between runs): measured here
// (2 threads, AVX-512) oneDNN's inner product on row-major [N, K] weights (a GEMV) streams them
// at 25-32 GB/s, its matmul on packed weights at 17-21 GB/s; at 3 MB the two are even, below it
// the matmul is faster.
constexpr std::size_t kStreamedWeightBytes = std::size_t{3} << 20;

// A [1, K] x constant [K, N] product (a batch-1 classifier head) with weights too large to
// stay cached: an inner product reading them row-major, each output one contiguous dot
// product. Null where that does not apply (more rows, bf16 packing, views, another bias shape).
std::unique_ptr<PrimitiveWorkload> BuildStreamedRow(const OpSpec& spec, const ExecutionSettingsPtr& execution,
                                                    const TensorRef& a, const memory::desc& a_view,
                                                    const TensorRef& b, const memory::desc& b_view,
                                                    const memory::dims& dst_dims, const dnnl::primitive_attr& attr,
                                                    const void* bias, const memory::desc* bias_desc) {
  const auto b_dims = compat::Dims(b_view);
  if (!b.constant || execution->compute_type != memory::data_type::f32 || spec.output_view ||
      dst_dims.size() != 2 || dst_dims[0] != 1 || a_view != PlainDesc(compat::Dims(a_view))) {
    return nullptr;
  }
  const memory::dim k = b_dims[0];
  const memory::dim n = b_dims[1];
  if (static_cast<std::size_t>(k * n) * sizeof(float) < kStreamedWeightBytes) return nullptr;
  if (bias && bias_desc->get_size() != static_cast<std::size_t>(n) * sizeof(float)) return nullptr;
  const memory::desc weights = PlainDesc({n, k});
  const memory::desc ip_bias = PlainDesc({n});
  std::optional<dnnl::inner_product_forward::primitive_desc> pd;
  try {
    pd = compat::InnerProduct(execution->engine, a_view, weights, bias ? &ip_bias : nullptr, PlainDesc(dst_dims), attr);
  } catch (const dnnl::error&) {
    return nullptr;  // no inner product with these post-ops: the matmul takes it
  }
  if (IsReference(*pd) || pd->weights_desc() != weights) return nullptr;
  auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
  workload->SetPrimitive(dnnl::inner_product_forward(*pd), pd->scratchpad_desc());
  workload->AddInput(DNNL_ARG_SRC, a.index, a.info, a_view, pd->src_desc(), a.view_offset);
  // Row-major [N, K] is B's [K, N] with strides {1, K} (Transposed): packed written so.
  const memory::desc as_b = Transposed(k, n);
  workload->AddConstant(DNNL_ARG_WEIGHTS, PackConstant(execution->engine, b.constant, b_view, weights, &as_b));
  if (bias) workload->AddConstant(DNNL_ARG_BIAS, PackConstant(execution->engine, bias, ip_bias, ip_bias));
  return workload;
}

std::unique_ptr<backend::IWorkload> Build(const OpSpec& spec, const ExecutionSettingsPtr& execution, const TensorRef& a,
                                          const memory::desc& a_view, const TensorRef& b, const memory::desc& b_view,
                                          const memory::dims& dst_dims, const std::vector<PostOp>& post_ops,
                                          const void* bias, const memory::desc* bias_desc) {
  try {
    std::vector<memory::desc> operands;
    const auto attr = PostOpAttr(*execution, post_ops, dst_dims, nullptr, operands);
    if (auto row = BuildStreamedRow(spec, execution, a, a_view, b, b_view, dst_dims, attr, bias, bias_desc)) {
      AddPostOpOperands(*row, post_ops, operands);
      row->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(dst_dims), PlainDesc(dst_dims));
      return row;
    }
    // Constant weights are packed in oneDNN's layout, in bf16 with fast_math (A then too).
    const memory::data_type type = b.constant ? execution->compute_type : memory::data_type::f32;
    const memory::desc src = type == memory::data_type::f32 ? a_view : PlainDesc(compat::Dims(a_view), type);
    const memory::desc weights =
        b.constant ? memory::desc(compat::Dims(b_view), type, memory::format_tag::any) : b_view;
    const memory::desc dst = spec.output_view ? *spec.output_view : PlainDesc(dst_dims);
    auto pd = compat::MatMul(execution->engine, src, weights, bias_desc, dst, attr);
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::matmul(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_SRC, a.index, a.info, a_view, pd.src_desc(), a.view_offset);
    if (b.constant) {
      workload->AddConstant(DNNL_ARG_WEIGHTS, PackConstant(execution->engine, b.constant, b_view, pd.weights_desc()));
    } else {
      workload->AddInput(DNNL_ARG_WEIGHTS, b.index, b.info, b_view, pd.weights_desc(), b.view_offset);
    }
    if (bias) workload->AddConstant(DNNL_ARG_BIAS, PackConstant(execution->engine, bias, *bias_desc, *bias_desc));
    AddPostOpOperands(*workload, post_ops, operands);
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, dst, pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("matmul: ") + error.what());
  }
}

// MatMul shapes: numpy promotion of rank-1 operands and batch broadcasting. False when the
// shapes do not multiply.
bool MatMulDims(const TensorShape& a_shape, const TensorShape& b_shape, memory::dims& a, memory::dims& b,
                memory::dims& dst) {
  a = memory::dims(a_shape.Dims().begin(), a_shape.Dims().end());
  b = memory::dims(b_shape.Dims().begin(), b_shape.Dims().end());
  if (a.empty() || b.empty()) return false;
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  const std::size_t rank = std::max(a.size(), b.size());
  a = Expand(a, rank);
  b = Expand(b, rank);
  if (a[rank - 1] != b[rank - 2]) return false;
  dst = a;
  dst[rank - 1] = b[rank - 1];
  for (std::size_t i = 0; i + 2 < rank; ++i) {
    if (a[i] != b[i] && a[i] != 1 && b[i] != 1) return false;
    dst[i] = std::max(a[i], b[i]);
  }
  return rank <= 12;
}
}  // namespace

bool IsMatMulSupported(const backend::ILayerView& layer, std::string& reason) {
  // MatMulDims works in the larger of the operands' ranks (at least 2).
  return AllFloat32(layer, reason) && FitsOneDnnRank(layer.GetInputInfo(0).shape, reason) &&
         FitsOneDnnRank(layer.GetInputInfo(1).shape, reason);
}

// A [..., M, K] x constant B [K, N] as one [prod(...) M, K] x [K, N] product, so oneDNN packs
// B once for its fastest kernel (it leaves batched weights plain). Post-op operands must then
// be full-size or broadcast along the rows only; their shapes are rewritten to 2-D. False
// (nothing changed) when that does not hold.
bool CollapseBatch(memory::dims& a, const memory::dims& b, memory::dims& dst, std::vector<PostOp>& post_ops) {
  const std::size_t rank = dst.size();
  if (rank <= 2) return false;
  for (std::size_t i = 0; i + 2 < rank; ++i) {
    if (b[i] != 1) return false;
  }
  memory::dim rows = 1;
  for (std::size_t i = 0; i + 1 < rank; ++i) rows *= dst[i];
  const memory::dim n = dst[rank - 1];
  std::vector<PostOp> collapsed = post_ops;
  for (auto& post_op : collapsed) {
    if (post_op.kind != PostOp::Kind::kBinary) continue;
    const auto dims = Expand(DimsOf(post_op.operand.info), rank);
    const memory::dim last = dims[rank - 1];
    std::int64_t leading = 1;
    for (std::size_t i = 0; i + 1 < rank; ++i) leading *= dims[i];
    if (leading == rows && memory::dims(dims.begin(), dims.end() - 1) == memory::dims(dst.begin(), dst.end() - 1)) {
      post_op.operand.info.shape = TensorShape{rows, last};
    } else if (leading == 1) {
      post_op.operand.info.shape = TensorShape{1, last};
    } else {
      return false;
    }
  }
  a = {rows, a[rank - 1]};
  dst = {rows, n};
  post_ops = std::move(collapsed);
  return true;
}

// The shape an op reads a tensor in: its view's (folded data movement), else its own.
TensorShape ReadShape(const TensorRef& ref) {
  if (!ref.view) return ref.info.shape;
  const auto dims = compat::Dims(*ref.view);
  return TensorShape(std::vector<std::int64_t>(dims.begin(), dims.end()));
}

std::unique_ptr<backend::IWorkload> CreateMatMulWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  memory::dims a, b, dst;
  if (!MatMulDims(ReadShape(spec.inputs[0]), ReadShape(spec.inputs[1]), a, b, dst)) {
    ThrowCreateError(spec.name, "matmul shapes do not multiply");
  }
  if (spec.inputs[0].view || spec.inputs[1].view || spec.output_view) {
    // Folded data movement (fusion/strided_view.cpp): operands read through their views, as they are.
    const memory::desc a_view = spec.inputs[0].view ? *spec.inputs[0].view : PlainDesc(a);
    const memory::desc b_view = spec.inputs[1].view ? *spec.inputs[1].view : PlainDesc(b);
    if (compat::Dims(a_view) != a || compat::Dims(b_view) != b) {
      ThrowCreateError(spec.name, "a matmul reading through views needs operands of the output's rank");
    }
    return Build(spec, execution, spec.inputs[0], a_view, spec.inputs[1], b_view, dst, spec.post_ops, nullptr, nullptr);
  }
  std::vector<PostOp> post_ops = spec.post_ops;
  bool a_batch_matches = true;  // A's batch dims are the output's (no broadcast of A)
  for (std::size_t i = 0; i + 2 < dst.size(); ++i) a_batch_matches = a_batch_matches && a[i] == dst[i];
  if (spec.inputs[1].constant && a_batch_matches && CollapseBatch(a, b, dst, post_ops)) {
    b = {b[b.size() - 2], b[b.size() - 1]};
  }
  return Build(spec, execution, spec.inputs[0], PlainDesc(a), spec.inputs[1], PlainDesc(b), dst, post_ops,
               nullptr, nullptr);
}

bool IsFullyConnectedSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const auto& d = static_cast<const FullyConnectedDescriptor&>(*layer.GetDescriptor());
  if (layer.GetNumInputs() == 3 && !layer.GetConstantInput(2) && d.beta != 1.0f) {
    reason = "a run-time C with beta != 1";
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateFullyConnectedWorkload(const OpSpec& spec,
                                                                 const ExecutionSettingsPtr& execution) {
  const auto& d = static_cast<const FullyConnectedDescriptor&>(*spec.descriptor);
  const auto a_dims = DimsOf(spec.inputs[0].info);
  const auto b_dims = DimsOf(spec.inputs[1].info);
  const memory::dim m = d.transpose_a ? a_dims[1] : a_dims[0];
  const memory::dim k = d.transpose_a ? a_dims[0] : a_dims[1];
  const memory::dim n = d.transpose_b ? b_dims[0] : b_dims[1];
  const memory::desc a_view = d.transpose_a ? Transposed(m, k) : PlainDesc({m, k});
  const memory::desc b_view = d.transpose_b ? Transposed(k, n) : PlainDesc({k, n});
  const memory::dims dst{m, n};

  std::vector<PostOp> post_ops;
  if (d.alpha != 1.0f) post_ops.push_back(PostOp::Eltwise({dnnl::algorithm::eltwise_linear, d.alpha, 0.0f}));
  // C: a constant is scaled by beta here and added as the bias (alpha == 1) or a post-op.
  std::vector<float> scaled_c;
  const void* bias = nullptr;
  memory::desc bias_desc;
  if (spec.inputs.size() == 3) {
    TensorRef c = spec.inputs[2];
    if (c.constant && d.beta != 1.0f) {
      scaled_c.resize(static_cast<std::size_t>(c.info.shape.NumElements()));
      std::memcpy(scaled_c.data(), c.constant, c.info.NumBytes());
      for (auto& v : scaled_c) v *= d.beta;
      c.constant = scaled_c.data();
    }
    if (c.constant && d.alpha == 1.0f) {
      bias = c.constant;
      bias_desc = PlainDesc(Expand(DimsOf(c.info), 2));
    } else {
      PostOp add;
      add.kind = PostOp::Kind::kBinary;
      add.binary = dnnl::algorithm::binary_add;
      add.operand = c;
      post_ops.push_back(add);
    }
  }
  post_ops.insert(post_ops.end(), spec.post_ops.begin(), spec.post_ops.end());
  return Build(spec, execution, spec.inputs[0], a_view, spec.inputs[1], b_view, dst, post_ops, bias,
               bias ? &bias_desc : nullptr);
}

}  // namespace backplane::onednn
