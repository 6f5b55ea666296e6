// ONNX ops whose output extent depends on the input values: NonZero, Compress, Unique and
// NonMaxSuppression. With constant inputs they fold at import to ONNX's exact shapes
// (constant_folding); otherwise each becomes one layer of an upper-bound output shape plus a count
// output (the C header's BP_LAYER_NON_ZERO .. comments), its bound-shaped outputs defined with
// their valid extent (NodeContext::SetBoundedOutput): the importer lets such a tensor reach graph
// outputs only, and onnx::Session trims it to ONNX's shape (ImportedModel::trimmed_outputs).
#include "constant_folding.hpp"
#include "converters.hpp"

#include <optional>

namespace backplane::onnx {

namespace {

// The `axis` attribute when the node has one (nullopt: the op reads its input flattened),
// checked against input 0's rank.
std::optional<std::int64_t> OptionalAxis(const NodeContext& node) {
  if (!node.HasAttribute("axis")) return std::nullopt;
  const std::int64_t axis = node.Int("axis", 0);
  folding::NormalizeAxis(axis, node.InputRank(0));  // throws naming the axis and the rank
  return axis;
}

void ConvertNonZero(NodeContext& node) {
  if (node.InputRank(0) == 0) throw NodeUnsupported("a scalar input is not supported (rank 1 or more)");
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    node.SetOutput(0, folding::NonZero(*x));
    return;
  }
  const LayerId layer = node.AddLayer(NonZeroDescriptor{}, {node.Slot(0)}, 2);
  node.SetBoundedOutput(0, {layer, 0}, {layer, 1}, 1);
}

void ConvertCompress(NodeContext& node) {
  const std::optional<std::int64_t> axis = OptionalAxis(node);
  if (node.AllInputsConstant()) {
    node.SetOutput(0, folding::Compress(*node.ConstantInput(0), *node.ConstantInput(1), axis));
    return;
  }
  CompressDescriptor descriptor;
  descriptor.has_axis = axis.has_value();
  descriptor.axis = axis ? static_cast<std::int32_t>(folding::NormalizeAxis(*axis, node.InputRank(0))) : 0;
  const LayerId layer = node.AddLayer(descriptor, {node.Slot(0), node.Slot(1)}, 2);
  node.SetBoundedOutput(0, {layer, 0}, {layer, 1}, static_cast<std::size_t>(descriptor.axis));
}

void ConvertUnique(NodeContext& node) {
  const std::optional<std::int64_t> axis = OptionalAxis(node);
  const bool sorted = node.Int("sorted", 1) != 0;
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    std::vector<ConstantTensor> results = folding::Unique(*x, sorted, axis);
    for (std::size_t i = 0; i < results.size(); ++i) node.SetOutput(i, std::move(results[i]));
    return;
  }
  UniqueDescriptor descriptor;
  descriptor.sorted = sorted;
  descriptor.has_axis = axis.has_value();
  descriptor.axis = axis ? static_cast<std::int32_t>(folding::NormalizeAxis(*axis, node.InputRank(0))) : 0;
  const LayerId layer = node.AddLayer(descriptor, {node.Slot(0)}, 5);
  const OutputSlot count{layer, 4};
  node.SetBoundedOutput(0, {layer, 0}, count, static_cast<std::size_t>(descriptor.axis));
  node.SetBoundedOutput(1, {layer, 1}, count, 0);
  node.SetOutput(2, OutputSlot{layer, 2});  // one entry per slice of x: not bounded
  node.SetBoundedOutput(3, {layer, 3}, count, 0);
}

// The optional inputs up to the last present one: an absent one before it gets ONNX's default
// (max_output_boxes_per_class 0, iou_threshold 0); score_threshold absent means no threshold.
void ConvertNonMaxSuppression(NodeContext& node) {
  NonMaxSuppressionDescriptor descriptor;
  descriptor.center_point_box = node.Int("center_point_box", 0) != 0;
  if (node.Int("center_point_box", 0) != 0 && node.Int("center_point_box", 0) != 1) {
    node.Invalid("center_point_box must be 0 or 1, is " + std::to_string(node.Int("center_point_box", 0)));
  }
  std::size_t last = 1;
  for (std::size_t i = 2; i < node.NumInputs(); ++i) {
    if (node.HasInput(i)) last = i;
  }
  std::vector<OutputSlot> inputs{node.Slot(0), node.Slot(1)};
  for (std::size_t i = 2; i <= last; ++i) {
    if (node.HasInput(i)) {
      inputs.push_back(node.Slot(i));
    } else if (i == 2) {
      inputs.push_back(node.AddConstant(ConstantTensor::FromInt64(TensorShape{1}, {0}), "max_output_boxes_per_class"));
    } else {
      inputs.push_back(node.AddConstant(ConstantTensor::FromDouble(TensorShape{1}, {0.0}), "iou_threshold"));
    }
  }
  const LayerId layer = node.AddLayer(descriptor, inputs, 2);
  node.SetBoundedOutput(0, {layer, 0}, {layer, 1}, 0);
}

}  // namespace

void AddDataDependentConverters(ConverterTable& table) {
  table["NonZero"] = {ConvertNonZero, 1, 1, 1, 9};
  table["Compress"] = {ConvertCompress, 2, 2, 1, 9};
  table["Unique"] = {ConvertUnique, 1, 1, 4, 11};
  table["NonMaxSuppression"] = {ConvertNonMaxSuppression, 2, 5, 1, 10};
}

}  // namespace backplane::onnx
