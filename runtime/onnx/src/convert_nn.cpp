// Convolution, Gemm/MatMul, pooling, normalizations, Softmax and reductions.
#include "composition.hpp"
#include "constant_folding.hpp"
#include "converters.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <array>
#include <limits>
#include <utility>
#include <vector>

namespace backplane::onnx {

namespace {

using Dims = std::vector<std::int64_t>;

std::string Join(const Dims& values) { return ToString(TensorShape(values)); }

std::uint32_t ToU32(NodeContext& node, std::int64_t value, const char* what) {
  if (value < 0 || value > std::numeric_limits<std::uint32_t>::max()) {
    node.Invalid(std::string(what) + " value " + std::to_string(value) + " is out of range");
  }
  return static_cast<std::uint32_t>(value);
}

// The spatial rank of a convolution or pooling node: its input's rank - 2, 1 to 3. The one rule
// of which layer type runs it: 2 is Convolution2d / Pooling2d, 1 the same on an image of height 1
// (see Pair and AsImage), 3 ConvolutionNd / PoolingNd (op_attributes.def says why 2-D keeps its
// own types).
std::size_t SpatialRank(NodeContext& node) {
  const std::size_t rank = node.InputRank(0);
  if (rank < 3 || rank > 5) {
    node.Unsupported("the input has shape " + ToString(node.InputInfo(0).shape) + "; " + node.node().op_type() +
                     " runs over 1 to 3 spatial dimensions ([N, C, L], [N, C, H, W] or [N, C, D, H, W])");
  }
  return rank - 2;
}

// A 2-element attribute (strides, dilations, kernel_shape) with all values positive; for a 1-D
// window its one value, with 1 for the height. `fallback` has the 2-D form.
std::array<std::uint32_t, 2> Pair(NodeContext& node, const char* name, Dims fallback) {
  const bool one_d = node.InputRank(0) == 3;
  if (one_d && !fallback.empty()) fallback.erase(fallback.begin());
  Dims values = node.Ints(name, fallback);
  if (one_d && values.size() == 1) values.insert(values.begin(), 1);
  if (values.size() != 2) {
    node.Invalid(std::string(name) + " " + Join(node.Ints(name, fallback)) + " does not fit a " +
                 std::to_string(node.InputRank(0) - 2) + "-D window");
  }
  for (const auto v : values) {
    if (v <= 0) node.Invalid(std::string(name) + " " + Join(values) + " must be positive");
  }
  return {ToU32(node, values[0], name), ToU32(node, values[1], name)};
}

// Pads (the begins, then the ends: one of each per spatial axis) from `pads` or `auto_pad`,
// for an input of spatial extents `in` and a window of `kernel` taps `dilations` apart moved by
// `strides` (one entry per axis each).
std::vector<std::uint32_t> AxisPads(NodeContext& node, const Dims& in, const std::vector<std::uint32_t>& kernel,
                                    const std::vector<std::uint32_t>& strides,
                                    const std::vector<std::uint32_t>& dilations) {
  const std::size_t rank = in.size();
  const std::string auto_pad = node.String("auto_pad", "NOTSET");
  std::vector<std::uint32_t> pads(2 * rank, 0);
  if (auto_pad == "NOTSET") {
    const Dims values = node.Ints("pads", Dims(2 * rank, 0));
    if (values.size() != 2 * rank) node.Invalid("pads " + Join(values) + " must have 2 values per spatial axis");
    for (std::size_t i = 0; i < 2 * rank; ++i) pads[i] = ToU32(node, values[i], "pads");
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (std::size_t axis = 0; axis < rank; ++axis) {
      const std::int64_t out = (in[axis] + strides[axis] - 1) / strides[axis];
      const std::int64_t span = static_cast<std::int64_t>(dilations[axis]) * (kernel[axis] - 1) + 1;
      const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * strides[axis] + span - in[axis]);
      const std::int64_t small = total / 2;
      const std::int64_t begin = auto_pad == "SAME_UPPER" ? small : total - small;
      pads[axis] = ToU32(node, begin, "pads");
      pads[axis + rank] = ToU32(node, total - begin, "pads");
    }
  } else if (auto_pad != "VALID") {
    node.Invalid("auto_pad '" + auto_pad + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
  }
  return pads;
}

// AxisPads for a 2-D window (top, left, bottom, right), of `in` (H, W); a 1-D node's one axis
// is the width, its height 1 unpadded.
std::array<std::uint32_t, 4> WindowPads(NodeContext& node, const Dims& in, const std::array<std::uint32_t, 2>& kernel,
                                        const std::array<std::uint32_t, 2>& strides,
                                        const std::array<std::uint32_t, 2>& dilations) {
  if (node.InputRank(0) == 3) {
    const auto pads = AxisPads(node, {in[1]}, {kernel[1]}, {strides[1]}, {dilations[1]});
    return {0, pads[0], 0, pads[1]};
  }
  const auto pads = AxisPads(node, in, {kernel[0], kernel[1]}, {strides[0], strides[1]}, {dilations[0], dilations[1]});
  return {pads[0], pads[1], pads[2], pads[3]};
}

// Input `input` ([N, C, L] or [M, C/g, k]) as an image of height 1, [N, C, 1, L]: a constant
// folded (weights stay constants for the backends' packing), else a Reshape layer.
OutputSlot AsImage(NodeContext& node, std::size_t input, const char* suffix) {
  if (node.InputRank(0) == 4) return node.Slot(input);
  Dims dims = node.InputDims(input);
  dims.insert(dims.begin() + 2, 1);
  composition::Term term = composition::Reshape(node, composition::Input(node, input), dims, suffix);
  return composition::SlotOf(node, term, suffix);
}

// Output 0 from the 2-D layer `image`: for a 1-D node, reshaped back to [N, C', L'].
void SetImageOutput(NodeContext& node, OutputSlot image) {
  if (node.InputRank(0) == 4) {
    node.SetOutput(0, image);
    return;
  }
  Dims dims = node.Info(image).shape.Dims();
  dims.erase(dims.begin() + 2);
  ReshapeDescriptor reshape;
  reshape.shape = dims;
  node.SetOutput(0, node.Add(reshape, {image}));
}

void ConvertConvNd(NodeContext& node);

// Conv over 1 or 2 spatial dimensions (a 1-D one as a 2-D one of height 1); 3 as ConvolutionNd.
void ConvertConv(NodeContext& node) {
  const std::size_t spatial = SpatialRank(node);
  if (spatial == 3) return ConvertConvNd(node);
  Dims w = node.InputDims(1);
  if (w.size() != spatial + 2) node.Invalid("the weights have shape " + Join(w) + ", expected rank " + std::to_string(spatial + 2));
  if (spatial == 1) w.insert(w.begin() + 2, 1);
  const auto kernel = Pair(node, "kernel_shape", {w[2], w[3]});
  if (kernel[0] != w[2] || kernel[1] != w[3]) {
    node.Invalid("kernel_shape " + Join(node.Ints("kernel_shape")) + " disagrees with the weights " +
                 Join(node.InputDims(1)));
  }
  Convolution2dDescriptor descriptor;
  descriptor.strides = Pair(node, "strides", {1, 1});
  descriptor.dilations = Pair(node, "dilations", {1, 1});
  descriptor.groups = ToU32(node, node.Int("group", 1), "group");
  const Dims& x = node.InputDims(0);
  descriptor.pads = WindowPads(node, {spatial == 1 ? 1 : x[2], x.back()}, kernel, descriptor.strides, descriptor.dilations);
  std::vector<OutputSlot> inputs{AsImage(node, 0, "image"), AsImage(node, 1, "weights")};
  if (node.HasInput(2)) inputs.push_back(node.Slot(2));
  SetImageOutput(node, node.Add(descriptor, inputs, spatial == 1 ? "conv" : ""));
}

// An attribute of one value per spatial axis (`fallback` when absent), each at least `least`.
std::vector<std::uint32_t> PerAxis(NodeContext& node, const char* name, std::size_t rank, std::int64_t fallback,
                                   std::int64_t least) {
  const Dims values = node.Ints(name, Dims(rank, fallback));
  if (values.size() != rank) {
    node.Invalid(std::string(name) + " " + Join(values) + " must have " + std::to_string(rank) +
                 " values, one per spatial axis");
  }
  std::vector<std::uint32_t> out;
  for (const auto v : values) {
    if (v < least) node.Invalid(std::string(name) + " " + Join(values) + " must be at least " + std::to_string(least));
    out.push_back(ToU32(node, v, name));
  }
  return out;
}

// The spatial extents of input 0 ([N, C, D...]).
Dims SpatialExtents(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  return Dims(x.begin() + 2, x.end());
}

// The kernel extents of an N-D convolution's weights (input `weights`, of input 0's rank:
// [M or C, ..., k...]); kernel_shape, when given, must agree with them.
Dims KernelOfWeights(NodeContext& node, std::size_t weights) {
  const Dims& w = node.InputDims(weights);
  const std::size_t rank = node.InputRank(0);
  if (w.size() != rank) node.Invalid("the weights have shape " + Join(w) + ", expected rank " + std::to_string(rank));
  const Dims kernel(w.begin() + 2, w.end());
  if (node.Ints("kernel_shape", kernel) != kernel) {
    node.Invalid("kernel_shape " + Join(node.Ints("kernel_shape", kernel)) + " disagrees with the weights " + Join(w));
  }
  return kernel;
}

// The window of an N-D convolution node over input 0's spatial axes, weights at input `weights`
// (ConvolutionNd's and ConvolutionInteger's descriptors have the same fields).
template <typename Descriptor>
Descriptor ConvolutionWindow(NodeContext& node, std::size_t weights) {
  const std::size_t rank = SpatialRank(node);
  const Dims kernel = KernelOfWeights(node, weights);
  Descriptor descriptor;
  descriptor.strides = PerAxis(node, "strides", rank, 1, 1);
  descriptor.dilations = PerAxis(node, "dilations", rank, 1, 1);
  descriptor.groups = ToU32(node, node.Int("group", 1), "group");
  std::vector<std::uint32_t> taps;
  for (const auto k : kernel) taps.push_back(ToU32(node, k, "kernel_shape"));
  descriptor.pads = AxisPads(node, SpatialExtents(node), taps, descriptor.strides, descriptor.dilations);
  return descriptor;
}

// Conv over 3 spatial axes: ConvolutionNd, weights [M, C/group, k...] (kernel_shape, when
// given, must agree with them), optional bias [M].
void ConvertConvNd(NodeContext& node) {
  const auto descriptor = ConvolutionWindow<ConvolutionNdDescriptor>(node, 1);
  std::vector<OutputSlot> inputs{node.Slot(0), node.Slot(1)};
  if (node.HasInput(2)) inputs.push_back(node.Slot(2));
  node.SetOutput(0, node.Add(descriptor, inputs));
}

}  // namespace

ConvolutionIntegerDescriptor IntegerConvolutionWindow(NodeContext& node, std::size_t weights) {
  return ConvolutionWindow<ConvolutionIntegerDescriptor>(node, weights);
}

namespace {

// ONNX's split of a transposed convolution's total padding: SAME_UPPER puts the odd one at the
// end, anything else at the begin (Python's floor division: a negative total grows the output).
std::pair<std::int64_t, std::int64_t> SplitTransposedPadding(std::int64_t total, bool same_upper) {
  const std::int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
  return same_upper ? std::make_pair(half, total - half) : std::make_pair(total - half, half);
}

// ConvTranspose's pads (begins, then ends) and output_padding with auto_pad and output_shape
// resolved, ONNX's formulas: output_shape (or, for SAME_*, input * stride) sets the total
// padding of each axis, stride * (in - 1) + output_padding + (k - 1) * dilation + 1 - out. A
// negative end becomes more output_padding; a negative begin is refused.
void TransposedPads(NodeContext& node, ConvolutionTransposeDescriptor& d, const Dims& x, const Dims& kernel) {
  const std::size_t rank = kernel.size();
  const std::string auto_pad = node.String("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "SAME_UPPER" && auto_pad != "SAME_LOWER" && auto_pad != "VALID") {
    node.Invalid("auto_pad '" + auto_pad + "' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
  }
  Dims out = node.Ints("output_shape", {});
  if (out.size() == rank + 2) out.erase(out.begin(), out.begin() + 2);  // given with N and M
  if (out.empty() && (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER")) {
    for (std::size_t a = 0; a < rank; ++a) out.push_back(x[2 + a] * d.strides[a]);
  }
  if (out.empty()) {
    const Dims pads = auto_pad == "VALID" ? Dims(2 * rank, 0) : node.Ints("pads", Dims(2 * rank, 0));
    if (pads.size() != 2 * rank) node.Invalid("pads " + Join(pads) + " must have 2 values per spatial axis");
    for (const auto p : pads) d.pads.push_back(ToU32(node, p, "pads"));
    return;
  }
  if (out.size() != rank) node.Invalid("output_shape " + Join(out) + " must have one value per spatial axis");
  d.pads.assign(2 * rank, 0);
  for (std::size_t a = 0; a < rank; ++a) {
    const std::int64_t full = std::int64_t{d.strides[a]} * (x[2 + a] - 1) + d.output_padding[a] +
                              (kernel[a] - 1) * std::int64_t{d.dilations[a]} + 1;
    const auto [begin, end] = SplitTransposedPadding(full - out[a], auto_pad == "SAME_UPPER");
    if (begin < 0) {
      node.Unsupported("output_shape " + Join(out) + " needs a negative leading pad along spatial axis " +
                       std::to_string(a));
    }
    d.pads[a] = ToU32(node, begin, "pads");
    d.pads[rank + a] = ToU32(node, std::max<std::int64_t>(end, 0), "pads");
    if (end < 0) d.output_padding[a] = ToU32(node, d.output_padding[a] - end, "output_padding");
  }
}

// ConvTranspose over 1 to 3 spatial axes: weights [C, M/group, k...] (kernel_shape, when
// given, must agree with them), optional bias [M].
void ConvertConvTranspose(NodeContext& node) {
  const Dims& x = node.InputDims(0);
  if (x.size() < 3 || x.size() > 5) {
    node.Unsupported("the input has shape " + Join(x) + "; ConvTranspose runs over 1 to 3 spatial axes (rank 3 to 5)");
  }
  const std::size_t rank = x.size() - 2;
  const Dims kernel = KernelOfWeights(node, 1);
  ConvolutionTransposeDescriptor descriptor;
  descriptor.strides = PerAxis(node, "strides", rank, 1, 1);
  descriptor.dilations = PerAxis(node, "dilations", rank, 1, 1);
  descriptor.output_padding = PerAxis(node, "output_padding", rank, 0, 0);
  descriptor.groups = ToU32(node, node.Int("group", 1), "group");
  TransposedPads(node, descriptor, x, kernel);
  std::vector<OutputSlot> inputs{node.Slot(0), node.Slot(1)};
  if (node.HasInput(2)) inputs.push_back(node.Slot(2));
  node.SetOutput(0, node.Add(descriptor, inputs));
}

// MaxPool / AveragePool over 3 spatial axes: PoolingNd.
void ConvertPoolNd(NodeContext& node, PoolingType type) {
  const std::size_t rank = SpatialRank(node);
  PoolingNdDescriptor descriptor;
  descriptor.type = type;
  descriptor.kernel = PerAxis(node, "kernel_shape", rank, 1, 1);
  descriptor.strides = PerAxis(node, "strides", rank, 1, 1);
  descriptor.dilations = PerAxis(node, "dilations", rank, 1, 1);
  descriptor.ceil_mode = node.Int("ceil_mode", 0) != 0;
  descriptor.count_include_pad = type == PoolingType::kAverage && node.Int("count_include_pad", 0) != 0;
  descriptor.pads = AxisPads(node, SpatialExtents(node), descriptor.kernel, descriptor.strides, descriptor.dilations);
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
  node.SetRemainingOutputsUnavailable(1, "Indices");
}

void ConvertPool(NodeContext& node, PoolingType type) {
  const std::size_t spatial = SpatialRank(node);
  if (!node.HasAttribute("kernel_shape")) node.Invalid("kernel_shape is required");
  if (spatial == 3) return ConvertPoolNd(node, type);
  Pooling2dDescriptor descriptor;
  descriptor.type = type;
  descriptor.kernel = Pair(node, "kernel_shape", {});
  descriptor.strides = Pair(node, "strides", {1, 1});
  descriptor.dilations = Pair(node, "dilations", {1, 1});
  descriptor.ceil_mode = node.Int("ceil_mode", 0) != 0;
  descriptor.count_include_pad = type == PoolingType::kAverage && node.Int("count_include_pad", 0) != 0;
  const Dims& x = node.InputDims(0);
  descriptor.pads = WindowPads(node, {spatial == 1 ? 1 : x[2], x.back()}, descriptor.kernel, descriptor.strides,
                               descriptor.dilations);
  SetImageOutput(node, node.Add(descriptor, {AsImage(node, 0, "image")}, spatial == 1 ? "pool" : ""));
  node.SetRemainingOutputsUnavailable(1, "Indices");
}

void ConvertMaxPool(NodeContext& node) { ConvertPool(node, PoolingType::kMax); }
void ConvertAveragePool(NodeContext& node) { ConvertPool(node, PoolingType::kAverage); }

void ConvertGlobalPool(NodeContext& node, PoolingType type) {
  const std::size_t spatial = SpatialRank(node);
  if (spatial == 3) {
    PoolingNdDescriptor descriptor;
    descriptor.type = type;
    descriptor.global = true;
    node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
    return;
  }
  Pooling2dDescriptor descriptor;
  descriptor.type = type;
  descriptor.global = true;
  SetImageOutput(node, node.Add(descriptor, {AsImage(node, 0, "image")}, spatial == 1 ? "pool" : ""));
}

void ConvertGlobalAveragePool(NodeContext& node) { ConvertGlobalPool(node, PoolingType::kAverage); }
void ConvertGlobalMaxPool(NodeContext& node) { ConvertGlobalPool(node, PoolingType::kMax); }

// Gemm: Y = alpha * op(A) * op(B) + beta * C.
void ConvertGemm(NodeContext& node) {
  if (node.InputRank(0) != 2 || node.InputRank(1) != 2) {
    node.Invalid("A " + ToString(node.InputInfo(0).shape) + " and B " + ToString(node.InputInfo(1).shape) +
                 " must have rank 2");
  }
  FullyConnectedDescriptor descriptor;
  descriptor.transpose_a = node.Int("transA", 0) != 0;
  descriptor.transpose_b = node.Int("transB", 0) != 0;
  descriptor.alpha = node.Float("alpha", 1.0f);
  descriptor.beta = node.Float("beta", 1.0f);
  std::vector<OutputSlot> inputs{node.Slot(0), node.Slot(1)};
  if (node.HasInput(2) && descriptor.beta != 0.0f) inputs.push_back(node.Slot(2));
  node.SetOutput(0, node.Add(descriptor, inputs));
}

void ConvertMatMul(NodeContext& node) {
  node.SetOutput(0, node.Add(MatMulDescriptor{}, {node.Slot(0), node.Slot(1)}));
}

void ConvertBatchNormalization(NodeContext& node) {
  if (node.Int("training_mode", 0) != 0) node.Unsupported("training_mode=1 (op set v2 is inference only)");
  if (node.opset() < 9 && node.Int("spatial", 1) == 0) node.Unsupported("spatial=0 (statistics per element, opsets 7 and 8)");
  if (node.InputRank(0) < 2) node.Invalid("the input must have rank 2 or more");
  BatchNormalizationDescriptor descriptor;
  descriptor.epsilon = node.Float("epsilon", 1e-5f);
  std::vector<OutputSlot> inputs;
  for (std::size_t i = 0; i < 5; ++i) inputs.push_back(node.Slot(i));
  node.SetOutput(0, node.Add(descriptor, inputs));
  node.SetRemainingOutputsUnavailable(1, "training statistics");
}

void ConvertLayerNormalization(NodeContext& node) {
  LayerNormalizationDescriptor descriptor;
  const std::int64_t axis = node.Int("axis", -1);
  folding::NormalizeAxis(axis, node.InputRank(0));
  descriptor.axis = static_cast<std::int32_t>(axis);
  descriptor.epsilon = node.Float("epsilon", 1e-5f);
  std::vector<OutputSlot> inputs{node.Slot(0), node.Slot(1)};
  if (node.HasInput(2)) inputs.push_back(node.Slot(2));
  node.SetOutput(0, node.Add(descriptor, inputs));
  AddLayerNormalizationStatistics(node, axis, descriptor.epsilon);
}

// Opset 13+: softmax along `axis` (default -1). Before 13: the input is coerced to 2-D at
// `axis` (default 1) and softmax runs over the flattened inner dimensions.
void ConvertSoftmax(NodeContext& node) {
  const std::size_t rank = node.InputRank(0);
  SoftmaxDescriptor descriptor;
  if (node.opset() >= 13) {
    const std::int64_t axis = node.Int("axis", -1);
    folding::NormalizeAxis(axis, rank);
    descriptor.axis = static_cast<std::int32_t>(axis);
    node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
    return;
  }
  std::int64_t axis = node.Int("axis", 1);
  if (rank == 0) node.Invalid("Softmax of a scalar");
  if (axis < -static_cast<std::int64_t>(rank) || axis > static_cast<std::int64_t>(rank) - 1) {
    node.Invalid("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  if (axis < 0) axis += static_cast<std::int64_t>(rank);
  if (axis == static_cast<std::int64_t>(rank) - 1) {  // the same as per-axis softmax
    descriptor.axis = -1;
    node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
    return;
  }
  FlattenDescriptor flatten;
  flatten.axis = static_cast<std::int32_t>(axis);
  const OutputSlot flat = node.Add(flatten, {node.Slot(0)}, "flatten");
  descriptor.axis = 1;
  const OutputSlot soft = node.Add(descriptor, {flat}, "softmax");
  ReshapeDescriptor reshape;
  reshape.shape = node.InputDims(0);
  node.SetOutput(0, node.Add(reshape, {soft}));
}

// LogSoftmax as x - ReduceLogSumExp(x) over the softmax axes (kept, broadcast back): along
// `axis` (default -1) from opset 13, over `axis` (default 1) and every later one before. The
// log-sum-exp takes the largest value out first (backend::reduction), so no exp overflows and
// no log of an underflowed 0 appears, as in ONNX Runtime.
void ConvertLogSoftmax(NodeContext& node) {
  const auto rank = static_cast<std::int64_t>(node.InputRank(0));
  if (rank == 0) node.Invalid("LogSoftmax of a scalar");
  const std::int64_t axis = node.Int("axis", node.opset() >= 13 ? -1 : 1);
  if (axis < -rank || axis > rank - 1) {
    node.Invalid("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  const std::int64_t first = axis < 0 ? axis + rank : axis;
  ReduceDescriptor log_sum_exp;
  log_sum_exp.operation = ReduceOperation::kLogSumExp;
  log_sum_exp.keep_dims = true;
  const std::int64_t last = node.opset() >= 13 ? first : rank - 1;
  for (std::int64_t a = first; a <= last; ++a) log_sum_exp.axes.push_back(static_cast<std::int32_t>(a));
  const OutputSlot normalizer = node.Add(log_sum_exp, {node.Slot(0)}, "log_sum_exp");
  ElementwiseBinaryDescriptor subtract;
  subtract.operation = BinaryOperation::kSub;
  node.SetOutput(0, node.Add(subtract, {node.Slot(0), normalizer}));
}

// ArgMax / ArgMin: the i64 position along `axis` (default 0); keepdims (default 1);
// select_last_index from opset 12 (0 before).
template <ArgOperation kOperation>
void ConvertArgMinMax(NodeContext& node) {
  const std::int64_t axis = node.Int("axis", 0);
  folding::NormalizeAxis(axis, node.InputRank(0));
  ArgMinMaxDescriptor descriptor;
  descriptor.operation = kOperation;
  descriptor.axis = static_cast<std::int32_t>(axis);
  descriptor.keep_dims = node.Int("keepdims", 1) != 0;
  descriptor.select_last_index = node.Int("select_last_index", 0) != 0;
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

// The Reduce ops: axes from the attribute, or from input 1 (ReduceSum from opset 13, the
// others from 18); empty axes reduce everything unless noop_with_empty_axes.
template <ReduceOperation kOperation>
void ConvertReduce(NodeContext& node) {
  Dims axes = node.Ints("axes", {});
  if (node.HasInput(1)) axes = node.RequireInts(1, "axes");
  const bool keep_dims = node.Int("keepdims", 1) != 0;
  if (axes.empty() && node.Int("noop_with_empty_axes", 0) != 0) {
    node.SetOutputAlias(0, 0);
    return;
  }
  const std::size_t rank = node.InputRank(0);
  for (const auto axis : axes) folding::NormalizeAxis(axis, rank);
  if (const ConstantTensor* x = node.ConstantInput(0)) {
    node.SetOutput(0, folding::Reduce(*x, axes, keep_dims, kOperation));
    return;
  }
  ReduceDescriptor descriptor;
  descriptor.operation = kOperation;
  descriptor.keep_dims = keep_dims;
  for (const auto axis : axes) descriptor.axes.push_back(static_cast<std::int32_t>(axis));
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

// LRN across channels: size is required (ONNX gives it no default).
void ConvertLrn(NodeContext& node) {
  if (!node.HasAttribute("size")) node.Invalid("attribute 'size' is required");
  LrnDescriptor descriptor;
  descriptor.size = ToU32(node, node.Int("size", 0), "size");
  descriptor.alpha = node.Float("alpha", 0.0001f);
  descriptor.beta = node.Float("beta", 0.75f);
  descriptor.bias = node.Float("bias", 1.0f);
  node.SetOutput(0, node.Add(descriptor, {node.Slot(0)}));
}

void ConvertDet(NodeContext& node) { node.SetOutput(0, node.Add(DetDescriptor{}, {node.Slot(0)})); }

}  // namespace

void AddNnConverters(ConverterTable& table) {
  table["Conv"] = {ConvertConv, 2, 3, 1};
  table["ConvTranspose"] = {ConvertConvTranspose, 2, 3, 1};
  table["MaxPool"] = {ConvertMaxPool, 1, 1, 2};
  table["AveragePool"] = {ConvertAveragePool, 1, 1, 1};
  table["GlobalAveragePool"] = {ConvertGlobalAveragePool, 1, 1, 1};
  table["GlobalMaxPool"] = {ConvertGlobalMaxPool, 1, 1, 1};
  table["Gemm"] = {ConvertGemm, 2, 3, 1};
  table["MatMul"] = {ConvertMatMul, 2, 2, 1};
  table["BatchNormalization"] = {ConvertBatchNormalization, 5, 5, 5};  // 5 outputs before opset 9
  table["LayerNormalization"] = {ConvertLayerNormalization, 2, 3, 3};
  table["LRN"] = {ConvertLrn, 1, 1, 1};
  table["Det"] = {ConvertDet, 1, 1, 1};
  table["Softmax"] = {ConvertSoftmax, 1, 1, 1};
  table["LogSoftmax"] = {ConvertLogSoftmax, 1, 1, 1};
  table["ArgMax"] = {ConvertArgMinMax<ArgOperation::kMax>, 1, 1, 1};
  table["ArgMin"] = {ConvertArgMinMax<ArgOperation::kMin>, 1, 1, 1};
  table["ReduceMean"] = {ConvertReduce<ReduceOperation::kMean>, 1, 2, 1};
  table["ReduceSum"] = {ConvertReduce<ReduceOperation::kSum>, 1, 2, 1};
  table["ReduceMax"] = {ConvertReduce<ReduceOperation::kMax>, 1, 2, 1};
  table["ReduceMin"] = {ConvertReduce<ReduceOperation::kMin>, 1, 2, 1};
  table["ReduceProd"] = {ConvertReduce<ReduceOperation::kProd>, 1, 2, 1};
  table["ReduceSumSquare"] = {ConvertReduce<ReduceOperation::kSumSquare>, 1, 2, 1};
  table["ReduceL1"] = {ConvertReduce<ReduceOperation::kL1>, 1, 2, 1};
  table["ReduceL2"] = {ConvertReduce<ReduceOperation::kL2>, 1, 2, 1};
  table["ReduceLogSum"] = {ConvertReduce<ReduceOperation::kLogSum>, 1, 2, 1};
  table["ReduceLogSumExp"] = {ConvertReduce<ReduceOperation::kLogSumExp>, 1, 2, 1};
}

}  // namespace backplane::onnx
