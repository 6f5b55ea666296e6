// ONNX ops the importer composes from layers that already exist (op set v2, issue 39): PRelu,
// IsNaN, IsInf, Shrink, DepthToSpace, SpaceToDepth, EyeLike, InstanceNormalization, OneHot,
// MeanVarianceNormalization, and LayerNormalization's Mean and InvStdDev outputs.
//
// Each converter is written once over Terms: a step whose inputs are all constants at import is
// folded (folding::*), any other becomes a layer, so a node on constants folds whole.
#include "composition.hpp"
#include "constant_folding.hpp"
#include "converters.hpp"

#include <backplane/backend/op_schema.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <limits>
#include <optional>

namespace backplane::onnx {

namespace {

using namespace composition;

std::string Str(const Dims& dims) { return ToString(TensorShape(dims)); }

bool IsFloatingPoint(DataType type) {
  return type == DataType::kFloat32 || type == DataType::kFloat16 || type == DataType::kBFloat16;
}

void RequireFloatingPoint(NodeContext& node, std::size_t i, const char* what) {
  const DataType type = node.InputInfo(i).type;
  if (!IsFloatingPoint(type)) {
    node.Unsupported(std::string(what) + " is " + ToString(type) + "; the importer composes " + node.node().op_type() +
                     " for floating-point inputs only");
  }
}

// x's mean over `axes` (kept), x minus it, and the mean of that difference squared: the
// statistics of every normalization here, with the variance of the centred values (never
// negative, unlike E[x^2] - E[x]^2).
struct Moments {
  Term mean;
  Term centered;
  Term variance;
};

Moments CenteredMoments(NodeContext& node, const Term& x, const Dims& axes) {
  Moments m;
  m.mean = Mean(node, x, axes, "mean");
  m.centered = Binary(node, BinaryOperation::kSub, x, m.mean, "centered");
  const Term square = Binary(node, BinaryOperation::kMul, m.centered, m.centered, "square");
  m.variance = Mean(node, square, axes, "variance");
  return m;
}

// 1 / sqrt(variance + epsilon).
Term InvStdDev(NodeContext& node, const Term& variance, float epsilon, DataType type, const std::string& suffix) {
  const Term shifted = Binary(node, BinaryOperation::kAdd, variance, Scalar(epsilon, type), "variance_epsilon");
  return Unary(node, UnaryOperation::kReciprocal, Unary(node, UnaryOperation::kSqrt, shifted, "std_dev"), suffix);
}

// [c, 1, ...] of rank `rank` - 1: a per-channel vector [C] against [N, C, ...].
Dims PerChannel(std::int64_t c, std::size_t rank) {
  Dims dims(rank - 1, 1);
  dims[0] = c;
  return dims;
}

// The axes from `first` to rank - 1.
Dims AxesFrom(std::size_t first, std::size_t rank) {
  Dims axes;
  for (std::size_t a = first; a < rank; ++a) axes.push_back(static_cast<std::int64_t>(a));
  return axes;
}

// ---- Ops ------------------------------------------------------------------------------------

// Whether numpy broadcasting takes `from` to `to` unchanged (ONNX's unidirectional broadcast).
bool BroadcastsTo(const Dims& from, const Dims& to) {
  if (from.size() > to.size()) return false;
  for (std::size_t i = 1; i <= from.size(); ++i) {
    const std::int64_t d = from[from.size() - i];
    if (d != 1 && d != to[to.size() - i]) return false;
  }
  return true;
}

// The slope as numpy broadcasting reads it against x: from opset 7 it must broadcast to x
// unidirectionally; before, a slope of one element is shared and a slope [C] is per channel
// (axis 1, as Caffe2 and PyTorch's exporter meant it).
Term PReluSlope(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  const Dims& slope = node.InputDims(1);
  const std::string shapes = "slope " + Str(slope) + " and X " + Str(x);
  if (node.opset() >= 7) {
    if (!BroadcastsTo(slope, x)) node.Invalid(shapes + ": the slope must broadcast to X");
    return Input(node, 1);
  }
  if (slope == x || node.InputInfo(1).shape.NumElements() == 1) return Input(node, 1);
  if (slope.size() != 1 || x.size() < 2 || slope[0] != x[1]) {
    node.Unsupported(shapes + ": before opset 7 the importer takes a slope of one element, of X's shape, or [C]");
  }
  return Reshape(node, Input(node, 1), PerChannel(slope[0], x.size()), "slope");
}

// x < 0 ? x * slope : x, ONNX's definition to the letter: -0 and NaN stay x, and a positive x
// stays x whatever the slope (the max(x,0) + slope*min(x,0) form gives x + slope*0, NaN for an
// infinite or NaN slope).
void ConvertPRelu(NodeContext& node) {
  const DataType type = node.InputInfo(0).type;
  if (node.InputInfo(1).type != type) {
    node.Invalid(std::string("X is ") + ToString(type) + " and the slope " + ToString(node.InputInfo(1).type));
  }
  const Term x = Input(node, 0);
  const Term negative = Binary(node, BinaryOperation::kLess, x, Scalar(0, type), "negative");
  const Term scaled = Binary(node, BinaryOperation::kMul, x, PReluSlope(node), "scaled");
  SetOutput(node, 0, Select(node, negative, scaled, x, {}));
}

// x != x: true for NaN only.
void ConvertIsNaN(NodeContext& node) {
  RequireFloatingPoint(node, 0, "X");
  const Term x = Input(node, 0);
  SetOutput(node, 0, Unary(node, UnaryOperation::kNot, Binary(node, BinaryOperation::kEqual, x, x, "equal"), {}));
}

void ConvertIsInf(NodeContext& node) {
  RequireFloatingPoint(node, 0, "X");
  const DataType type = node.InputInfo(0).type;
  const bool positive = node.Int("detect_positive", 1) != 0;
  const bool negative = node.Int("detect_negative", 1) != 0;
  const double inf = std::numeric_limits<double>::infinity();
  const Term x = Input(node, 0);
  if (positive && negative) {
    const Term is_positive = Binary(node, BinaryOperation::kEqual, x, Scalar(inf, type), "positive");
    const Term is_negative = Binary(node, BinaryOperation::kEqual, x, Scalar(-inf, type), "negative");
    SetOutput(node, 0, Binary(node, BinaryOperation::kOr, is_positive, is_negative, {}));
    return;
  }
  // One sign, or neither: x == NaN is false everywhere.
  const double target = positive ? inf : negative ? -inf : std::numeric_limits<double>::quiet_NaN();
  SetOutput(node, 0, Binary(node, BinaryOperation::kEqual, x, Scalar(target, type), {}));
}

// x < -lambd ? x + bias : (x > lambd ? x - bias : 0).
void ConvertShrink(NodeContext& node) {
  RequireFloatingPoint(node, 0, "the input");
  const DataType type = node.InputInfo(0).type;
  const double lambd = node.Float("lambd", 0.5f);
  const double bias = node.Float("bias", 0.0f);
  const Term x = Input(node, 0);
  const Term above = Binary(node, BinaryOperation::kGreater, x, Scalar(lambd, type), "above");
  const Term lowered = Binary(node, BinaryOperation::kSub, x, Scalar(bias, type), "lowered");
  const Term upper = Select(node, above, lowered, Scalar(0, type), "upper");
  const Term below = Binary(node, BinaryOperation::kLess, x, Scalar(-lambd, type), "below");
  const Term raised = Binary(node, BinaryOperation::kAdd, x, Scalar(bias, type), "raised");
  SetOutput(node, 0, Select(node, below, raised, upper, {}));
}

// x [N, C, H, W] and the block size b, checked: rank 4 and b positive.
std::int64_t BlockSize(NodeContext& node) {
  if (node.InputRank(0) != 4) node.Invalid("the input has shape " + ToString(node.InputInfo(0).shape) + ", not rank 4");
  if (!node.HasAttribute("blocksize")) node.Invalid("attribute 'blocksize' is required");
  const std::int64_t b = node.Int("blocksize", 0);
  if (b <= 0) node.Invalid("blocksize " + std::to_string(b) + " must be positive");
  return b;
}

// Reshape to `split`, Transpose by `permutation`, Reshape to `out`.
void SetRearranged(NodeContext& node, const Dims& split, const Dims& permutation, const Dims& out) {
  const Term blocks = Reshape(node, Input(node, 0), split, "blocks");
  SetOutput(node, 0, Reshape(node, Transpose(node, blocks, permutation, "transpose"), out, {}));
}

// DCR (the default): depth read as [b, b, C'], CRD: as [C', b, b].
void ConvertDepthToSpace(NodeContext& node) {
  const std::int64_t b = BlockSize(node);
  const Dims& x = node.InputDims(0);
  const std::int64_t n = x[0], c = x[1], h = x[2], w = x[3];
  if (c % (b * b) != 0) node.Invalid("C " + std::to_string(c) + " is not a multiple of blocksize^2");
  const std::string mode = node.String("mode", "DCR");
  const Dims out{n, c / (b * b), h * b, w * b};
  if (mode == "DCR") {
    SetRearranged(node, {n, b, b, c / (b * b), h, w}, {0, 3, 4, 1, 5, 2}, out);
  } else if (mode == "CRD") {
    SetRearranged(node, {n, c / (b * b), b, b, h, w}, {0, 1, 4, 2, 5, 3}, out);
  } else {
    node.Invalid("mode '" + mode + "' is not DCR or CRD");
  }
}

void ConvertSpaceToDepth(NodeContext& node) {
  const std::int64_t b = BlockSize(node);
  const Dims& x = node.InputDims(0);
  const std::int64_t n = x[0], c = x[1], h = x[2], w = x[3];
  if (h % b != 0 || w % b != 0) {
    node.Invalid("H and W of " + Str(x) + " are not multiples of blocksize " + std::to_string(b));
  }
  SetRearranged(node, {n, c, h / b, b, w / b, b}, {0, 3, 5, 1, 2, 4}, {n, c * b * b, h / b, w / b});
}

// Ones on the k-th diagonal of a matrix of the input's shape: a constant (the shape is known).
void ConvertEyeLike(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  if (x.size() != 2) node.Invalid("the input has shape " + Str(x) + ", not rank 2");
  DataType type = node.InputInfo(0).type;
  if (node.HasAttribute("dtype")) {
    const int onnx_type = static_cast<int>(node.Int("dtype", 0));
    if (!DataTypeFromOnnx(onnx_type, type)) node.Unsupported("dtype " + OnnxTypeName(onnx_type));
  }
  const TensorShape shape(x);
  if (!node.FoldsInto({shape, type})) node.Unsupported("an output of " + ToString(shape) + " (above the fold limit)");
  const std::int64_t k = node.Int("k", 0);
  std::vector<std::int64_t> values(static_cast<std::size_t>(shape.NumElements()), 0);
  for (std::int64_t i = 0; i < x[0]; ++i) {
    if (i + k >= 0 && i + k < x[1]) values[static_cast<std::size_t>(i * x[1] + i + k)] = 1;
  }
  node.SetOutput(0, ConstantTensor::FromInt64(shape, values, type));
}

// y = (x - mean) / sqrt(variance + epsilon) * scale + bias, statistics per (n, c) over the
// spatial axes; scale and bias [C] (constants or computed) broadcast as [C, 1, ...].
void ConvertInstanceNormalization(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  if (x.size() < 3) node.Unsupported("an input of " + Str(x) + " (no spatial axes: rank 3 or more is composed)");
  for (const std::size_t i : {1, 2}) {
    if (node.InputDims(i) != Dims{x[1]}) {
      node.Invalid("input " + std::to_string(i) + " has shape " + Str(node.InputDims(i)) + ", not [C] of X " + Str(x));
    }
  }
  const Dims per_channel = PerChannel(x[1], x.size());
  const DataType type = node.InputInfo(0).type;
  const Moments m = CenteredMoments(node, Input(node, 0), AxesFrom(2, x.size()));
  const Term inv_std = InvStdDev(node, m.variance, node.Float("epsilon", 1e-5f), type, "inv_std_dev");
  const Term normalized = Binary(node, BinaryOperation::kMul, m.centered, inv_std, "normalized");
  const Term scale = Reshape(node, Input(node, 1), per_channel, "scale");
  const Term scaled = Binary(node, BinaryOperation::kMul, normalized, scale, "scaled");
  const Term bias = Reshape(node, Input(node, 2), per_channel, "bias");
  SetOutput(node, 0, Binary(node, BinaryOperation::kAdd, scaled, bias, {}));
}

// The element `i` of a constant vector as a rank-0 constant.
Term Element(const ConstantTensor& vector, std::int64_t i) {
  return Known(folding::Slice(vector, {i}, {i + 1}, {0}, {}).Reshaped(TensorShape{}));
}

// `first`, `first` + 1, ... (`depth` values) along `axis` of an int64 constant of rank `rank`
// (1 elsewhere), checked against the memory budget before it is made.
Term Positions(NodeContext& node, std::int64_t first, std::int64_t depth, std::size_t axis, std::size_t rank) {
  Dims shape(rank, 1);
  shape[axis] = depth;
  node.context().CheckBudget({TensorShape(shape), DataType::kInt64});
  std::vector<std::int64_t> values(static_cast<std::size_t>(depth));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = first + static_cast<std::int64_t>(i);
  return Known(ConstantTensor::FromInt64(TensorShape(shape), values));
}

// y = on where the index (cast to int64; negative counts from the end) is the position along
// `axis`, off elsewhere; an index outside [-depth, depth - 1] gives a row of off. Compared with
// two constants, 0 .. depth-1 and -depth .. -1, so no integer arithmetic is needed at run time.
void ConvertOneHot(NodeContext& node) {
  const ConstantTensor& depth_tensor = node.RequireConstant(1, "depth");
  const ConstantTensor& values = node.RequireConstant(2, "values");
  if (depth_tensor.NumElements() != 1) {
    node.Invalid("depth has shape " + ToString(depth_tensor.shape()) + ", not one element");
  }
  if (values.shape().Dims() != Dims{2}) {
    node.Invalid("values has shape " + ToString(values.shape()) + ", not [2] (off, on)");
  }
  const std::int64_t depth = depth_tensor.ToInt64()[0];
  if (depth < 0) node.Invalid("depth " + std::to_string(depth) + " is negative");
  if (depth == 0) node.Unsupported("depth 0 (an empty output)");
  Dims unsqueezed = node.InputDims(0);
  const std::size_t rank = unsqueezed.size() + 1;
  const std::size_t axis = folding::NormalizeAxis(node.Int("axis", -1), rank);
  unsqueezed.insert(unsqueezed.begin() + static_cast<std::ptrdiff_t>(axis), 1);
  Term index = Input(node, 0);
  if (node.InputInfo(0).type != DataType::kInt64) index = Cast(node, index, DataType::kInt64, "cast");
  index = Reshape(node, index, unsqueezed, "unsqueeze");
  const Term hit = Binary(node, BinaryOperation::kEqual, index, Positions(node, 0, depth, axis, rank), "hit");
  const Term hit_from_end =
      Binary(node, BinaryOperation::kEqual, index, Positions(node, -depth, depth, axis, rank), "hit_from_end");
  const Term on = Binary(node, BinaryOperation::kOr, hit, hit_from_end, "on");
  SetOutput(node, 0, Select(node, on, Element(values, 1), Element(values, 0), {}));
}

// ONNX's function body: (x - mean) / (sqrt(variance) + 1e-9) over `axes` (default 0, 2, 3);
// the variance is that of the centred values (the body's E[x^2] - E[x]^2 is the same number,
// with more rounding).
void ConvertMeanVarianceNormalization(NodeContext& node) {
  const std::size_t rank = node.InputRank(0);
  Dims axes = node.Ints("axes", {0, 2, 3});
  for (auto& axis : axes) axis = static_cast<std::int64_t>(folding::NormalizeAxis(axis, rank));
  const DataType type = node.InputInfo(0).type;
  const Moments m = CenteredMoments(node, Input(node, 0), axes);
  const Term std_dev = Unary(node, UnaryOperation::kSqrt, m.variance, "std_dev");
  const Term denominator = Binary(node, BinaryOperation::kAdd, std_dev, Scalar(1e-9f, type), "std_dev_epsilon");
  SetOutput(node, 0, Binary(node, BinaryOperation::kDiv, m.centered, denominator, {}));
}

// Hardmax: 1 at the first largest value along the axis, 0 elsewhere; an ArgMax compared with the
// positions. Opset 13: along `axis` (default -1); before, x is coerced to 2-D at `axis`
// (default 1) and the largest is taken over the flattened inner dimensions.
void ConvertHardmax(NodeContext& node) {
  RequireFloatingPoint(node, 0, "input 0");
  const DataType type = node.InputInfo(0).type;
  const Dims& x = node.InputDims(0);
  if (x.empty()) node.Invalid("Hardmax of a scalar");
  std::size_t axis = folding::NormalizeAxis(node.Int("axis", node.opset() >= 13 ? -1 : 1), x.size());
  Term input = Input(node, 0);
  Dims work = x;
  if (node.opset() < 13) {
    work = {1, 1};
    for (std::size_t a = 0; a < x.size(); ++a) work[a < axis ? 0 : 1] *= x[a];
    input = Reshape(node, input, work, "flat");
    axis = 1;
  }
  ArgMinMaxDescriptor largest;
  largest.axis = static_cast<std::int32_t>(axis);
  const Term position = Layer(node, largest, {&input}, "argmax");
  const Term hit = Binary(node, BinaryOperation::kEqual, position, Positions(node, 0, work[axis], axis, work.size()), "hit");
  Term y = Select(node, hit, Scalar(1, type), Scalar(0, type), node.opset() < 13 ? "hardmax" : "");
  if (node.opset() < 13) y = Reshape(node, y, x, "");
  SetOutput(node, 0, y);
}

}  // namespace

void AddLayerNormalizationStatistics(NodeContext& node, std::int64_t axis, float epsilon) {
  if (!node.HasOutput(1) && !node.HasOutput(2)) return;
  const DataType type = node.InputInfo(0).type;
  if (type != DataType::kFloat32 || node.Int("stash_type", 1) != 1) {
    node.SetRemainingOutputsUnavailable(1, std::string("Mean / InvStdDev of ") + ToString(type) +
                                               " X with stash_type " + std::to_string(node.Int("stash_type", 1)) +
                                               "; composed for f32 X and stash_type 1 only");
    return;
  }
  const std::size_t rank = node.InputRank(0);
  const Moments m = CenteredMoments(node, Input(node, 0), AxesFrom(folding::NormalizeAxis(axis, rank), rank));
  SetOutput(node, 1, m.mean);
  if (node.HasOutput(2)) SetOutput(node, 2, InvStdDev(node, m.variance, epsilon, type, "inv_std_dev"));
}

void AddComposedConverters(ConverterTable& table) {
  table["PRelu"] = {ConvertPRelu, 2, 2, 1};
  table["IsNaN"] = {ConvertIsNaN, 1, 1, 1};
  table["IsInf"] = {ConvertIsInf, 1, 1, 1};
  table["Shrink"] = {ConvertShrink, 1, 1, 1};
  table["DepthToSpace"] = {ConvertDepthToSpace, 1, 1, 1};
  table["SpaceToDepth"] = {ConvertSpaceToDepth, 1, 1, 1};
  table["EyeLike"] = {ConvertEyeLike, 1, 1, 1};
  table["InstanceNormalization"] = {ConvertInstanceNormalization, 3, 3, 1};
  table["OneHot"] = {ConvertOneHot, 3, 3, 1};
  table["Hardmax"] = {ConvertHardmax, 1, 1, 1};
  table["MeanVarianceNormalization"] = {ConvertMeanVarianceNormalization, 1, 1, 1, 9};
}

}  // namespace backplane::onnx
