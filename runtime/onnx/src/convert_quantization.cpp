// The linear quantization ops (op set v2's first int8 step; a backend may later take the
// pattern whole):
//   QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear as compositions of f32 layers, as
//   ONNX's reference computes them in f32:
//     dequantize: y = (f32(x) - f32(zero_point)) * scale
//     quantize:   y = saturate(round_half_even(x / scale) + zero_point), of zero_point's type
//                 (u8 without one); the saturation is Cast's (backplane/element_types.hpp).
//   A per-axis scale or zero point ([C] with `axis`, default 1) broadcasts along that axis.
//
//   MatMulInteger and ConvInteger as the integer layers MatMulInteger and ConvolutionInteger
//   (exact i32). QLinearMatMul and QLinearConv as the same integer layer, QLinearConv's i32 bias
//   added to it (an i32 Add), then requantized with f32 layers exactly as ONNX Runtime does:
//     multiplier = f32(a_scale * b_scale) / y_scale          (f32, this order)
//     y = saturate(round_half_even(f32(acc) * multiplier) + y_zero_point), of y_zero_point's type
//   Each step is one IEEE operation (Cast i32 -> f32, Mul, Round, Add of an integer-valued f32
//   below 2^24, Clip at the type's bounds, Cast of an in-range integer), so every backend that
//   runs these layers gives ORT's bits. ORT clamps before rounding; with integer bounds that is
//   the same. ONNX's numpy reference multiplies in f64 (numpy promotes i32 * f32); it agrees
//   except where |acc| > 2^24 or the f32 product rounds across a half.
#include "composition.hpp"
#include "constant_folding.hpp"
#include "converters.hpp"

#include <backplane/backend/broadcast.hpp>
#include <backplane/descriptors.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace backplane::onnx {

namespace {

using namespace composition;

bool IsQuantized(DataType type) { return type == DataType::kInt8 || type == DataType::kUInt8 || type == DataType::kInt32; }

// Input i (a scale or zero point: a scalar, or [C] along `axis` of input 0) shaped to broadcast
// against input 0.
Term AlongAxis(NodeContext& node, std::size_t i) {
  const Dims& x = node.InputDims(0);
  const Dims& v = node.InputDims(i);
  if (node.InputInfo(i).shape.NumElements() == 1 && v.size() <= 1) return Input(node, i);
  const std::size_t axis = folding::NormalizeAxis(node.Int("axis", 1), x.size());
  if (v.size() != 1 || v[0] != x[axis]) {
    node.Invalid("input " + std::to_string(i) + " " + ToString(node.InputInfo(i).shape) + " is neither one value nor [" +
                 std::to_string(x[axis]) + "] along axis " + std::to_string(axis) + " of " +
                 ToString(node.InputInfo(0).shape));
  }
  Dims shape(x.size(), 1);
  shape[axis] = v[0];
  return Reshape(node, Input(node, i), shape, "input" + std::to_string(i) + "_along_axis");
}

Term AsFloat(NodeContext& node, Term t, const std::string& suffix) {
  return Cast(node, std::move(t), DataType::kFloat32, suffix);
}

void RequireFloatScale(NodeContext& node) {
  if (node.InputInfo(1).type != DataType::kFloat32) {
    node.Unsupported(std::string("a scale of ") + ToString(node.InputInfo(1).type) + " (f32 scales are composed)");
  }
}

void ConvertDequantizeLinear(NodeContext& node) {
  RequireFloatScale(node);
  if (!IsQuantized(node.InputInfo(0).type)) {
    node.Unsupported(std::string("x of ") + ToString(node.InputInfo(0).type) + " (i8, u8 and i32 are dequantized)");
  }
  Term x = AsFloat(node, Input(node, 0), "x_f32");
  if (node.HasInput(2)) x = Binary(node, BinaryOperation::kSub, x, AsFloat(node, AlongAxis(node, 2), "zero_point_f32"), "centered");
  SetOutput(node, 0, Binary(node, BinaryOperation::kMul, x, AlongAxis(node, 1), ""));
}

// saturate(round(x / scale) + zero_point) as `type`.
Term Quantize(NodeContext& node, Term x, Term scale, std::optional<Term> zero_point, DataType type) {
  Term y = Unary(node, UnaryOperation::kRound, Binary(node, BinaryOperation::kDiv, x, scale, "scaled"), "rounded");
  if (zero_point) y = Binary(node, BinaryOperation::kAdd, y, AsFloat(node, *zero_point, "zero_point_f32"), "shifted");
  return Cast(node, y, type, "");
}

void ConvertQuantizeLinear(NodeContext& node) {
  RequireFloatScale(node);
  if (node.InputInfo(0).type != DataType::kFloat32) {
    node.Unsupported(std::string("x of ") + ToString(node.InputInfo(0).type) + " (f32 is quantized)");
  }
  DataType type = DataType::kUInt8;
  std::optional<Term> zero_point;
  if (node.HasInput(2)) {
    type = node.InputInfo(2).type;
    if (type != DataType::kInt8 && type != DataType::kUInt8) {
      node.Unsupported(std::string("a zero point of ") + ToString(type) + " (i8 and u8 are quantized to)");
    }
    zero_point = AlongAxis(node, 2);
  }
  SetOutput(node, 0, Quantize(node, Input(node, 0), AlongAxis(node, 1), zero_point, type));
}

// u8 with the scale and zero point that map [min(x, 0), max(x, 0)] onto [0, 255].
void ConvertDynamicQuantizeLinear(NodeContext& node) {
  if (node.InputInfo(0).type != DataType::kFloat32) {
    node.Unsupported(std::string("x of ") + ToString(node.InputInfo(0).type) + " (f32 is quantized)");
  }
  const Term x = Input(node, 0);
  const Term zero = Scalar(0, DataType::kFloat32);
  const Term high = Binary(node, BinaryOperation::kMax, Reduce(node, ReduceOperation::kMax, x, {}, false, "max"), zero, "high");
  const Term low = Binary(node, BinaryOperation::kMin, Reduce(node, ReduceOperation::kMin, x, {}, false, "min"), zero, "low");
  const Term scale = Binary(node, BinaryOperation::kDiv, Binary(node, BinaryOperation::kSub, high, low, "range"),
                            Scalar(255, DataType::kFloat32), "scale");
  const Term zero_point = Cast(node,
                               Unary(node, UnaryOperation::kRound,
                                     Binary(node, BinaryOperation::kDiv, Binary(node, BinaryOperation::kSub, zero, low, "negated_low"),
                                            scale, "zero_point_f32"),
                                     "zero_point_rounded"),
                               DataType::kUInt8, "zero_point");
  SetOutput(node, 0, Quantize(node, x, scale, zero_point, DataType::kUInt8));
  if (node.HasOutput(1)) SetOutput(node, 1, scale);
  if (node.HasOutput(2)) SetOutput(node, 2, zero_point);
}

// ---- Integer compute -------------------------------------------------------------------------

bool IsEightBit(DataType type) { return type == DataType::kInt8 || type == DataType::kUInt8; }

// Input i (named `what`, the data of the integer op): i8 or u8.
void RequireEightBit(NodeContext& node, std::size_t i, const char* what) {
  if (!IsEightBit(node.InputInfo(i).type)) {
    node.Unsupported(std::string(what) + " of " + ToString(node.InputInfo(i).type) + " (i8 and u8 run as integers)");
  }
}

// Input i (named `what`): a zero point of input `data`'s type.
void RequireZeroPointType(NodeContext& node, std::size_t i, std::size_t data, const char* what) {
  if (node.InputInfo(i).type != node.InputInfo(data).type) {
    node.Invalid(std::string(what) + " of " + ToString(node.InputInfo(i).type) + " differs from its input's " +
                 ToString(node.InputInfo(data).type));
  }
}

bool IsOneValue(NodeContext& node, std::size_t i) {
  return node.InputRank(i) <= 1 && node.InputInfo(i).shape.NumElements() == 1;
}

// Input i (named `what`): one value ([] or [1]), as a rank-0 term.
Term OneValue(NodeContext& node, std::size_t i, const char* what) {
  if (!IsOneValue(node, i)) {
    node.Unsupported(std::string(what) + " " + ToString(node.InputInfo(i).shape) + " (one value is taken here)");
  }
  if (node.InputRank(i) == 0) return Input(node, i);
  return Reshape(node, Input(node, i), {}, std::string(what) + "_scalar");
}

// Input i (named `what`): one value, or one per output channel ([M] for the convolution's
// weights, input `weights`: [M, ...]); with `output_shaped` [M, 1...], to broadcast against the
// output [N, M, O...], else [M] (the ConvolutionInteger layer's own form).
Term PerOutputChannel(NodeContext& node, std::size_t i, std::size_t weights, const char* what, bool output_shaped) {
  if (IsOneValue(node, i)) return OneValue(node, i, what);
  const std::int64_t m = node.InputDims(weights)[0];
  if (node.InputDims(i) != Dims{m}) {
    node.Unsupported(std::string(what) + " " + ToString(node.InputInfo(i).shape) + " (one value or [" +
                     std::to_string(m) + "], one per output channel, is taken)");
  }
  if (!output_shaped) return Input(node, i);
  Dims shape(node.InputRank(0) - 1, 1);
  shape[0] = m;
  return Reshape(node, Input(node, i), shape, std::string(what) + "_per_channel");
}

// A matrix product's scale or zero point (input i, named `what`) for operand `data`: one value,
// or one per row of A (`per_row`: [M] or [..., M, 1]) / per column of B ([N] or [..., 1, N]),
// shaped to broadcast against the operand and the product. A 1-D [M] per-row value becomes
// [M, 1] (ONNX's form for a 2-D A).
Term PerRowOrColumn(NodeContext& node, std::size_t i, std::size_t data, bool per_row, const char* what) {
  if (IsOneValue(node, i)) return OneValue(node, i, what);
  const Dims& x = node.InputDims(data);
  const Dims& v = node.InputDims(i);
  const std::string taken = per_row ? "one value, or per row: [M] or [..., M, 1]" : "one value, or per column: [N] or [..., 1, N]";
  auto refuse = [&] {  // throws
    node.Unsupported(std::string(what) + " " + ToString(node.InputInfo(i).shape) + " for input " +
                     ToString(node.InputInfo(data).shape) + " (" + taken + ", is taken)");
  };
  if (x.size() < 2) refuse();
  const std::int64_t rows = x[x.size() - 2], columns = x.back();
  if (v.size() == 1) {
    if (v[0] != (per_row ? rows : columns)) refuse();
    return per_row ? Reshape(node, Input(node, i), {rows, 1}, std::string(what) + "_per_row") : Input(node, i);
  }
  const bool fits = backend::BroadcastsTo(TensorShape(v), TensorShape(x)) &&
                    (per_row ? v.back() == 1 : v[v.size() - 2] == 1);
  if (!fits) refuse();
  return Input(node, i);
}

// ORT's requantization of the i32 accumulator `acc` (see the top of this file).
Term Requantize(NodeContext& node, Term acc, Term multiplier, Term zero_point, DataType type) {
  Term y = Binary(node, BinaryOperation::kMul, AsFloat(node, std::move(acc), "acc_f32"), std::move(multiplier), "scaled");
  y = Unary(node, UnaryOperation::kRound, std::move(y), "rounded");
  y = Binary(node, BinaryOperation::kAdd, std::move(y), AsFloat(node, std::move(zero_point), "y_zero_point_f32"), "shifted");
  const bool is_signed = type == DataType::kInt8;
  y = Activation(node, ActivationFunction::kClip, std::move(y), "saturated", is_signed ? -128.0f : 0.0f,
                 is_signed ? 127.0f : 255.0f);
  return Cast(node, std::move(y), type, "");
}

// f32(a_scale * b_scale) / y_scale: inputs `a`, `b` and `y` are f32 scales.
Term Multiplier(NodeContext& node, Term a_scale, Term b_scale, Term y_scale) {
  return Binary(node, BinaryOperation::kDiv, Binary(node, BinaryOperation::kMul, std::move(a_scale), std::move(b_scale), "scale_product"),
                std::move(y_scale), "multiplier");
}

void RequireFloatScales(NodeContext& node, std::initializer_list<std::size_t> inputs) {
  for (const std::size_t i : inputs) {
    if (node.InputInfo(i).type != DataType::kFloat32) {
      node.Unsupported("input " + std::to_string(i) + ": a scale of " + ToString(node.InputInfo(i).type) +
                       " (f32 scales are requantized)");
    }
  }
}

// The y zero point's type: the output's (i8 or u8).
DataType OutputType(NodeContext& node, std::size_t y_zero_point) {
  const DataType type = node.InputInfo(y_zero_point).type;
  if (!IsEightBit(type)) node.Unsupported(std::string("y_zero_point of ") + ToString(type) + " (i8 and u8 are requantized to)");
  return type;
}

// The MatMulInteger layer over inputs a and b with their zero points (absent: none; B's without
// A's gets a 0 for A).
Term IntegerMatMul(NodeContext& node, std::size_t a, std::size_t b, std::optional<std::size_t> a_zero,
                   std::optional<std::size_t> b_zero, const std::string& suffix) {
  RequireEightBit(node, a, "A");
  RequireEightBit(node, b, "B");
  Term ta = Input(node, a), tb = Input(node, b);
  std::vector<Term> zeros;
  if (a_zero || b_zero) {
    if (a_zero) RequireZeroPointType(node, *a_zero, a, "a_zero_point");
    zeros.push_back(a_zero ? PerRowOrColumn(node, *a_zero, a, true, "a_zero_point")
                           : IntegerScalar(0, node.InputInfo(a).type));
  }
  if (b_zero) {
    RequireZeroPointType(node, *b_zero, b, "b_zero_point");
    zeros.push_back(PerRowOrColumn(node, *b_zero, b, false, "b_zero_point"));
  }
  std::vector<Term*> inputs{&ta, &tb};
  for (Term& zero : zeros) inputs.push_back(&zero);
  return Layer(node, MatMulIntegerDescriptor{}, inputs, suffix);
}

// The ConvolutionInteger layer over x (input 0) and the weights (input `w`) with their zero
// points (absent: none; the weights' without x's gets a 0 for x).
Term IntegerConvolution(NodeContext& node, std::size_t w, std::optional<std::size_t> x_zero,
                        std::optional<std::size_t> w_zero, const std::string& suffix) {
  RequireEightBit(node, 0, "x");
  RequireEightBit(node, w, "w");
  const ConvolutionIntegerDescriptor descriptor = IntegerConvolutionWindow(node, w);
  Term tx = Input(node, 0), tw = Input(node, w);
  std::vector<Term> zeros;
  if (x_zero || w_zero) {
    if (x_zero) RequireZeroPointType(node, *x_zero, 0, "x_zero_point");
    zeros.push_back(x_zero ? OneValue(node, *x_zero, "x_zero_point") : IntegerScalar(0, node.InputInfo(0).type));
  }
  if (w_zero) {
    RequireZeroPointType(node, *w_zero, w, "w_zero_point");
    zeros.push_back(PerOutputChannel(node, *w_zero, w, "w_zero_point", false));
  }
  std::vector<Term*> inputs{&tx, &tw};
  for (Term& zero : zeros) inputs.push_back(&zero);
  return Layer(node, descriptor, inputs, suffix);
}

std::optional<std::size_t> OptionalInput(NodeContext& node, std::size_t i) {
  return node.HasInput(i) ? std::optional<std::size_t>(i) : std::nullopt;
}

// MatMulInteger: A, B, optional a_zero_point, b_zero_point.
void ConvertMatMulInteger(NodeContext& node) {
  SetOutput(node, 0, IntegerMatMul(node, 0, 1, OptionalInput(node, 2), OptionalInput(node, 3), ""));
}

// ConvInteger: x, w, optional x_zero_point, w_zero_point.
void ConvertConvInteger(NodeContext& node) {
  SetOutput(node, 0, IntegerConvolution(node, 1, OptionalInput(node, 2), OptionalInput(node, 3), ""));
}

// QLinearMatMul: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
void ConvertQLinearMatMul(NodeContext& node) {
  RequireFloatScales(node, {1, 4, 6});
  const DataType type = OutputType(node, 7);
  Term acc = IntegerMatMul(node, 0, 3, 2, 5, "acc");
  Term multiplier = Multiplier(node, PerRowOrColumn(node, 1, 0, true, "a_scale"), PerRowOrColumn(node, 4, 3, false, "b_scale"),
                               OneValue(node, 6, "y_scale"));
  SetOutput(node, 0, Requantize(node, std::move(acc), std::move(multiplier), OneValue(node, 7, "y_zero_point"), type));
}

// QLinearConv: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point,
// optional bias B (i32 [M], added to the accumulator).
void ConvertQLinearConv(NodeContext& node) {
  RequireFloatScales(node, {1, 4, 6});
  const DataType type = OutputType(node, 7);
  Term acc = IntegerConvolution(node, 3, 2, 5, "acc");
  if (node.HasInput(8)) {
    if (node.InputInfo(8).type != DataType::kInt32) {
      node.Invalid(std::string("bias B of ") + ToString(node.InputInfo(8).type) + " (i32 expected)");
    }
    acc = Binary(node, BinaryOperation::kAdd, std::move(acc), PerOutputChannel(node, 8, 3, "B", true), "biased");
  }
  Term multiplier = Multiplier(node, OneValue(node, 1, "x_scale"), PerOutputChannel(node, 4, 3, "w_scale", true),
                               OneValue(node, 6, "y_scale"));
  SetOutput(node, 0, Requantize(node, std::move(acc), std::move(multiplier), OneValue(node, 7, "y_zero_point"), type));
}

}  // namespace

void AddQuantizationConverters(ConverterTable& table) {
  table["QuantizeLinear"] = {ConvertQuantizeLinear, 2, 3, 1, 10};
  table["DequantizeLinear"] = {ConvertDequantizeLinear, 2, 3, 1, 10};
  table["DynamicQuantizeLinear"] = {ConvertDynamicQuantizeLinear, 1, 1, 3, 11};
  table["MatMulInteger"] = {ConvertMatMulInteger, 2, 4, 1, 10};
  table["ConvInteger"] = {ConvertConvInteger, 2, 4, 1, 10};
  table["QLinearMatMul"] = {ConvertQLinearMatMul, 8, 8, 1, 10};
  table["QLinearConv"] = {ConvertQLinearConv, 8, 9, 1, 10};
}

}  // namespace backplane::onnx
