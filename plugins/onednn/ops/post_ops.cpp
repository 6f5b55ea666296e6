#include "post_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../dnnl_desc.hpp"

namespace backplane::onednn {

using dnnl::algorithm;

bool ActivationSteps(const ActivationDescriptor& d, std::vector<EltwiseStep>& steps, std::string& reason) {
  switch (d.function) {
    case ActivationFunction::kRelu: steps = {{algorithm::eltwise_relu, 0.0f, 0.0f}}; return true;
    case ActivationFunction::kClip: steps = {{algorithm::eltwise_clip, d.alpha, d.beta}}; return true;
    case ActivationFunction::kSigmoid: steps = {{algorithm::eltwise_logistic, 0.0f, 0.0f}}; return true;
    case ActivationFunction::kTanh: steps = {{algorithm::eltwise_tanh, 0.0f, 0.0f}}; return true;
    case ActivationFunction::kGelu: steps = {{algorithm::eltwise_gelu_erf, 0.0f, 0.0f}}; return true;
    case ActivationFunction::kGeluTanh: steps = {{algorithm::eltwise_gelu_tanh, 0.0f, 0.0f}}; return true;
    case ActivationFunction::kLeakyRelu: steps = {{algorithm::eltwise_relu, d.alpha, 0.0f}}; return true;
    case ActivationFunction::kSilu: steps = {{algorithm::eltwise_swish, 1.0f, 0.0f}}; return true;
    case ActivationFunction::kHardSwish: {
      EltwiseStep step{algorithm::eltwise_hardswish, 0.0f, 0.0f};
      compat::HardSwishParameters(step.alpha, step.beta);
      steps = {step};
      return true;
    }
    case ActivationFunction::kHardSigmoid:
      // max(0, min(1, alpha x + beta)) as linear then clip.
      steps = {{algorithm::eltwise_linear, d.alpha, d.beta}, {algorithm::eltwise_clip, 0.0f, 1.0f}};
      return true;
    case ActivationFunction::kElu: steps = {{algorithm::eltwise_elu, d.alpha, 0.0f}}; return true;
    case ActivationFunction::kSelu:  // gamma elu(x; alpha): elu, then linear
      steps = {{algorithm::eltwise_elu, d.alpha, 0.0f}, {algorithm::eltwise_linear, d.beta, 0.0f}};
      return true;
    // soft_relu's alpha: ignored by oneDNN 2.x, the scale (1 for softplus) from 3.0.
    case ActivationFunction::kSoftplus: steps = {{algorithm::eltwise_soft_relu, 1.0f, 0.0f}}; return true;
    case ActivationFunction::kMish: steps = {{algorithm::eltwise_mish, 0.0f, 0.0f}}; return true;
    case ActivationFunction::kCelu:
    case ActivationFunction::kSoftsign:
    case ActivationFunction::kThresholdedRelu:
      reason = "oneDNN has no eltwise for this activation function (CpuRef runs it)";
      return false;
  }
  reason = "activation function " + std::to_string(static_cast<unsigned>(d.function)) + " is unknown";
  return false;
}

bool KeepsZero(const EltwiseStep& step) {
  switch (step.algorithm) {
    case algorithm::eltwise_relu:
    case algorithm::eltwise_tanh:
    case algorithm::eltwise_elu:
    case algorithm::eltwise_square:
    case algorithm::eltwise_abs:
    case algorithm::eltwise_sqrt:
    case algorithm::eltwise_swish:
    case algorithm::eltwise_gelu_erf:
    case algorithm::eltwise_gelu_tanh:
    case algorithm::eltwise_hardswish:
      return true;
    case algorithm::eltwise_clip:
    case algorithm::eltwise_clip_v2:
      return step.alpha <= 0.0f && 0.0f <= step.beta;
    case algorithm::eltwise_linear:
      return step.beta == 0.0f;
    default:
      return false;
  }
}

bool UnarySteps(UnaryOperation operation, std::vector<EltwiseStep>& steps, std::string& reason) {
  switch (operation) {
    case UnaryOperation::kSqrt: steps = {{algorithm::eltwise_sqrt, 0.0f, 0.0f}}; return true;
    case UnaryOperation::kExp: steps = {{algorithm::eltwise_exp, 0.0f, 0.0f}}; return true;
    case UnaryOperation::kAbs: steps = {{algorithm::eltwise_abs, 0.0f, 0.0f}}; return true;
    case UnaryOperation::kNeg: steps = {{algorithm::eltwise_linear, -1.0f, 0.0f}}; return true;
    case UnaryOperation::kReciprocal: steps = {{algorithm::eltwise_pow, 1.0f, -1.0f}}; return true;
    case UnaryOperation::kErf:
      reason = "oneDNN has no erf eltwise (ops/exact_unary.cpp runs it)";
      return false;
    case UnaryOperation::kLog:
      reason = "oneDNN's eltwise_log is approximate near 1 (ops/exact_unary.cpp runs it)";
      return false;
    case UnaryOperation::kSin:
    case UnaryOperation::kCos:
    case UnaryOperation::kTan:
    case UnaryOperation::kAsin:
    case UnaryOperation::kAcos:
    case UnaryOperation::kAtan:
    case UnaryOperation::kSinh:
    case UnaryOperation::kCosh:
    case UnaryOperation::kAsinh:
    case UnaryOperation::kAcosh:
    case UnaryOperation::kAtanh:
    case UnaryOperation::kSign:
    case UnaryOperation::kCeil:
    case UnaryOperation::kFloor:
    case UnaryOperation::kRound:
      reason = "oneDNN has no eltwise for this unary operation (ops/exact_unary.cpp runs it)";
      return false;
    case UnaryOperation::kNot:
      reason = "CpuOneDnn runs f32 tensors, and Not takes bool";
      return false;
  }
  reason = "unary operation " + std::to_string(static_cast<unsigned>(operation)) + " is unknown";
  return false;
}

bool BinaryAlgorithm(BinaryOperation operation, dnnl::algorithm& out) {
  switch (operation) {
    case BinaryOperation::kAdd: out = algorithm::binary_add; return true;
    case BinaryOperation::kSub: out = algorithm::binary_sub; return true;
    case BinaryOperation::kMul: out = algorithm::binary_mul; return true;
    case BinaryOperation::kDiv: out = algorithm::binary_div; return true;
    case BinaryOperation::kMax: out = algorithm::binary_max; return true;
    case BinaryOperation::kMin: out = algorithm::binary_min; return true;
    case BinaryOperation::kPow: return false;
    default: return false;  // the comparisons, logic ops (bool output), remainders and bit shifts
  }
}

std::size_t ResidualPostOp(const std::vector<PostOp>& post_ops, const dnnl::memory::dims& dst_dims) {
  for (std::size_t i = 0; i < post_ops.size(); ++i) {
    const PostOp& post_op = post_ops[i];
    if (post_op.kind == PostOp::Kind::kBinary && post_op.binary == dnnl::algorithm::binary_add &&
        !post_op.operand.constant && DimsOf(post_op.operand.info) == dst_dims) {
      return i;
    }
  }
  return kNoResidual;
}

bool HasSameShapeOperand(const std::vector<PostOp>& post_ops, const dnnl::memory::dims& dst_dims,
                         std::size_t sum_index) {
  for (std::size_t i = 0; i < post_ops.size(); ++i) {
    const PostOp& post_op = post_ops[i];
    if (i != sum_index && post_op.kind == PostOp::Kind::kBinary && !post_op.operand.constant &&
        Expand(DimsOf(post_op.operand.info), dst_dims.size()) == dst_dims) {
      return true;
    }
  }
  return false;
}

dnnl::primitive_attr PostOpAttr(const ExecutionSettings& execution, const std::vector<PostOp>& post_ops,
                                const dnnl::memory::dims& dst_dims, const dnnl::memory::desc* same_shape_desc,
                                std::vector<dnnl::memory::desc>& operand_descs, std::size_t sum_index) {
  dnnl::primitive_attr attr = execution.Attr();
  dnnl::post_ops ops;
  operand_descs.clear();
  for (std::size_t i = 0; i < post_ops.size(); ++i) {
    const PostOp& post_op = post_ops[i];
    if (i == sum_index) {
      compat::AppendSum(ops, 1.0f);
      operand_descs.emplace_back();
      continue;
    }
    if (post_op.kind == PostOp::Kind::kEltwise) {
      compat::AppendEltwise(ops, post_op.eltwise.algorithm, post_op.eltwise.alpha, post_op.eltwise.beta);
      operand_descs.emplace_back();
      continue;
    }
    const auto dims = Expand(DimsOf(post_op.operand.info), dst_dims.size());
    dnnl::memory::desc desc = (same_shape_desc && dims == dst_dims && !post_op.operand.constant)
                                  ? *same_shape_desc
                                  : PlainDesc(dims);
    compat::AppendBinary(ops, post_op.binary, desc);
    operand_descs.push_back(desc);
  }
  if (!post_ops.empty()) attr.set_post_ops(ops);
  return attr;
}

void AddPostOpOperands(PrimitiveWorkload& workload, const std::vector<PostOp>& post_ops,
                       const std::vector<dnnl::memory::desc>& operand_descs, std::size_t sum_index) {
  for (std::size_t i = 0; i < post_ops.size(); ++i) {
    const PostOp& post_op = post_ops[i];
    if (post_op.kind != PostOp::Kind::kBinary) continue;
    if (i == sum_index) {
      workload.SetSumInput(post_op.operand.index, post_op.operand.info);
      continue;
    }
    const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(static_cast<int>(i)) | DNNL_ARG_SRC_1;
    const auto view = PlainDesc(compat::Dims(operand_descs[i]));
    if (post_op.operand.constant) {
      workload.AddConstant(arg, PackConstant(workload.Engine(), post_op.operand.constant, view, operand_descs[i]));
    } else {
      workload.AddInput(arg, post_op.operand.index, post_op.operand.info, view, operand_descs[i]);
    }
  }
}

}  // namespace backplane::onednn
