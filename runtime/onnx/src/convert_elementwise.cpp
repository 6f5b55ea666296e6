// Activations, unary and binary elementwise ops, and the comparison/logic ops that exist only
// folded (op set v1 has no bool compute).
#include "composition.hpp"
#include "constant_folding.hpp"
#include "converters.hpp"

#include <backplane/backend/op_schema.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <limits>
#include <optional>

namespace backplane::onnx {

namespace {

using folding::Binary;
using folding::Unary;

// ---- Unary ----------------------------------------------------------------------------------

template <UnaryOperation kOperation, Unary kFold>
void ConvertUnary(NodeContext& node) {
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    node.SetOutput(0, folding::ElementwiseUnary(kFold, *x));
    return;
  }
  ElementwiseUnaryDescriptor descriptor;
  descriptor.operation = kOperation;
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

void AddActivation(NodeContext& node, ActivationFunction function, float alpha = 0.0f, float beta = 0.0f) {
  ActivationDescriptor descriptor;
  descriptor.function = function;
  descriptor.alpha = alpha;
  descriptor.beta = beta;
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

template <ActivationFunction kFunction, Unary kFold>
void ConvertFoldableActivation(NodeContext& node) {
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    node.SetOutput(0, folding::ElementwiseUnary(kFold, *x));
    return;
  }
  AddActivation(node, kFunction);
}

void ConvertLeakyRelu(NodeContext& node) {
  AddActivation(node, ActivationFunction::kLeakyRelu, node.Float("alpha", 0.01f));
}

void ConvertHardSigmoid(NodeContext& node) {
  AddActivation(node, ActivationFunction::kHardSigmoid, node.Float("alpha", 0.2f), node.Float("beta", 0.5f));
}

void ConvertElu(NodeContext& node) { AddActivation(node, ActivationFunction::kElu, node.Float("alpha", 1.0f)); }

void ConvertSelu(NodeContext& node) {
  AddActivation(node, ActivationFunction::kSelu, node.Float("alpha", 1.67326319217681884765625f),
                node.Float("gamma", 1.05070102214813232421875f));
}

void ConvertCelu(NodeContext& node) {
  const float alpha = node.Float("alpha", 1.0f);
  if (alpha == 0.0f) node.Invalid("alpha must not be 0");
  AddActivation(node, ActivationFunction::kCelu, alpha);
}

void ConvertThresholdedRelu(NodeContext& node) {
  AddActivation(node, ActivationFunction::kThresholdedRelu, node.Float("alpha", 1.0f));
}

template <ActivationFunction kFunction>
void ConvertPlainActivation(NodeContext& node) {
  AddActivation(node, kFunction);
}

// A Clip bound as a scalar term: the attribute `what` (before opset 11) or input i; nothing when
// neither is given.
std::optional<composition::Term> ClipBound(NodeContext& node, std::size_t i, const char* what) {
  const DataType type = node.InputInfo(0).type;
  if (node.HasAttribute(what)) return composition::Scalar(node.Float(what, 0.0f), type);
  if (!node.HasInput(i)) return std::nullopt;
  const TensorInfo& info = node.InputInfo(i);
  if (info.type != type) {
    node.Invalid(std::string(what) + " is " + ToString(info.type) + " and the input " + ToString(type));
  }
  if (info.shape.NumElements() != 1) {
    node.Invalid(std::string(what) + " must be a scalar, has shape " + ToString(info.shape));
  }
  composition::Term bound = composition::Input(node, i);
  if (info.shape.Rank() == 0) return bound;
  return composition::Reshape(node, bound, {}, std::string(what) + "_scalar");
}

// Clip: min and max from attributes (before opset 11) or inputs 1 and 2, each optional. Constant
// bounds of an f32 input are one Activation Clip; bounds computed at run time, and other number
// types, are ElementwiseBinary Max then Min (min(max(x, min), max), as numpy.clip).
void ConvertClip(NodeContext& node) {
  const bool computed = (node.HasInput(1) && !node.ConstantInput(1)) || (node.HasInput(2) && !node.ConstantInput(2));
  const auto low = ClipBound(node, 1, "min");
  const auto high = ClipBound(node, 2, "max");
  if (node.InputInfo(0).type == DataType::kFloat32 && !computed) {
    const double inf = std::numeric_limits<double>::infinity();
    const auto value = [&](const std::optional<composition::Term>& bound, double fallback) {
      return static_cast<float>(bound ? bound->constant->AsDoubles()[0] : fallback);
    };
    AddActivation(node, ActivationFunction::kClip, value(low, -inf), value(high, inf));
    return;
  }
  if (!low && !high) {
    node.SetOutputAlias(0, 0);
    return;
  }
  composition::Term y = composition::Input(node, 0);
  if (low) y = composition::Binary(node, BinaryOperation::kMax, y, *low, high ? "at_least_min" : "");
  if (high) y = composition::Binary(node, BinaryOperation::kMin, y, *high, "");
  composition::SetOutput(node, 0, y);
}

// ---- Binary ---------------------------------------------------------------------------------

// Pow's constant exponent in the base's type `type` when every value converts to it and back
// unchanged (x ** 2 with an i64 2 stays a one-type Pow, as fusions and f32-only backends want);
// else null: the layer takes the exponent's own type (ONNX Pow's rule; 2 ** 0.5 must not become
// 2 ** 0).
std::optional<ConstantTensor> ExactExponent(const ConstantTensor& exponent, DataType type) {
  ConstantTensor cast = folding::Cast(exponent, type);
  const ConstantTensor back = folding::Cast(cast, exponent.type());
  if (*back.bytes() != *exponent.bytes()) return std::nullopt;
  return cast;
}

// a <op> b as a layer; inputs of different types are an error except Pow's exponent.
OutputSlot AddBinary(NodeContext& node, BinaryOperation operation, std::size_t a, std::size_t b,
                     const std::string& suffix = {}) {
  const DataType type_a = node.InputInfo(a).type;
  const DataType type_b = node.InputInfo(b).type;
  OutputSlot slot_b = node.Slot(b);
  if (type_a != type_b) {
    if (operation != BinaryOperation::kPow) {
      node.Invalid(std::string("inputs have different types: ") + ToString(type_a) + " and " + ToString(type_b));
    }
    const ConstantTensor* exponent = node.ConstantInput(b);
    if (const auto exact = exponent ? ExactExponent(*exponent, type_a) : std::nullopt) {
      slot_b = node.AddConstant(*exact, "exponent");
    }
  }
  ElementwiseBinaryDescriptor descriptor;
  descriptor.operation = operation;
  return node.Add(descriptor, {node.Slot(a), slot_b}, suffix);
}

// Before opset 7, a binary op with broadcast=1 and `axis` lines B's dimensions up with A's from
// that axis, not from the last (numpy's rule since 7): B with trailing 1s added says the same in
// numpy's terms. Empty when the node needs no such change (no axis, or B already in place).
std::optional<std::vector<std::int64_t>> LegacyBroadcastShape(const NodeContext& node) {
  if (node.opset() >= 7 || node.Int("broadcast", 0) == 0 || !node.HasAttribute("axis")) return std::nullopt;
  const auto rank_a = static_cast<std::int64_t>(node.InputRank(0));
  const auto& b = node.InputDims(1);
  const std::int64_t axis = node.Int("axis", 0) < 0 ? node.Int("axis", 0) + rank_a : node.Int("axis", 0);
  const std::int64_t trailing = rank_a - axis - static_cast<std::int64_t>(b.size());
  if (axis < 0 || trailing < 0) {
    node.Invalid("axis " + std::to_string(node.Int("axis", 0)) + " does not place B " + ToString(TensorShape(b)) +
                 " inside A " + ToString(node.InputInfo(0).shape));
  }
  if (trailing == 0) return std::nullopt;
  auto shape = b;
  shape.insert(shape.end(), static_cast<std::size_t>(trailing), 1);
  return shape;
}

template <BinaryOperation kOperation, Binary kFold>
void ConvertBinary(NodeContext& node) {
  if (const auto legacy = LegacyBroadcastShape(node)) {
    // B reshaped to its numpy form first: a folded constant, or a Reshape layer.
    ReshapeDescriptor reshape;
    reshape.shape = *legacy;
    const OutputSlot b = node.ConstantInput(1)
                             ? node.AddConstant(node.ConstantInput(1)->Reshaped(TensorShape(*legacy)), "b")
                             : node.Add(reshape, {node.Slot(1)}, "b");
    ElementwiseBinaryDescriptor descriptor;
    descriptor.operation = kOperation;
    if (node.InputInfo(0).type != node.InputInfo(1).type) node.Invalid("inputs have different types");
    node.SetOutput(0, node.Add(descriptor, {node.Slot(0), b}));
    return;
  }
  if (node.AllInputsConstant()) {
    const ConstantTensor& a = *node.ConstantInput(0);
    const ConstantTensor& b = *node.ConstantInput(1);
    const TensorShape out(folding::BroadcastShapes(a.shape().Dims(), b.shape().Dims()));
    const DataType type = backend::GivesBool(kOperation) ? DataType::kBool : a.type();
    if (node.FoldsInto({out, type})) {  // else (a large broadcast) a layer computes it
      node.SetOutput(0, folding::ElementwiseBinary(kFold, a, b, node.max_bytes()));
      return;
    }
  }
  node.SetOutput(0, AddBinary(node, kOperation, 0, 1));
}

// Max, Min, Sum (and Mean): one or more inputs, folded left to right.
template <BinaryOperation kOperation, Binary kFold>
void ConvertVariadic(NodeContext& node) {
  const std::size_t n = node.NumInputs();
  if (n == 0) node.Invalid("needs at least one input");
  for (std::size_t i = 0; i < n; ++i) {
    if (!node.HasInput(i)) node.Invalid("input " + std::to_string(i) + " is empty");
  }
  if (node.AllInputsConstant()) {
    ConstantTensor result = *node.ConstantInput(0);
    for (std::size_t i = 1; i < n; ++i) result = folding::ElementwiseBinary(kFold, result, *node.ConstantInput(i), node.max_bytes());
    node.SetOutput(0, std::move(result));
    return;
  }
  if (n == 1) {
    node.SetOutputAlias(0, 0);
    return;
  }
  ElementwiseBinaryDescriptor descriptor;
  descriptor.operation = kOperation;
  OutputSlot result = node.Slot(0);
  for (std::size_t i = 1; i < n; ++i) {
    if (node.InputInfo(i).type != node.InputInfo(0).type) node.Invalid("inputs have different types");
    result = node.Add(descriptor, {result, node.Slot(i)}, i + 1 == n ? std::string() : "step" + std::to_string(i));
  }
  node.SetOutput(0, result);
}

void ConvertMean(NodeContext& node) {
  const std::size_t n = node.NumInputs();
  if (n == 0) node.Invalid("needs at least one input");
  if (n == 1) {
    node.SetOutputAlias(0, 0);
    return;
  }
  if (node.InputInfo(0).type != DataType::kFloat32) node.Unsupported("Mean of non-f32 tensors");
  ElementwiseBinaryDescriptor add;
  add.operation = BinaryOperation::kAdd;
  OutputSlot sum = node.Slot(0);
  for (std::size_t i = 1; i < n; ++i) sum = node.Add(add, {sum, node.Slot(i)}, "sum" + std::to_string(i));
  const OutputSlot scale = node.context().network().AddConstant(
      node.context().UniqueName(node.name() + "/scale"), TensorShape{}, std::vector<float>{1.0f / static_cast<float>(n)});
  ElementwiseBinaryDescriptor mul;
  mul.operation = BinaryOperation::kMul;
  node.SetOutput(0, node.Add(mul, {sum, scale}));
}

// ---- Folded only ----------------------------------------------------------------------------

std::string NotComputable(const NodeContext& node) {
  return "op set v2 has no layer for " + node.node().op_type() +
         "; it is only folded when all its inputs are constant at import, and input '";
}

template <Binary kFold>
void ConvertFoldedBinary(NodeContext& node) {
  if (LegacyBroadcastShape(node)) node.Unsupported("broadcast with axis (the opset-1 form) of a folded-only op");
  for (std::size_t i = 0; i < 2; ++i) {
    if (!node.ConstantInput(i)) node.Unsupported(NotComputable(node) + node.node().input(static_cast<int>(i)) + "' is not");
  }
  node.context().CheckBudget({TensorShape(folding::BroadcastShapes(node.InputDims(0), node.InputDims(1))), DataType::kBool});
  node.SetOutput(0, folding::ElementwiseBinary(kFold, *node.ConstantInput(0), *node.ConstantInput(1), node.max_bytes()));
}

// Folded when all three inputs are constant and the result fits the fold limit; else a layer.
void ConvertWhere(NodeContext& node) {
  if (node.AllInputsConstant()) {
    const TensorShape out(
        folding::BroadcastShapes(folding::BroadcastShapes(node.InputDims(0), node.InputDims(1)), node.InputDims(2)));
    if (node.FoldsInto({out, node.InputInfo(1).type})) {
      node.SetOutput(0, folding::Where(*node.ConstantInput(0), *node.ConstantInput(1), *node.ConstantInput(2),
                                       node.max_bytes()));
      return;
    }
  }
  node.SetOutput(0, node.Add(WhereDescriptor{}, {node.Slot(0), node.Slot(1), node.Slot(2)}));
}

// fmod=0: the divisor's sign (Python's %; integers only, as ONNX requires); fmod=1: the
// dividend's (C fmod). Folded on constants (folding's kMod is exactly these two for the types
// each allows), else a layer; integers with fmod=1, which folding does not take, always a layer.
void ConvertMod(NodeContext& node) {
  const bool fmod = node.Int("fmod", 0) != 0;
  const DataType type = node.InputInfo(0).type;
  const bool floating = type == DataType::kFloat32 || type == DataType::kFloat16 || type == DataType::kBFloat16;
  if (floating && !fmod) node.Invalid("Mod of floating point needs fmod=1");
  if (!fmod) {
    ConvertBinary<BinaryOperation::kMod, Binary::kMod>(node);
  } else if (floating) {
    ConvertBinary<BinaryOperation::kFmod, Binary::kMod>(node);
  } else {
    node.SetOutput(0, AddBinary(node, BinaryOperation::kFmod, 0, 1));
  }
}

// BitShift (opset 11): the unsigned integers of input 0 shifted by input 1, LEFT or RIGHT (the
// op schema refuses other types, naming them). Always a layer: constant folding has no shifts.
void ConvertBitShift(NodeContext& node) {
  const std::string direction = node.String("direction", "");
  if (direction != "LEFT" && direction != "RIGHT") node.Invalid("direction must be LEFT or RIGHT, is '" + direction + "'");
  const BinaryOperation operation = direction == "LEFT" ? BinaryOperation::kBitShiftLeft : BinaryOperation::kBitShiftRight;
  node.SetOutput(0, AddBinary(node, operation, 0, 1));
}

}  // namespace

void AddElementwiseConverters(ConverterTable& table) {
  table["Sqrt"] = {ConvertUnary<UnaryOperation::kSqrt, Unary::kSqrt>, 1, 1, 1};
  table["Exp"] = {ConvertUnary<UnaryOperation::kExp, Unary::kExp>, 1, 1, 1};
  table["Log"] = {ConvertUnary<UnaryOperation::kLog, Unary::kLog>, 1, 1, 1};
  table["Abs"] = {ConvertUnary<UnaryOperation::kAbs, Unary::kAbs>, 1, 1, 1};
  table["Neg"] = {ConvertUnary<UnaryOperation::kNeg, Unary::kNeg>, 1, 1, 1};
  table["Erf"] = {ConvertUnary<UnaryOperation::kErf, Unary::kErf>, 1, 1, 1};
  table["Reciprocal"] = {ConvertUnary<UnaryOperation::kReciprocal, Unary::kReciprocal>, 1, 1, 1};
  table["Sin"] = {ConvertUnary<UnaryOperation::kSin, Unary::kSin>, 1, 1, 1};
  table["Cos"] = {ConvertUnary<UnaryOperation::kCos, Unary::kCos>, 1, 1, 1};
  table["Tan"] = {ConvertUnary<UnaryOperation::kTan, Unary::kTan>, 1, 1, 1};
  table["Asin"] = {ConvertUnary<UnaryOperation::kAsin, Unary::kAsin>, 1, 1, 1};
  table["Acos"] = {ConvertUnary<UnaryOperation::kAcos, Unary::kAcos>, 1, 1, 1};
  table["Atan"] = {ConvertUnary<UnaryOperation::kAtan, Unary::kAtan>, 1, 1, 1};
  table["Sinh"] = {ConvertUnary<UnaryOperation::kSinh, Unary::kSinh>, 1, 1, 1};
  table["Cosh"] = {ConvertUnary<UnaryOperation::kCosh, Unary::kCosh>, 1, 1, 1};
  table["Asinh"] = {ConvertUnary<UnaryOperation::kAsinh, Unary::kAsinh>, 1, 1, 1};
  table["Acosh"] = {ConvertUnary<UnaryOperation::kAcosh, Unary::kAcosh>, 1, 1, 1};
  table["Atanh"] = {ConvertUnary<UnaryOperation::kAtanh, Unary::kAtanh>, 1, 1, 1};
  table["Sign"] = {ConvertUnary<UnaryOperation::kSign, Unary::kSign>, 1, 1, 1};
  table["Round"] = {ConvertUnary<UnaryOperation::kRound, Unary::kRound>, 1, 1, 1};
  table["Ceil"] = {ConvertUnary<UnaryOperation::kCeil, Unary::kCeil>, 1, 1, 1};
  table["Floor"] = {ConvertUnary<UnaryOperation::kFloor, Unary::kFloor>, 1, 1, 1};

  table["Relu"] = {ConvertFoldableActivation<ActivationFunction::kRelu, Unary::kRelu>, 1, 1, 1};
  table["Sigmoid"] = {ConvertFoldableActivation<ActivationFunction::kSigmoid, Unary::kSigmoid>, 1, 1, 1};
  table["Tanh"] = {ConvertFoldableActivation<ActivationFunction::kTanh, Unary::kTanh>, 1, 1, 1};
  table["LeakyRelu"] = {ConvertLeakyRelu, 1, 1, 1};
  table["HardSigmoid"] = {ConvertHardSigmoid, 1, 1, 1};
  table["HardSwish"] = {ConvertPlainActivation<ActivationFunction::kHardSwish>, 1, 1, 1};
  table["Elu"] = {ConvertElu, 1, 1, 1};
  table["Selu"] = {ConvertSelu, 1, 1, 1};
  table["Celu"] = {ConvertCelu, 1, 1, 1};
  table["ThresholdedRelu"] = {ConvertThresholdedRelu, 1, 1, 1};
  table["Softplus"] = {ConvertPlainActivation<ActivationFunction::kSoftplus>, 1, 1, 1};
  table["Softsign"] = {ConvertPlainActivation<ActivationFunction::kSoftsign>, 1, 1, 1};
  table["Mish"] = {ConvertPlainActivation<ActivationFunction::kMish>, 1, 1, 1};
  table["Clip"] = {ConvertClip, 1, 3, 1};

  table["Add"] = {ConvertBinary<BinaryOperation::kAdd, Binary::kAdd>, 2, 2, 1};
  table["Sub"] = {ConvertBinary<BinaryOperation::kSub, Binary::kSub>, 2, 2, 1};
  table["Mul"] = {ConvertBinary<BinaryOperation::kMul, Binary::kMul>, 2, 2, 1};
  table["Div"] = {ConvertBinary<BinaryOperation::kDiv, Binary::kDiv>, 2, 2, 1};
  table["Pow"] = {ConvertBinary<BinaryOperation::kPow, Binary::kPow>, 2, 2, 1};
  table["Max"] = {ConvertVariadic<BinaryOperation::kMax, Binary::kMax>, 1, kVariadic, 1};
  table["Min"] = {ConvertVariadic<BinaryOperation::kMin, Binary::kMin>, 1, kVariadic, 1};
  table["Sum"] = {ConvertVariadic<BinaryOperation::kAdd, Binary::kAdd>, 1, kVariadic, 1};
  table["Mean"] = {ConvertMean, 1, kVariadic, 1};

  table["Equal"] = {ConvertBinary<BinaryOperation::kEqual, Binary::kEqual>, 2, 2, 1};
  table["Less"] = {ConvertBinary<BinaryOperation::kLess, Binary::kLess>, 2, 2, 1};
  table["Greater"] = {ConvertBinary<BinaryOperation::kGreater, Binary::kGreater>, 2, 2, 1};
  table["LessOrEqual"] = {ConvertBinary<BinaryOperation::kLessOrEqual, Binary::kLessOrEqual>, 2, 2, 1};
  table["GreaterOrEqual"] = {ConvertBinary<BinaryOperation::kGreaterOrEqual, Binary::kGreaterOrEqual>, 2, 2, 1};
  table["And"] = {ConvertBinary<BinaryOperation::kAnd, Binary::kAnd>, 2, 2, 1};
  table["Or"] = {ConvertBinary<BinaryOperation::kOr, Binary::kOr>, 2, 2, 1};
  table["Xor"] = {ConvertBinary<BinaryOperation::kXor, Binary::kXor>, 2, 2, 1};
  table["Mod"] = {ConvertMod, 2, 2, 1};
  table["BitShift"] = {ConvertBitShift, 2, 2, 1, 11};
  table["Not"] = {ConvertUnary<UnaryOperation::kNot, Unary::kNot>, 1, 1, 1};
  table["Where"] = {ConvertWhere, 3, 3, 1};
}

}  // namespace backplane::onnx
