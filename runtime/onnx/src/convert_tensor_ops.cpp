// Shape and data-movement ops, constants, and the generators that exist only folded. Every op
// here folds when its data input is a known constant, so shape subgraphs (Shape -> Gather ->
// Unsqueeze -> Concat -> Reshape) collapse to the constant parameters op set v1 takes.
#include "composition.hpp"
#include "constant_folding.hpp"
#include "converters.hpp"

#include <backplane/checked_size.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <set>

namespace backplane::onnx {

namespace {

using Dims = std::vector<std::int64_t>;

std::string Str(const Dims& dims) { return ToString(TensorShape(dims)); }

// Output 0 is input 0 reshaped to `dims`: folded, aliased when nothing changes, or a Reshape.
void SetReshaped(NodeContext& node, const Dims& dims) {
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    node.SetOutput(0, x->Reshaped(TensorShape(dims)));
  } else if (dims == node.InputDims(0)) {
    node.SetOutputAlias(0, 0);
  } else {
    ReshapeDescriptor descriptor;
    descriptor.shape = dims;
    node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
  }
}

// `times` copies of `x` along `axis`, as Concat layers (at most 32 inputs each).
OutputSlot Repeat(NodeContext& node, OutputSlot x, std::int32_t axis, std::int64_t times, const std::string& suffix) {
  constexpr std::int64_t kMaxInputs = 32;
  if (times == 1) return x;
  ConcatDescriptor concat;
  concat.axis = axis;
  if (times <= kMaxInputs) {
    return node.Add(concat, std::vector<OutputSlot>(static_cast<std::size_t>(times), x), suffix);
  }
  const OutputSlot block = Repeat(node, x, axis, kMaxInputs, suffix + "_x32");
  const OutputSlot blocks = Repeat(node, block, axis, times / kMaxInputs, suffix + "_blocks");
  if (times % kMaxInputs == 0) return blocks;
  const OutputSlot rest = Repeat(node, x, axis, times % kMaxInputs, suffix + "_rest");
  return node.Add(concat, {blocks, rest}, suffix);
}

// The run-time form of Expand: `x` (of `dims`) reshaped to the rank of `out`, then one Concat
// of copies per broadcast axis.
OutputSlot ExpandAtRunTime(NodeContext& node, OutputSlot x, const Dims& dims, const Dims& out) {
  OutputSlot result = x;
  Dims padded(out.size() - dims.size(), 1);
  padded.insert(padded.end(), dims.begin(), dims.end());
  if (padded != dims) {
    ReshapeDescriptor reshape;
    reshape.shape = padded;
    result = node.Add(reshape, {result}, "reshape");
  }
  for (std::size_t a = 0; a < out.size(); ++a) {
    if (padded[a] != out[a]) result = Repeat(node, result, static_cast<std::int32_t>(a), out[a], "axis" + std::to_string(a));
  }
  return result;
}

void ConvertReshape(NodeContext& node) {
  if (node.opset() < 5 ? !node.HasAttribute("shape") : !node.HasInput(1)) {
    node.Invalid(node.opset() < 5 ? "attribute shape is required" : "input shape is required");
  }
  const Dims target = node.opset() < 5 ? node.Ints("shape") : node.RequireInts(1, "shape");  // attribute before 5
  if (node.Int("allowzero", 0) != 0 && std::count(target.begin(), target.end(), 0) > 0) {
    node.Unsupported("allowzero=1 with a 0 in the shape " + Str(target) + " (empty tensors)");
  }
  SetReshaped(node, folding::ReshapeTarget(node.InputDims(0), target));
}

void ConvertFlatten(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  const auto rank = static_cast<std::int64_t>(x.size());
  std::int64_t axis = node.Int("axis", 1);
  if (axis < -rank || axis > rank) node.Invalid("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += rank;
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t i = 0; i < rank; ++i) {
    std::int64_t& part = i < axis ? outer : inner;
    part = CheckedMulDims(part, x[static_cast<std::size_t>(i)], "the flattened shape");
  }
  if (node.ConstantInput(0) || Dims{outer, inner} == x) {
    SetReshaped(node, {outer, inner});
    return;
  }
  FlattenDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(axis);
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

void ConvertSqueeze(NodeContext& node) {
  Dims axes = node.Ints("axes", {});
  if (node.HasInput(1)) axes = node.RequireInts(1, "axes");
  const Dims& x = node.InputDims(0);
  std::vector<bool> drop(x.size(), false);
  for (const auto axis : axes) {
    const std::size_t a = folding::NormalizeAxis(axis, x.size());
    if (x[a] != 1) node.Invalid("cannot squeeze axis " + std::to_string(axis) + " of length " + std::to_string(x[a]));
    drop[a] = true;
  }
  Dims out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (axes.empty() ? x[i] != 1 : !drop[i]) out.push_back(x[i]);
  }
  SetReshaped(node, out);
}

void ConvertUnsqueeze(NodeContext& node) {
  Dims axes = node.Ints("axes", {});
  if (node.HasInput(1)) axes = node.RequireInts(1, "axes");
  if (axes.empty()) node.Invalid("axes are required");
  const Dims& x = node.InputDims(0);
  const std::size_t rank = x.size() + axes.size();
  std::vector<bool> inserted(rank, false);
  for (const auto axis : axes) {
    const std::size_t a = folding::NormalizeAxis(axis, rank);
    if (inserted[a]) node.Invalid("axis " + std::to_string(axis) + " is given twice");
    inserted[a] = true;
  }
  Dims out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? 1 : x[next++]);
  SetReshaped(node, out);
}

void ConvertTranspose(NodeContext& node) {
  Dims perm = node.Ints("perm", {});
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    node.SetOutput(0, folding::Transpose(*x, perm));
    return;
  }
  TransposeDescriptor descriptor;
  for (const auto p : perm) {
    if (p < 0 || p >= static_cast<std::int64_t>(node.InputRank(0))) node.Invalid("perm " + Str(perm) + " is not a permutation");
    descriptor.permutation.push_back(static_cast<std::uint32_t>(p));
  }
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

void ConvertConcat(NodeContext& node) {
  if (!node.HasAttribute("axis") && node.opset() >= 4) node.Invalid("axis is required");
  const std::int64_t axis = node.Int("axis", 1);  // before opset 4: optional, 1 by default
  if (node.NumInputs() == 0) node.Invalid("needs at least one input");
  if (node.AllInputsConstant()) {
    std::vector<const ConstantTensor*> inputs;
    for (std::size_t i = 0; i < node.NumInputs(); ++i) inputs.push_back(node.ConstantInput(i));
    node.SetOutput(0, folding::Concat(inputs, axis, node.max_bytes()));
    return;
  }
  folding::NormalizeAxis(axis, node.InputRank(0));
  ConcatDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(axis);
  std::vector<OutputSlot> inputs;
  for (std::size_t i = 0; i < node.NumInputs(); ++i) inputs.push_back(node.Slot(i));
  node.SetOutput(0, node.Add(descriptor, inputs));
}

// Split: sizes from input 1 (opset 13+), the `split` attribute (before), or equal parts.
void ConvertSplit(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  const std::int64_t axis = node.Int("axis", 0);
  const std::size_t a = folding::NormalizeAxis(axis, x.size());
  Dims sizes = node.Ints("split", {});
  if (node.HasInput(1)) sizes = node.RequireInts(1, "split");
  const auto n = static_cast<std::int64_t>(node.NumOutputs());
  if (n == 0) node.Invalid("has no outputs");
  if (sizes.empty() && node.HasAttribute("num_outputs")) {  // opset 18+: the last part may be smaller
    if (node.Int("num_outputs", 0) != n) {
      node.Invalid("num_outputs " + std::to_string(node.Int("num_outputs", 0)) + " for " + std::to_string(n) + " outputs");
    }
    const std::int64_t part = (x[a] + n - 1) / n;
    for (std::int64_t i = 0; i < n; ++i) sizes.push_back(std::max<std::int64_t>(0, std::min(part, x[a] - i * part)));
  }
  if (sizes.empty()) {
    if (x[a] % n != 0) node.Invalid("axis " + std::to_string(axis) + " of length " + std::to_string(x[a]) + " does not split into " + std::to_string(n) + " equal parts");
    sizes.assign(static_cast<std::size_t>(n), x[a] / n);
  }
  if (static_cast<std::int64_t>(sizes.size()) != n) {
    node.Invalid(std::to_string(sizes.size()) + " split sizes for " + std::to_string(n) + " outputs");
  }
  if (const ConstantTensor* constant = node.ConstantInput(0)) {
    auto parts = folding::Split(*constant, axis, sizes);
    for (std::size_t i = 0; i < parts.size(); ++i) node.SetOutput(i, std::move(parts[i]));
    return;
  }
  SplitDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(a);
  descriptor.sizes = sizes;
  const LayerId layer = node.AddLayer(descriptor, {node.Slot(0)}, static_cast<std::uint32_t>(n));
  for (std::size_t i = 0; i < sizes.size(); ++i) node.SetOutput(i, OutputSlot{layer, static_cast<std::uint32_t>(i)});
}

// Slice: starts, ends, axes and steps from inputs 1-4 (opset 10+), or from attributes (before,
// without steps).
void ConvertSlice(NodeContext& node) {
  const bool inputs_form = node.opset() >= 10;
  if (inputs_form ? !node.HasInput(1) || !node.HasInput(2) : !node.HasAttribute("starts") || !node.HasAttribute("ends")) {
    node.Invalid(std::string(inputs_form ? "inputs" : "attributes") + " starts and ends are required");
  }
  const Dims starts = inputs_form ? node.RequireInts(1, "starts") : node.Ints("starts", {});
  const Dims ends = inputs_form ? node.RequireInts(2, "ends") : node.Ints("ends", {});
  Dims axes = inputs_form ? (node.HasInput(3) ? node.RequireInts(3, "axes") : Dims{}) : node.Ints("axes", {});
  const Dims steps = node.HasInput(4) ? node.RequireInts(4, "steps") : Dims{};
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    node.SetOutput(0, folding::Slice(*x, starts, ends, axes, steps));
    return;
  }
  SliceDescriptor descriptor;
  descriptor.starts = starts;
  descriptor.ends = ends;
  for (const auto axis : axes) descriptor.axes.push_back(static_cast<std::int32_t>(folding::NormalizeAxis(axis, node.InputRank(0))));
  descriptor.steps = steps;
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

// GatherElements: a layer (indices are usually run-time data: NLL's targets, top-k picks).
void ConvertGatherElements(NodeContext& node) {
  if (node.InputRank(0) != node.InputRank(1)) {
    node.Invalid("indices " + ToString(node.InputInfo(1).shape) + " must have the rank of data " +
                 ToString(node.InputInfo(0).shape));
  }
  GatherElementsDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(folding::NormalizeAxis(node.Int("axis", 0), node.InputRank(0)));
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0), node.Slot(1)}));
}

// Trilu: `upper` (default 1) and k from the optional input 1 (one int64: into the descriptor
// when constant, else the layer's second input).
void ConvertTrilu(NodeContext& node) {
  TriluDescriptor descriptor;
  descriptor.upper = node.Int("upper", 1) != 0;
  std::vector<OutputSlot> inputs{node.Slot(0)};
  if (node.HasInput(1)) {
    if (node.InputInfo(1).type != DataType::kInt64 || node.InputInfo(1).shape.NumElements() != 1) {
      node.Invalid(std::string("k must be one int64 value, is ") + ToString(node.InputInfo(1).type) + " " +
                   ToString(node.InputInfo(1).shape));
    }
    if (node.ConstantInput(1)) {
      descriptor.k = node.ConstantInput(1)->ToInt64()[0];
    } else {
      inputs.push_back(node.Slot(1));
    }
  }
  node.SetOutput(0, node.Add(descriptor, inputs));
}

// TopK: k from the constant input 1 (opset 10+) or the attribute (before); sorted=0 leaves the
// order free, so the sorted order serves it too.
void ConvertTopK(NodeContext& node) {
  TopKDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(folding::NormalizeAxis(node.Int("axis", -1), node.InputRank(0)));
  descriptor.largest = node.Int("largest", 1) != 0;
  if (node.opset() >= 10) {
    const std::vector<std::int64_t> k = node.RequireInts(1, "K");
    if (k.size() != 1) node.Invalid("K must hold one value, holds " + std::to_string(k.size()));
    descriptor.k = k[0];
  } else {
    descriptor.k = node.Int("k", -1);
  }
  const LayerId layer = node.AddLayer(descriptor, {node.Slot(0)}, 2);
  node.SetOutput(0, OutputSlot{layer, 0});
  node.SetOutput(1, OutputSlot{layer, 1});
}

// CumSum: the axis (input 1) into the descriptor when constant, else the layer's second input.
void ConvertCumSum(NodeContext& node) {
  if (node.InputInfo(1).shape.NumElements() != 1) node.Invalid("axis must hold one value, is " + ToString(node.InputInfo(1).shape));
  CumSumDescriptor descriptor;
  descriptor.exclusive = node.Int("exclusive", 0) != 0;
  descriptor.reverse = node.Int("reverse", 0) != 0;
  std::vector<OutputSlot> inputs{node.Slot(0)};
  if (const ConstantTensor* axis = node.ConstantInput(1)) {
    descriptor.axis = static_cast<std::int32_t>(folding::NormalizeAxis(axis->ToInt64()[0], node.InputRank(0)));
  } else {
    inputs.push_back(node.Slot(1));
  }
  node.SetOutput(0, node.Add(descriptor, inputs));
}

// The `reduction` attribute of ScatterElements and ScatterND: none, add, mul (16), max, min (18).
ScatterReduction ReductionOf(const NodeContext& node) {
  const std::string reduction = node.String("reduction", "none");
  if (reduction == "none") return ScatterReduction::kNone;
  if (reduction == "add") return ScatterReduction::kAdd;
  if (reduction == "mul") return ScatterReduction::kMul;
  if (reduction == "max") return ScatterReduction::kMax;
  if (reduction == "min") return ScatterReduction::kMin;
  node.Invalid("reduction '" + reduction + "' is not one of none, add, mul, max and min");
  return ScatterReduction::kNone;  // not reached: Invalid throws
}

// ScatterElements (and Scatter, its name before opset 11).
void ConvertScatterElements(NodeContext& node) {
  if (node.InputRank(0) != node.InputRank(1)) {
    node.Invalid("indices " + ToString(node.InputInfo(1).shape) + " must have the rank of data " +
                 ToString(node.InputInfo(0).shape));
  }
  ScatterElementsDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(folding::NormalizeAxis(node.Int("axis", 0), node.InputRank(0)));
  descriptor.reduction = ReductionOf(node);
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0), node.Slot(1), node.Slot(2)}));
}

void ConvertGatherNd(NodeContext& node) {
  GatherNdDescriptor descriptor;
  descriptor.batch_dims = static_cast<std::int32_t>(node.Int("batch_dims", 0));
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0), node.Slot(1)}));
}

void ConvertGather(NodeContext& node) {
  const std::int64_t axis = node.Int("axis", 0);
  const DataType index_type = node.InputInfo(1).type;
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64) {
    node.Invalid(std::string("indices must be int32 or int64, are ") + ToString(index_type));
  }
  if (node.AllInputsConstant()) {
    node.SetOutput(0, folding::Gather(*node.ConstantInput(0), *node.ConstantInput(1), axis, node.max_bytes()));
    return;
  }
  const std::size_t normalized = folding::NormalizeAxis(axis, node.InputRank(0));
  const ConstantTensor* indices = node.ConstantInput(1);
  if (indices && indices->NumElements() == 1 && indices->shape().Rank() <= 1) {
    // One constant index (x[:, 0], a class token): a Slice of that position, then the axis
    // dropped for a scalar index. Every backend with Slice runs it, without a gather kernel.
    const std::int64_t size = node.InputDims(0)[normalized];
    std::int64_t index = indices->ToInt64()[0];
    if (index < -size || index >= size) {
      node.Invalid("index " + std::to_string(index) + " is out of range for axis " + std::to_string(axis) + " of size " +
                   std::to_string(size));
    }
    if (index < 0) index += size;
    SliceDescriptor slice;
    slice.starts = {index};
    slice.ends = {index + 1};
    slice.axes = {static_cast<std::int32_t>(normalized)};
    const OutputSlot sliced = node.Add(slice, {node.Slot(0)}, indices->shape().Rank() == 0 ? "slice" : "");
    if (indices->shape().Rank() == 1) {
      node.SetOutput(0, sliced);
      return;
    }
    Dims dropped = node.InputDims(0);
    dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(normalized));
    ReshapeDescriptor reshape;
    reshape.shape = dropped;
    node.SetOutput(0, node.Add(reshape, {sliced}));
    return;
  }
  GatherDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(axis);
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0), node.Slot(1)}));
}

void ConvertPad(NodeContext& node) {
  PadDescriptor descriptor;
  const std::string mode = node.String("mode", "constant");
  if (mode == "constant") {
    descriptor.mode = PadMode::kConstant;
  } else if (mode == "reflect") {
    descriptor.mode = PadMode::kReflect;
  } else if (mode == "edge") {
    descriptor.mode = PadMode::kEdge;
  } else {
    node.Unsupported("mode '" + mode + "' (op set v2 pads constant, reflect or edge)");
  }
  const std::size_t rank = node.InputRank(0);
  if (node.opset() >= 11 ? !node.HasInput(1) : !node.HasAttribute("pads")) {
    node.Invalid(node.opset() >= 11 ? "input pads is required" : "attribute pads is required");
  }
  Dims pads = node.opset() >= 11 ? node.RequireInts(1, "pads") : node.Ints("pads", {});  // attributes before 11
  if (node.HasInput(3)) {  // axes (opset 18 form): pads for those axes only
    const Dims axes = node.RequireInts(3, "axes");
    if (pads.size() != 2 * axes.size()) node.Invalid("pads " + Str(pads) + " must have 2 values per axis of " + Str(axes));
    Dims full(2 * rank, 0);
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const std::size_t a = folding::NormalizeAxis(axes[i], rank);
      full[a] = pads[i];
      full[a + rank] = pads[i + axes.size()];
    }
    pads = full;
  }
  if (pads.size() != 2 * rank) node.Invalid("pads " + Str(pads) + " must have " + std::to_string(2 * rank) + " values");
  if (node.HasInput(2)) {
    const ConstantTensor& value = node.RequireConstant(2, "constant_value");
    if (value.NumElements() != 1) node.Invalid("constant_value must be a scalar");
    descriptor.value = static_cast<float>(value.AsDoubles()[0]);
  } else {
    descriptor.value = node.Float("value", 0.0f);
  }
  if (std::all_of(pads.begin(), pads.end(), [](std::int64_t p) { return p == 0; })) {
    node.SetOutputAlias(0, 0);
    return;
  }
  descriptor.pads = pads;
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

void CastTo(NodeContext& node, int onnx_type) {
  DataType to;
  if (!DataTypeFromOnnx(onnx_type, to)) node.Unsupported("Cast to " + OnnxTypeName(onnx_type));
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    node.SetOutput(0, folding::Cast(*x, to));
    return;
  }
  const DataType from = node.InputInfo(0).type;
  if (from == to) {
    node.SetOutputAlias(0, 0);
    return;
  }
  CastDescriptor descriptor;
  descriptor.to = to;
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

void ConvertCast(NodeContext& node) {
  if (!node.HasAttribute("to")) node.Invalid("attribute 'to' is required");
  CastTo(node, static_cast<int>(node.Int("to", 0)));
}

void ConvertCastLike(NodeContext& node) { CastTo(node, OnnxTypeOf(node.InputInfo(1).type)); }

void ConvertIdentity(NodeContext& node) { node.SetOutputAlias(0, 0); }

// Dropout's mask where it drops nothing: true for every element of x (ONNX's reference gives
// ones whenever training_mode is false or ratio 0). A folded constant, or, past the fold
// limit, Cast(x, bool) Or true (a layer pair, so the model holds no large constant).
void SetAllTrueMask(NodeContext& node) {
  namespace c = composition;
  const TensorShape shape(node.InputDims(0));
  if (node.FoldsInto({shape, DataType::kBool})) {
    const std::vector<std::int64_t> ones(static_cast<std::size_t>(shape.NumElements()), 1);
    node.SetOutput(1, ConstantTensor::FromInt64(shape, ones, DataType::kBool));
    return;
  }
  c::Term as_bool = c::Cast(node, c::Input(node, 0), DataType::kBool, "mask_cast");
  c::SetOutput(node, 1, c::Binary(node, BinaryOperation::kOr, std::move(as_bool),
                                  c::IntegerScalar(1, DataType::kBool), "mask"));
}

// Dropout is the identity at inference, and in training mode with ratio 0 too (exporters write
// that for F.dropout(x, p=0.0) called without training=False, as torchvision's swin does); its
// mask output is then all true.
void ConvertDropout(NodeContext& node) {
  if (node.HasInput(2)) {
    const ConstantTensor& training = node.RequireConstant(2, "training_mode");
    const bool ratio_zero = node.HasInput(1) && node.RequireConstant(1, "ratio").AsDoubles() == std::vector<double>{0.0};
    if (training.NumElements() == 1 && training.ToInt64()[0] != 0 && !ratio_zero) {
      node.Unsupported("training_mode true with a ratio other than 0 (op set v2 is inference only)");
    }
  }
  node.SetOutputAlias(0, 0);
  if (node.HasOutput(1)) SetAllTrueMask(node);
}

// Expand: numpy broadcasting of input 0 to the shape in input 1. At run time, a Reshape to the
// output's rank, then one Concat of copies per broadcast axis.
void ConvertExpand(NodeContext& node) {
  const Dims shape = node.RequireInts(1, "shape");
  const Dims& x = node.InputDims(0);
  const Dims out = folding::BroadcastShapes(x, shape);
  const ConstantTensor* constant = node.ConstantInput(0);
  if (constant && node.FoldsInto({TensorShape(out), constant->type()})) {
    node.SetOutput(0, folding::Expand(*constant, shape, node.max_bytes()));
    return;
  }
  if (out == x) {
    node.SetOutputAlias(0, 0);
    return;
  }
  node.SetOutput(0, ExpandAtRunTime(node, node.Slot(0), x, out));
}

void ConvertTile(NodeContext& node) {
  const Dims repeats = node.RequireInts(1, "repeats");
  const Dims& x = node.InputDims(0);
  if (repeats.size() != x.size()) node.Invalid("repeats " + Str(repeats) + " must have one value per axis of " + Str(x));
  for (const auto r : repeats) {
    if (r < 1) node.Unsupported("repeats " + Str(repeats) + " (a repeat below 1 makes an empty tensor)");
  }
  Dims out(x.size());
  for (std::size_t a = 0; a < x.size(); ++a) {
    out[a] = CheckedMulDims(x[a], repeats[a], "Tile of " + Str(x) + " by repeats " + Str(repeats) + ", axis " + std::to_string(a));
  }
  const ConstantTensor* constant = node.ConstantInput(0);
  if (constant && node.FoldsInto({TensorShape(out), constant->type()})) {
    node.SetOutput(0, folding::Tile(*constant, repeats, node.max_bytes()));
    return;
  }
  if (out == x) {
    node.SetOutputAlias(0, 0);
    return;
  }
  OutputSlot result = node.Slot(0);
  for (std::size_t a = 0; a < x.size(); ++a) {
    if (repeats[a] > 1) result = Repeat(node, result, static_cast<std::int32_t>(a), repeats[a], "axis" + std::to_string(a));
  }
  node.SetOutput(0, result);
}


// Shape: the input's static shape (every tensor's shape is known at import), as a constant.
void ConvertShape(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  const auto rank = static_cast<std::int64_t>(x.size());
  auto clamp = [&](std::int64_t v) { return std::min(std::max(v < 0 ? v + rank : v, std::int64_t{0}), rank); };
  const std::int64_t start = clamp(node.Int("start", 0));
  const std::int64_t end = clamp(node.Int("end", rank));
  const Dims dims(x.begin() + start, x.begin() + std::max(start, end));
  node.SetOutput(0, ConstantTensor::FromInt64(TensorShape{static_cast<std::int64_t>(dims.size())}, dims));
}

void ConvertSize(NodeContext& node) {
  node.SetOutput(0, ConstantTensor::FromInt64(TensorShape{}, {node.InputInfo(0).shape.NumElements()}));
}

void ConvertConstant(NodeContext& node) {
  if (const ::onnx::TensorProto* tensor = node.Tensor("value")) {
    try {
      node.SetOutput(0, node.ReadTensor(*tensor));
    } catch (const Exception& error) {
      if (error.code() == ErrorCode::kUnsupported) node.Unsupported(std::string("value: ") + error.what());
      if (error.code() == ErrorCode::kNotFound) throw Exception(error.code(), std::string("value: ") + error.what());
      node.Invalid(std::string("value: ") + error.what());
    }
  } else if (node.HasAttribute("value_float")) {
    node.SetOutput(0, ConstantTensor::FromDouble(TensorShape{}, {node.Float("value_float", 0)}, DataType::kFloat32));
  } else if (node.HasAttribute("value_int")) {
    node.SetOutput(0, ConstantTensor::FromInt64(TensorShape{}, {node.Int("value_int", 0)}));
  } else if (node.HasAttribute("value_ints")) {
    const Dims values = node.Ints("value_ints");
    node.SetOutput(0, ConstantTensor::FromInt64(TensorShape{static_cast<std::int64_t>(values.size())}, values));
  } else if (node.HasAttribute("value_floats")) {
    const ::onnx::AttributeProto* attribute = nullptr;
    for (const auto& a : node.node().attribute()) {
      if (a.name() == "value_floats") attribute = &a;
    }
    if (attribute->type() != ::onnx::AttributeProto::FLOATS) node.Invalid("attribute 'value_floats' must be FLOATS");
    const std::vector<double> values(attribute->floats().begin(), attribute->floats().end());
    node.SetOutput(0, ConstantTensor::FromDouble(TensorShape{static_cast<std::int64_t>(values.size())}, values,
                                                 DataType::kFloat32));
  } else if (node.HasAttribute("sparse_value") || node.HasAttribute("value_string") ||
             node.HasAttribute("value_strings")) {
    node.Unsupported("sparse and string constants");
  } else {
    node.Invalid("has no value attribute");
  }
}

// ScatterND whose index tuples have one entry (indices [q..., 1]: each replaces or reduces into
// a slice along axis 0) as one ScatterElements along axis 0: updates reshaped to [Q, d1, ...]
// (Q the number of tuples) and each index broadcast over its slice (reshaped to [Q, 1, ...],
// expanded to updates' shape). Longer tuples address elements across several axes, which one
// flat element index could only do without the per-axis range check; they stay refused.
void AddScatterNDAlongAxis0(NodeContext& node, ScatterReduction reduction) {
  namespace c = composition;
  const Dims& data = node.InputDims(0);
  const Dims& indices = node.InputDims(1);
  if (indices.empty() || data.empty()) {
    node.Invalid("data " + Str(data) + " and indices " + Str(indices) + " must have rank 1 or more");
  }
  if (indices.back() != 1) {
    node.Unsupported("index tuples of " + std::to_string(indices.back()) + " entries (indices " + Str(indices) +
                     "): only tuples of 1, which address slices along axis 0, become ScatterElements");
  }
  const std::int64_t tuples = TensorShape(Dims(indices.begin(), indices.end() - 1)).NumElements();
  Dims slices{tuples};
  slices.insert(slices.end(), data.begin() + 1, data.end());
  const Dims expected = [&] {
    Dims d(indices.begin(), indices.end() - 1);
    d.insert(d.end(), data.begin() + 1, data.end());
    return d;
  }();
  if (node.InputDims(2) != expected) {
    node.Invalid("updates " + Str(node.InputDims(2)) + " must be " + Str(expected) + " for data " + Str(data) +
                 " and indices " + Str(indices));
  }
  Dims column(data.size(), 1);
  column[0] = tuples;
  c::Term index = c::Reshape(node, c::Input(node, 1), column, "indices");
  if (index.constant && node.FoldsInto({TensorShape(slices), DataType::kInt64})) {
    index = c::Known(folding::Expand(*index.constant, slices, node.max_bytes()));
  } else if (column != slices) {
    index = {std::nullopt, ExpandAtRunTime(node, c::SlotOf(node, index, "indices"), column, slices), std::nullopt};
  }
  c::Term updates = c::Reshape(node, c::Input(node, 2), slices, "updates");
  c::Term x = c::Input(node, 0);
  ScatterElementsDescriptor descriptor;
  descriptor.axis = 0;
  descriptor.reduction = reduction;
  c::SetOutput(node, 0, c::Layer(node, descriptor, {&x, &index, &updates}, ""));
}

// ScatterND: folded when its three inputs are constants and it replaces (exporters make
// attention masks so: a tensor of zeros from a shape, then slice assignments); else
// AddScatterNDAlongAxis0.
void ConvertScatterND(NodeContext& node) {
  const ScatterReduction reduction = ReductionOf(node);
  const DataType index_type = node.InputInfo(1).type;
  if (index_type != DataType::kInt64) node.Invalid(std::string("indices must be int64, are ") + ToString(index_type));
  if (node.AllInputsConstant() && reduction == ScatterReduction::kNone) {
    node.SetOutput(0, folding::ScatterND(*node.ConstantInput(0), *node.ConstantInput(1), *node.ConstantInput(2)));
    return;
  }
  AddScatterNDAlongAxis0(node, reduction);
}

void ConvertConstantOfShape(NodeContext& node) {
  const Dims shape = node.RequireInts(0, "shape");
  ConstantTensor value = ConstantTensor::FromDouble(TensorShape{1}, {0.0}, DataType::kFloat32);
  if (const ::onnx::TensorProto* tensor = node.Tensor("value")) {
    try {
      value = node.ReadTensor(*tensor);
    } catch (const Exception& error) {
      if (error.code() == ErrorCode::kNotFound) throw Exception(error.code(), std::string("value: ") + error.what());
      node.Invalid(std::string("value: ") + error.what());
    }
  }
  for (const auto d : shape) {
    if (d < 0) node.Invalid("shape " + Str(shape) + " has a negative dimension");
  }
  if (value.NumElements() != 1) node.Invalid("value must have one element, has shape " + ToString(value.shape()));
  if (node.FoldsInto({TensorShape(shape), value.type()})) {
    node.SetOutput(0, folding::ConstantOfShape(shape, value, node.max_bytes()));
    return;
  }
  // Too large to fold: the value broadcast at run time.
  const Dims ones(shape.size(), 1);
  node.SetOutput(0, ExpandAtRunTime(node, node.AddConstant(value.Reshaped(TensorShape(ones)), "value"), ones, shape));
}

void ConvertRange(NodeContext& node) {
  const ConstantTensor& start = node.RequireConstant(0, "start");
  const ConstantTensor& limit = node.RequireConstant(1, "limit");
  const ConstantTensor& delta = node.RequireConstant(2, "delta");
  node.SetOutput(0, folding::Range(start, limit, delta, node.max_bytes()));
}

}  // namespace

void AddTensorConverters(ConverterTable& table) {
  table["Reshape"] = {ConvertReshape, 1, 2, 1};
  table["Flatten"] = {ConvertFlatten, 1, 1, 1};
  table["Squeeze"] = {ConvertSqueeze, 1, 2, 1};
  table["Unsqueeze"] = {ConvertUnsqueeze, 1, 2, 1};
  table["Transpose"] = {ConvertTranspose, 1, 1, 1};
  table["Concat"] = {ConvertConcat, 1, kVariadic, 1};
  table["Split"] = {ConvertSplit, 1, 2, kVariadic};
  table["Slice"] = {ConvertSlice, 1, 5, 1};
  table["Gather"] = {ConvertGather, 2, 2, 1};
  table["GatherElements"] = {ConvertGatherElements, 2, 2, 1};
  table["Trilu"] = {ConvertTrilu, 1, 2, 1};
  table["TopK"] = {ConvertTopK, 1, 2, 2};
  table["CumSum"] = {ConvertCumSum, 2, 2, 1};
  table["ScatterElements"] = {ConvertScatterElements, 3, 3, 1};
  table["Scatter"] = {ConvertScatterElements, 3, 3, 1, 9};
  table["GatherND"] = {ConvertGatherNd, 2, 2, 1};
  table["Pad"] = {ConvertPad, 1, 4, 1, 2};    // Pad-1 named its pads `paddings`
  table["Cast"] = {ConvertCast, 1, 1, 1, 6};  // `to` a type name before 6
  table["CastLike"] = {ConvertCastLike, 2, 2, 1};
  table["Identity"] = {ConvertIdentity, 1, 1, 1};
  table["Dropout"] = {ConvertDropout, 1, 3, 2};
  table["Expand"] = {ConvertExpand, 2, 2, 1};
  table["Tile"] = {ConvertTile, 2, 2, 1, 6};  // `tiles` and `axis` inputs before 6
  table["Shape"] = {ConvertShape, 1, 1, 1};
  table["Size"] = {ConvertSize, 1, 1, 1};
  table["Constant"] = {ConvertConstant, 0, 0, 1};
  table["ConstantOfShape"] = {ConvertConstantOfShape, 1, 1, 1};
  table["ScatterND"] = {ConvertScatterND, 3, 3, 1};
  table["Range"] = {ConvertRange, 3, 3, 1};
}

}  // namespace backplane::onnx
