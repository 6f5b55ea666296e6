// ONNX's signal ops (opset 17 on): the windows and MelWeightMatrix fold at import (their output
// depends only on scalars that decide its shape, so a Session specializes on them); DFT is a Dft
// layer with dft_length read at import (it decides the shape); STFT is composed: a Gather of the
// frames (constant indices), times the window when there is one, then a Dft of each frame.
#include "composition.hpp"
#include "converters.hpp"
#include "signal_constants.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/element_types.hpp>
#include <backplane/exception.hpp>

#include <limits>
#include <string>
#include <vector>

namespace backplane::onnx {

namespace {

using Dims = std::vector<std::int64_t>;

// The one value of scalar input i (int32 or int64), read at import.
std::int64_t ScalarInt(NodeContext& node, std::size_t i, const std::string& what) {
  const Dims values = node.RequireInts(i, what);
  if (values.size() != 1) node.Invalid(what + " must be one value, has " + std::to_string(values.size()));
  return values[0];
}

double ScalarFloat(NodeContext& node, std::size_t i, const std::string& what) {
  const ConstantTensor& value = node.RequireConstant(i, what);
  if (value.NumElements() != 1 || !value.IsFloatingPoint()) {
    node.Invalid(what + " must be one floating-point value, is " + ToString(value.type()) + " " + ToString(value.shape()));
  }
  return value.AsDoubles()[0];
}

// output_datatype (default FLOAT): the folded constants are floating-point.
DataType OutputType(NodeContext& node) {
  const auto onnx_type = static_cast<int>(node.Int("output_datatype", 1));
  DataType type;
  if (!DataTypeFromOnnx(onnx_type, type) || !IsFloatingPointType(type)) {
    node.Unsupported("output_datatype " + OnnxTypeName(onnx_type) + " (the floating-point types are)");
  }
  return type;
}

template <signal::Window kWindow>
void ConvertWindow(NodeContext& node) {
  const std::int64_t size = ScalarInt(node, 0, "size");
  const bool periodic = node.Int("periodic", 1) != 0;
  try {
    node.SetOutput(0, signal::MakeWindow(kWindow, size, periodic, OutputType(node), node.max_bytes()));
  } catch (const Exception& error) {
    if (error.code() != ErrorCode::kInvalidArgument) throw;
    node.Invalid(error.what());
  }
}

void ConvertMelWeightMatrix(NodeContext& node) {
  const std::int64_t mel_bins = ScalarInt(node, 0, "num_mel_bins");
  const std::int64_t dft_length = ScalarInt(node, 1, "dft_length");
  const std::int64_t sample_rate = ScalarInt(node, 2, "sample_rate");
  const double lower = ScalarFloat(node, 3, "lower_edge_hertz");
  const double upper = ScalarFloat(node, 4, "upper_edge_hertz");
  try {
    node.SetOutput(0, signal::MelWeightMatrix(mel_bins, dft_length, sample_rate, lower, upper, OutputType(node),
                                              node.max_bytes()));
  } catch (const Exception& error) {
    if (error.code() != ErrorCode::kInvalidArgument) throw;
    node.Invalid(error.what());
  }
}

// A Dft of `x` along `axis` (normalized), checked here so that a model error names ONNX's terms.
composition::Term AddDft(NodeContext& node, composition::Term x, std::int64_t axis, std::int64_t length, bool inverse,
                         bool onesided, const std::string& suffix) {
  const Dims dims = composition::DimsOf(node, x);
  if (dims.size() < 2 || (dims.back() != 1 && dims.back() != 2)) {
    node.Invalid("the signal must have a trailing axis of 1 (real) or 2 (complex), has shape " + ToString(TensorShape(dims)));
  }
  if (onesided && dims.back() == 2) node.Invalid("onesided output needs a real signal (a trailing axis of 1)");
  if (onesided && inverse) node.Unsupported("onesided with inverse (ONNX does not define its input)");
  if (length > std::numeric_limits<std::int32_t>::max()) node.Invalid("the DFT length " + std::to_string(length) + " is too large");
  DftDescriptor descriptor;
  descriptor.axis = static_cast<std::int32_t>(axis);
  descriptor.length = length;
  descriptor.inverse = inverse;
  descriptor.onesided = onesided;
  return composition::Layer(node, descriptor, {&x}, suffix);
}

// DFT-17: axis an attribute (default 1); DFT-20: input 2 (default -2). Either counts the trailing
// axis: [-r, -2] or [0, r - 2].
void ConvertDft(NodeContext& node) {
  const auto rank = static_cast<std::int64_t>(node.InputRank(0));
  std::int64_t axis = node.opset() >= 20 ? (node.HasInput(2) ? ScalarInt(node, 2, "axis") : -2) : node.Int("axis", 1);
  if (axis < -rank || axis > rank - 2 || axis == -1) {
    node.Invalid("axis " + std::to_string(axis) + " is out of range [-" + std::to_string(rank) + ", -2] or [0, " +
                 std::to_string(rank - 2) + "] for input " + ToString(node.InputInfo(0).shape));
  }
  if (axis < 0) axis += rank;
  std::int64_t length = 0;
  if (node.HasInput(1)) {
    length = ScalarInt(node, 1, "dft_length");
    if (length < 1) node.Invalid("dft_length " + std::to_string(length) + " must be positive");
  }
  composition::SetOutput(node, 0, AddDft(node, composition::Input(node, 0), axis, length, node.Int("inverse", 0) != 0,
                                         node.Int("onesided", 0) != 0, ""));
}

// STFT: frames f of the signal [B, L, 1 or 2] from f * frame_step, frame_length long, for
// f < 1 + (L - frame_length) / frame_step, each times the window, transformed: [B, F, bins, 2].
void ConvertStft(NodeContext& node) {
  namespace c = composition;
  const Dims& x = node.InputDims(0);
  if (x.size() != 3) node.Invalid("signal must be [batch, length, 1 or 2], has shape " + ToString(TensorShape(x)));
  const std::int64_t step = ScalarInt(node, 1, "frame_step");
  if (step < 1) node.Invalid("frame_step " + std::to_string(step) + " must be positive");
  const bool windowed = node.HasInput(2);
  if (windowed && node.InputRank(2) != 1) node.Invalid("window must have rank 1, has shape " + ToString(node.InputInfo(2).shape));
  std::int64_t frame = windowed ? node.InputDims(2)[0] : x[1];
  if (node.HasInput(3)) {
    const std::int64_t given = ScalarInt(node, 3, "frame_length");
    if (windowed && given != frame) {
      node.Invalid("frame_length " + std::to_string(given) + " differs from the window's " + std::to_string(frame) + " points");
    }
    frame = given;
  }
  if (frame < 1 || frame > x[1]) {
    node.Invalid("frame_length " + std::to_string(frame) + " must be in [1, " + std::to_string(x[1]) + "], the signal's length");
  }
  const std::int64_t frames = 1 + (x[1] - frame) / step;
  const TensorShape index_shape{frames, frame};
  if (!node.FoldsInto({index_shape, DataType::kInt64})) node.Unsupported("the frames' indices " + ToString(index_shape) + " are too large");
  std::vector<std::int64_t> indices;
  for (std::int64_t f = 0; f < frames; ++f) {
    for (std::int64_t t = 0; t < frame; ++t) indices.push_back(f * step + t);
  }
  GatherDescriptor gather;
  gather.axis = 1;
  c::Term index = c::Known(ConstantTensor::FromInt64(index_shape, indices));
  c::Term signal = c::Input(node, 0);
  c::Term framed = c::Layer(node, gather, {&signal, &index}, "frames");  // [B, F, frame, 1 or 2]
  if (windowed) {
    if (node.InputInfo(2).type != node.InputInfo(0).type) {
      node.Invalid(std::string("window is ") + ToString(node.InputInfo(2).type) + ", the signal " + ToString(node.InputInfo(0).type));
    }
    framed = c::Binary(node, BinaryOperation::kMul, std::move(framed), c::Reshape(node, c::Input(node, 2), {frame, 1}, "window"),
                       "windowed");
  }
  c::SetOutput(node, 0, AddDft(node, std::move(framed), 2, 0, false, node.Int("onesided", 1) != 0, ""));
}

}  // namespace

void AddSignalConverters(ConverterTable& table) {
  table["HannWindow"] = {ConvertWindow<signal::Window::kHann>, 1, 1, 1, 17};
  table["HammingWindow"] = {ConvertWindow<signal::Window::kHamming>, 1, 1, 1, 17};
  table["BlackmanWindow"] = {ConvertWindow<signal::Window::kBlackman>, 1, 1, 1, 17};
  table["MelWeightMatrix"] = {ConvertMelWeightMatrix, 5, 5, 1, 17};
  table["DFT"] = {ConvertDft, 1, 3, 1, 17};
  table["STFT"] = {ConvertStft, 2, 4, 1, 17};
}

}  // namespace backplane::onnx
