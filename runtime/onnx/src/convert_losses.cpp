// The loss ops as compositions (op set v2): NegativeLogLikelihoodLoss and
// SoftmaxCrossEntropyLoss (opset 12+), as ONNX's reference defines them:
//   loss[n, d...] = -x[n, target[n, d...], d...] * weight[target[n, d...]]  (weight: 1 when absent)
// with 0 where target == ignore_index; reduction "none" keeps that tensor, "sum" adds it up,
// "mean" divides the sum by the sum of the gathered weights (by the count of targets when there
// is neither weight nor ignore_index). SoftmaxCrossEntropyLoss takes x = LogSoftmax(scores) over
// axis 1 and can output it (log_prob).
#include "composition.hpp"
#include "converters.hpp"

#include <backplane/descriptors.hpp>

#include <optional>
#include <string>

namespace backplane::onnx {

namespace {

using namespace composition;

struct LossAttributes {
  std::string reduction;
  std::optional<std::int64_t> ignore_index;
};

LossAttributes ReadLossAttributes(NodeContext& node) {
  LossAttributes a;
  a.reduction = node.String("reduction", "mean");
  if (a.reduction != "mean" && a.reduction != "sum" && a.reduction != "none") {
    node.Invalid("reduction '" + a.reduction + "' is not one of mean, sum and none");
  }
  if (node.HasAttribute("ignore_index")) a.ignore_index = node.Int("ignore_index", 0);
  return a;
}

// The checks both ops share: scores / log-probabilities [N, C, d...] of f32, targets [N, d...]
// of i32 or i64, weight [C]. Returns the targets' shape.
Dims CheckLossInputs(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  if (x.size() < 2) node.Invalid("input 0 must be [N, C] or [N, C, d1, ...], is " + ToString(TensorShape(x)));
  if (node.InputInfo(0).type != DataType::kFloat32) {
    node.Unsupported(std::string("input 0 is ") + ToString(node.InputInfo(0).type) +
                     "; the importer composes the loss ops for f32 inputs");
  }
  Dims target = x;
  target.erase(target.begin() + 1);
  if (node.InputDims(1) != target) {
    node.Invalid("the target " + ToString(node.InputInfo(1).shape) + " must be input 0's shape " +
                 ToString(TensorShape(x)) + " without axis 1, " + ToString(TensorShape(target)));
  }
  const DataType type = node.InputInfo(1).type;
  if (type != DataType::kInt32 && type != DataType::kInt64) {
    node.Invalid(std::string("the target must be int32 or int64, is ") + ToString(type));
  }
  if (node.HasInput(2) && node.InputDims(2) != Dims{x[1]}) {
    node.Invalid("the weight " + ToString(node.InputInfo(2).shape) + " must be [C] = [" + std::to_string(x[1]) + "]");
  }
  return target;
}

// The loss of log-probabilities `x` for the node's target (input 1) and weight (input 2).
Term NegativeLogLikelihood(NodeContext& node, Term x, const Dims& target_dims, const LossAttributes& attributes) {
  Term target = Input(node, 1);
  const DataType index_type = node.InputInfo(1).type;
  std::optional<Term> valid;  // target != ignore_index
  if (attributes.ignore_index) {
    valid = Unary(node, UnaryOperation::kNot,
                  Binary(node, BinaryOperation::kEqual, target, IntegerScalar(*attributes.ignore_index, index_type),
                         "ignored"),
                  "valid");
    // Ignored targets may be any value: gather class 0 there (then zeroed) rather than fail.
    target = Select(node, *valid, target, IntegerScalar(0, index_type), "safe_target");
  }
  Dims index_dims = target_dims;
  index_dims.insert(index_dims.begin() + 1, 1);
  GatherElementsDescriptor pick;
  pick.axis = 1;
  Term index = Reshape(node, target, index_dims, "index");
  const Term picked = Reshape(node, Layer(node, pick, {&x, &index}, "picked"), target_dims, "picked_flat");
  Term loss = Unary(node, UnaryOperation::kNeg, picked, "negated");
  std::optional<Term> weight;  // the gathered weights, where the mean divides by their sum
  if (node.HasInput(2)) {
    Term weights = Input(node, 2);
    GatherDescriptor gather;
    weight = Layer(node, gather, {&weights, &target}, "weight");
    loss = Binary(node, BinaryOperation::kMul, loss, *weight, "weighted");
  }
  if (valid) {
    const Term zero = Scalar(0, DataType::kFloat32);
    loss = Select(node, *valid, loss, zero, "unignored");
    weight = Select(node, *valid, weight ? *weight : Scalar(1, DataType::kFloat32), zero, "unignored_weight");
  }
  if (attributes.reduction == "none") return loss;
  const Term sum = Reduce(node, ReduceOperation::kSum, loss, {}, false, attributes.reduction == "sum" ? "" : "sum");
  if (attributes.reduction == "sum") return sum;
  if (!weight) return Reduce(node, ReduceOperation::kMean, loss, {}, false, "");
  return Binary(node, BinaryOperation::kDiv, sum, Reduce(node, ReduceOperation::kSum, *weight, {}, false, "weight_sum"),
                "");
}

void ConvertNegativeLogLikelihoodLoss(NodeContext& node) {
  const Dims target = CheckLossInputs(node);
  SetOutput(node, 0, NegativeLogLikelihood(node, Input(node, 0), target, ReadLossAttributes(node)));
}

void ConvertSoftmaxCrossEntropyLoss(NodeContext& node) {
  const Dims target = CheckLossInputs(node);
  const LossAttributes attributes = ReadLossAttributes(node);
  const Term scores = Input(node, 0);
  const Term normalizer = Reduce(node, ReduceOperation::kLogSumExp, scores, {1}, true, "log_sum_exp");
  const Term log_prob = Binary(node, BinaryOperation::kSub, scores, normalizer, "log_prob");
  if (node.HasOutput(1)) SetOutput(node, 1, log_prob);
  SetOutput(node, 0, NegativeLogLikelihood(node, log_prob, target, attributes));
}

}  // namespace

void AddLossConverters(ConverterTable& table) {
  table["NegativeLogLikelihoodLoss"] = {ConvertNegativeLogLikelihoodLoss, 2, 3, 1, 12};
  table["SoftmaxCrossEntropyLoss"] = {ConvertSoftmaxCrossEntropyLoss, 2, 3, 2, 12};
}

}  // namespace backplane::onnx
