// ElementwiseBinary: oneDNN binary with numpy broadcasting of the second operand (the operands
// swap for commutative operations when the first one is the broadcast one, and for Sub, whose
// swapped result b - a is negated by a linear post-op: -(b - a) is a - b exactly, as BERT's
// (1 - mask) needs).
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/strided_loop.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <array>

namespace backplane::onednn {

namespace {
using dnnl::memory;

bool Commutative(BinaryOperation op) {
  return op == BinaryOperation::kAdd || op == BinaryOperation::kMul || op == BinaryOperation::kMax ||
         op == BinaryOperation::kMin;
}

// Which input is oneDNN's src0 (shaped like the output); false when neither may be. Input 1
// only for an operation that can swap its operands (Commutative, or Sub negated).
bool Src0Index(const TensorInfo& a, const TensorInfo& b, const TensorInfo& out, BinaryOperation op, std::size_t& src0) {
  const auto rank = out.shape.Rank();
  const auto out_dims = DimsOf(out);
  if (Expand(DimsOf(a), rank) == out_dims && a.shape.Rank() <= rank) {
    src0 = 0;
    return true;
  }
  if ((Commutative(op) || op == BinaryOperation::kSub) && Expand(DimsOf(b), rank) == out_dims) {
    src0 = 1;
    return true;
  }
  return false;
}

// A broadcast oneDNN has only its reference kernel for (Swin's shifted-window mask,
// [1, 64, 3, 49, 49] + [1, 64, 1, 49, 49]: 26 ms there, 0.3 ms here): the SDK's StridedLoop over
// the dense tensors, its rows split between the execution's threads. Immutable; Execute is
// thread-safe. In place when the output handle is the first operand's (SplitAtSlowPostOp).
// `reversed`: the layer's operands were swapped (a is its second), so Sub computes b - a.
class BroadcastLoopWorkload final : public backend::IWorkload {
 public:
  BroadcastLoopWorkload(BinaryOperation op, bool reversed, TensorRef a, TensorRef b, const TensorInfo& out,
                        ExecutionSettingsPtr execution)
      : op_(op),
        reversed_(reversed),
        a_(std::move(a)),
        b_(std::move(b)),
        out_(PlainDesc(DimsOf(out))),
        loop_(out.shape.Dims(),
              {backend::DenseStrides(out.shape), backend::BroadcastStrides(b_.info.shape, out.shape)}),
        execution_(std::move(execution)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* a = Read(a_, args);
    const float* b = Read(b_, args);
    backend::ITensorHandle* out = args.outputs.at(0);
    auto* ours = dynamic_cast<OneDnnTensorHandle*>(out);
    float* y = static_cast<float*>(ours ? ours->PrepareWrite(out_) : out->Map());
    switch (op_) {
      case BinaryOperation::kAdd: return Run(a, b, y, [](float x, float z) { return x + z; });
      case BinaryOperation::kSub:
        if (reversed_) return Run(a, b, y, [](float x, float z) { return z - x; });
        return Run(a, b, y, [](float x, float z) { return x - z; });
      case BinaryOperation::kMul: return Run(a, b, y, [](float x, float z) { return x * z; });
      case BinaryOperation::kDiv: return Run(a, b, y, [](float x, float z) { return x / z; });
      case BinaryOperation::kMax: return Run(a, b, y, [](float x, float z) { return std::max(x, z); });
      case BinaryOperation::kMin: return Run(a, b, y, [](float x, float z) { return std::min(x, z); });
      default: break;  // Pow, and the ops that give bool: refused by IsElementwiseBinarySupported
    }
    throw Exception(ErrorCode::kUnsupported, "CpuOneDnn has no binary Pow");
  }
  backend::WorkloadInfo GetInfo() const override { return {"backplane:broadcast loop", ""}; }

 private:
  static const float* Read(const TensorRef& ref, const backend::WorkloadArgs& args) {
    return static_cast<const float*>(ref.constant ? ref.constant : args.inputs.at(ref.index)->Map());  // dense
  }
  template <typename Op>
  void Run(const float* a, const float* b, float* y, Op op) const {
    const ExecuteThreads threads(*execution_);
    const std::int64_t rows = loop_.RowCount();
    const int parts =
        static_cast<int>(std::min<std::int64_t>(threads.Units(), std::max<std::int64_t>(rows, 1)));
#pragma omp parallel for num_threads(parts) schedule(static)
    for (int part = 0; part < parts; ++part) {
      loop_.ForEachRowIn(rows * part / parts, rows * (part + 1) / parts,
                         [&](const std::array<std::int64_t, 2>& at, std::int64_t length,
                             const std::array<std::int64_t, 2>& steps) {
                           float* y_row = y + at[0];
                           const float* a_row = a + at[0];
                           const float* b_row = b + at[1];
                           if (steps[1] == 0) {
                             const float z = *b_row;
                             for (std::int64_t i = 0; i < length; ++i) y_row[i] = op(a_row[i], z);
                           } else {
                             for (std::int64_t i = 0; i < length; ++i) y_row[i] = op(a_row[i], b_row[i * steps[1]]);
                           }
                         });
    }
  }

  BinaryOperation op_;
  bool reversed_;
  TensorRef a_, b_;  // a shaped like the output (dense: steps of 1)
  dnnl::memory::desc out_;
  backend::StridedLoop<2> loop_;  // output (and a), b
  ExecutionSettingsPtr execution_;
};

void AddOperand(PrimitiveWorkload& workload, const ExecutionSettingsPtr& execution, int arg, const TensorRef& ref,
                const memory::desc& view, const memory::desc& expected) {
  if (ref.constant) {
    workload.AddConstant(arg, PackConstant(execution->engine, ref.constant, view, expected));
  } else {
    workload.AddInput(arg, ref.index, ref.info, view, expected);
  }
}
}  // namespace

bool IsElementwiseBinarySupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const auto op = static_cast<const ElementwiseBinaryDescriptor&>(*layer.GetDescriptor()).operation;
  dnnl::algorithm algorithm;
  if (!BinaryAlgorithm(op, algorithm)) {
    reason = op == BinaryOperation::kPow ? "oneDNN has no binary Pow"
                                         : "CpuOneDnn runs Add, Sub, Mul, Div, Max and Min (no comparison, logic, remainder or bit shift op)";
    return false;
  }
  if (!FitsOneDnnRank(layer.GetOutputInfo(0).shape, reason)) return false;
  std::size_t src0 = 0;
  if (!Src0Index(layer.GetInputInfo(0), layer.GetInputInfo(1), layer.GetOutputInfo(0), op, src0)) {
    reason = "the first operand " + ToString(layer.GetInputInfo(0).shape) +
             " would need broadcasting (oneDNN broadcasts only the second)";
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateElementwiseBinaryWorkload(const OpSpec& spec,
                                                                    const ExecutionSettingsPtr& execution) {
  const auto op = static_cast<const ElementwiseBinaryDescriptor&>(*spec.descriptor).operation;
  dnnl::algorithm algorithm = dnnl::algorithm::binary_add;
  std::size_t first = 0;
  if (!BinaryAlgorithm(op, algorithm) || !Src0Index(spec.inputs[0].info, spec.inputs[1].info, spec.output, op, first)) {
    ThrowCreateError(spec.name, "unsupported binary operation or broadcast");
  }
  const TensorRef& a = spec.inputs[first];
  const TensorRef& b = spec.inputs[1 - first];
  const auto dims = DimsOf(spec.output);
  const auto b_dims = Expand(DimsOf(b.info), dims.size());
  // Swapped Sub: b - a, then negated before the layer's own post-ops.
  const bool negate = first == 1 && op == BinaryOperation::kSub;
  std::vector<PostOp> post_ops;
  if (negate) post_ops.push_back(PostOp::Eltwise({dnnl::algorithm::eltwise_linear, -1.0f, 0.0f}));
  post_ops.insert(post_ops.end(), spec.post_ops.begin(), spec.post_ops.end());
  try {
    std::vector<memory::desc> operands;
    const auto attr = PostOpAttr(*execution, post_ops, dims, nullptr, operands);
    const memory::desc src0 = ActivationLayout(*execution, dims);
    // A broadcast operand in src0's blocked layout too: oneDNN's jit binary kernels take a
    // per-channel ([1, C, 1, 1]) or scalar operand only in the layout of src0 (with a plain
    // one they fall back to the reference kernel, 100x slower on squeeze-and-excitation).
    const bool blocked = src0 != PlainDesc(dims);
    const memory::desc src1 = b_dims == dims && !b.constant ? src0
                              : blocked ? memory::desc(b_dims, memory::data_type::f32, execution->activation_tag)
                                        : PlainDesc(b_dims);
    auto pd = compat::Binary(execution->engine, algorithm, src0, src1, src0, attr);
    if (IsReference(pd) && spec.post_ops.empty()) {  // (negate's post-op: the loop's reversed Sub)
      return std::make_unique<BroadcastLoopWorkload>(op, first == 1, a, b, spec.output, execution);
    }
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::binary(pd), pd.scratchpad_desc());
    AddOperand(*workload, execution, DNNL_ARG_SRC_0, a, PlainDesc(dims), pd.src0_desc());
    AddOperand(*workload, execution, DNNL_ARG_SRC_1, b, PlainDesc(b_dims), pd.src1_desc());
    AddPostOpOperands(*workload, post_ops, operands);
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(dims), pd.dst_desc());
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("binary: ") + error.what());
  }
}

}  // namespace backplane::onednn
