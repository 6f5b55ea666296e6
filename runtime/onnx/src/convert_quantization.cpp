// The linear quantization ops as compositions of f32 layers (op set v2's first int8 step; a
// backend may later take the pattern whole): QuantizeLinear, DequantizeLinear and
// DynamicQuantizeLinear, as ONNX's reference computes them in f32:
//   dequantize: y = (f32(x) - f32(zero_point)) * scale
//   quantize:   y = saturate(round_half_even(x / scale) + zero_point), of zero_point's type
//               (u8 without one); the saturation is Cast's (backplane/element_types.hpp).
// A per-axis scale or zero point ([C] with `axis`, default 1) broadcasts along that axis.
#include "composition.hpp"
#include "constant_folding.hpp"
#include "converters.hpp"

#include <backplane/descriptors.hpp>

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

}  // namespace

void AddQuantizationConverters(ConverterTable& table) {
  table["QuantizeLinear"] = {ConvertQuantizeLinear, 2, 3, 1, 10};
  table["DequantizeLinear"] = {ConvertDequantizeLinear, 2, 3, 1, 10};
  table["DynamicQuantizeLinear"] = {ConvertDynamicQuantizeLinear, 1, 1, 3, 11};
}

}  // namespace backplane::onnx
