#include "composition.hpp"

#include "constant_folding.hpp"

#include <backplane/backend/op_schema.hpp>
#include <backplane/exception.hpp>

namespace backplane::onnx::composition {

namespace {

folding::Binary FoldOf(BinaryOperation operation) {
  switch (operation) {
    case BinaryOperation::kAdd: return folding::Binary::kAdd;
    case BinaryOperation::kSub: return folding::Binary::kSub;
    case BinaryOperation::kMul: return folding::Binary::kMul;
    case BinaryOperation::kDiv: return folding::Binary::kDiv;
    case BinaryOperation::kMax: return folding::Binary::kMax;
    case BinaryOperation::kMin: return folding::Binary::kMin;
    case BinaryOperation::kEqual: return folding::Binary::kEqual;
    case BinaryOperation::kLess: return folding::Binary::kLess;
    case BinaryOperation::kGreater: return folding::Binary::kGreater;
    case BinaryOperation::kOr: return folding::Binary::kOr;
    default: throw Exception(ErrorCode::kInternal, "no folding of this binary operation in composition.cpp");
  }
}

folding::Unary FoldOf(UnaryOperation operation) {
  switch (operation) {
    case UnaryOperation::kSqrt: return folding::Unary::kSqrt;
    case UnaryOperation::kReciprocal: return folding::Unary::kReciprocal;
    case UnaryOperation::kNot: return folding::Unary::kNot;
    case UnaryOperation::kNeg: return folding::Unary::kNeg;
    case UnaryOperation::kRound: return folding::Unary::kRound;
    default: throw Exception(ErrorCode::kInternal, "no folding of this unary operation in composition.cpp");
  }
}

}  // namespace

Term Input(NodeContext& node, std::size_t i) {
  if (const ConstantTensor* constant = node.ConstantInput(i)) return {*constant, std::nullopt, i};
  return {std::nullopt, node.Slot(i), i};
}

Term Known(ConstantTensor constant) { return {std::move(constant), std::nullopt, std::nullopt}; }

// A rank-0 constant of `type` (a scalar operand broadcasts against any shape).
Term Scalar(double value, DataType type) { return Known(ConstantTensor::FromDouble(TensorShape{}, {value}, type)); }

Term IntegerScalar(std::int64_t value, DataType type) {
  return Known(ConstantTensor::FromInt64(TensorShape{}, {value}, type));
}

OutputSlot SlotOf(NodeContext& node, Term& term, const std::string& suffix) {
  if (!term.slot) term.slot = term.input ? node.Slot(*term.input) : node.AddConstant(*term.constant, suffix);
  return *term.slot;
}

// a <op> b, numpy broadcasting; folded when both are constants and the result fits the fold
// limit (NodeContext::FoldsInto).
Term Binary(NodeContext& node, BinaryOperation operation, Term a, Term b, const std::string& suffix) {
  if (a.constant && b.constant) {
    const TensorShape out(folding::BroadcastShapes(a.constant->shape().Dims(), b.constant->shape().Dims()));
    if (node.FoldsInto({out, backend::GivesBool(operation) ? DataType::kBool : a.constant->type()})) {
      return Known(folding::ElementwiseBinary(FoldOf(operation), *a.constant, *b.constant, node.max_bytes()));
    }
  }
  ElementwiseBinaryDescriptor descriptor;
  descriptor.operation = operation;
  return Layer(node, descriptor, {&a, &b}, suffix);
}

Term Unary(NodeContext& node, UnaryOperation operation, Term x, const std::string& suffix) {
  if (x.constant) return Known(folding::ElementwiseUnary(FoldOf(operation), *x.constant));
  ElementwiseUnaryDescriptor descriptor;
  descriptor.operation = operation;
  return Layer(node, descriptor, {&x}, suffix);
}

// cond ? a : b, broadcast together.
Term Select(NodeContext& node, Term cond, Term a, Term b, const std::string& suffix) {
  if (cond.constant && a.constant && b.constant) {
    const Dims& c = cond.constant->shape().Dims();
    const TensorShape out(folding::BroadcastShapes(folding::BroadcastShapes(c, a.constant->shape().Dims()),
                                                   b.constant->shape().Dims()));
    if (node.FoldsInto({out, a.constant->type()})) {
      return Known(folding::Where(*cond.constant, *a.constant, *b.constant, node.max_bytes()));
    }
  }
  return Layer(node, WhereDescriptor{}, {&cond, &a, &b}, suffix);
}

Term Reduce(NodeContext& node, ReduceOperation operation, Term x, const Dims& axes, bool keep_dims,
            const std::string& suffix) {
  if (x.constant) return Known(folding::Reduce(*x.constant, axes, keep_dims, operation));
  ReduceDescriptor descriptor;
  descriptor.operation = operation;
  descriptor.keep_dims = keep_dims;
  for (const auto axis : axes) descriptor.axes.push_back(static_cast<std::int32_t>(axis));
  return Layer(node, descriptor, {&x}, suffix);
}

Term Mean(NodeContext& node, Term x, const Dims& axes, const std::string& suffix) {
  return Reduce(node, ReduceOperation::kMean, std::move(x), axes, true, suffix);
}

Term Reshape(NodeContext& node, Term x, const Dims& dims, const std::string& suffix) {
  if (x.constant) return Known(x.constant->Reshaped(TensorShape(dims)));
  ReshapeDescriptor descriptor;
  descriptor.shape = dims;
  return Layer(node, descriptor, {&x}, suffix);
}

Term Transpose(NodeContext& node, Term x, const Dims& permutation, const std::string& suffix) {
  if (x.constant) return Known(folding::Transpose(*x.constant, permutation));
  TransposeDescriptor descriptor;
  for (const auto p : permutation) descriptor.permutation.push_back(static_cast<std::uint32_t>(p));
  return Layer(node, descriptor, {&x}, suffix);
}

Term Cast(NodeContext& node, Term x, DataType to, const std::string& suffix) {
  if (x.constant) return Known(folding::Cast(*x.constant, to));
  CastDescriptor descriptor;
  descriptor.to = to;
  return Layer(node, descriptor, {&x}, suffix);
}

Term Slice(NodeContext& node, Term x, const Dims& starts, const Dims& ends, const Dims& axes,
           const std::string& suffix) {
  if (x.constant) return Known(folding::Slice(*x.constant, starts, ends, axes, {}));
  SliceDescriptor descriptor;
  descriptor.starts = starts;
  descriptor.ends = ends;
  for (const auto axis : axes) descriptor.axes.push_back(static_cast<std::int32_t>(axis));
  return Layer(node, descriptor, {&x}, suffix);
}

Term Concat(NodeContext& node, std::vector<Term> parts, std::int64_t axis, const std::string& suffix) {
  if (parts.size() == 1) return std::move(parts[0]);
  std::vector<const ConstantTensor*> constants;
  for (const Term& part : parts) {
    if (part.constant) constants.push_back(&*part.constant);
  }
  if (constants.size() == parts.size()) return Known(folding::Concat(constants, axis, node.max_bytes()));
  ConcatDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(axis);
  std::vector<Term*> inputs;
  for (Term& part : parts) inputs.push_back(&part);
  return Layer(node, descriptor, inputs, suffix);
}

Term MatMul(NodeContext& node, Term a, Term b, const std::string& suffix) {
  return Layer(node, MatMulDescriptor{}, {&a, &b}, suffix);
}

Term Activation(NodeContext& node, ActivationFunction function, Term x, const std::string& suffix, float alpha,
                float beta) {
  ActivationDescriptor descriptor;
  descriptor.function = function;
  descriptor.alpha = alpha;
  descriptor.beta = beta;
  return Layer(node, descriptor, {&x}, suffix);
}

void SetOutput(NodeContext& node, std::size_t i, Term term) {
  if (term.constant) {
    node.SetOutput(i, std::move(*term.constant));
  } else {
    node.SetOutput(i, *term.slot);
  }
}

Dims DimsOf(NodeContext& node, Term& term) {
  if (term.constant) return term.constant->shape().Dims();
  return node.Info(*term.slot).shape.Dims();
}

}  // namespace backplane::onnx::composition
