// The ONNX op -> op set v1 translation table: data, one entry per supported op type of the
// default domain. Each converter reads its node through a NodeContext and defines every output
// it produces (network tensors, folded constants or aliases); it throws NodeUnsupported for
// what it cannot translate and Exception (kInvalidArgument) for a malformed node.
#pragma once

#include "import_context.hpp"

#include <backplane/descriptors.hpp>

#include <map>
#include <string>

namespace backplane::onnx {

using Converter = void (*)(NodeContext& node);

inline constexpr std::size_t kVariadic = static_cast<std::size_t>(-1);

// One op: its converter and the number of inputs and outputs the ONNX spec allows (over opsets
// kMinOpset to kMaxOpset: the converter reads the node's opset for the forms that differ). The importer checks a node against them before calling the converter: inputs below
// min_inputs must be present (and every input of a variadic op), at most max_inputs and
// max_outputs may be given, so a converter may rely on its required inputs.
struct OpConverter {
  Converter convert = nullptr;
  std::size_t min_inputs = 1;
  std::size_t max_inputs = 1;
  std::size_t max_outputs = 1;
  // The oldest opset whose form of the op the converter reads; a node of an older opset is
  // refused naming the form (e.g. Tile before 6 took `tiles` and `axis` inputs).
  std::int64_t min_opset = 1;
};
using ConverterTable = std::map<std::string, OpConverter, std::less<>>;

// The entry for `op_type`, or null when the importer does not translate that op.
// Thread-safe (the table is built once and never changed).
const OpConverter* FindConverter(const std::string& op_type);

// The families, each in its own file; FindConverter's table is their union.
void AddElementwiseConverters(ConverterTable& table);  // activations, unary, binary, Clip, Sum, ...
void AddNnConverters(ConverterTable& table);           // Conv, Gemm, MatMul, pooling, norms, Softmax, reductions
void AddTensorConverters(ConverterTable& table);       // shape ops, data movement, constants, folding-only ops
void AddComposedConverters(ConverterTable& table);     // ops composed from other layers: PRelu, OneHot, norms, ...
void AddLossConverters(ConverterTable& table);         // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void AddResizeConverters(ConverterTable& table);       // Resize, Upsample
void AddQuantizationConverters(ConverterTable& table); // QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
                                                       // MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv
void AddRecurrentConverters(ConverterTable& table);    // RNN, GRU, LSTM unrolled over the time steps
void AddEinsumConverters(ConverterTable& table);       // Einsum as Transpose, Reshape, MatMul and Reduce
void AddDataDependentConverters(ConverterTable& table);  // NonZero, Compress, Unique, NonMaxSuppression
void AddSignalConverters(ConverterTable& table);       // windows, MelWeightMatrix (folded), DFT, STFT

// LayerNormalization's optional outputs 1 (Mean) and 2 (InvStdDev) of input 0 over the axes from
// `axis` (validated by the caller) to the last, kept as 1s, in f32 (stash_type 1), composed from
// Reduce and elementwise layers (folded when input 0 is constant). Does nothing when the node
// has neither; marks them unavailable, with the reason, for an input other than f32 or another
// stash_type. Throws as NodeContext's Add and SetOutput.
// The window of an N-D convolution node (ONNX Conv's attributes: strides, dilations, group,
// pads or auto_pad resolved, kernel_shape checked against the weights at input `weights`) over
// input 0's 1 to 3 spatial axes, for ConvInteger and QLinearConv (convert_nn.cpp owns Conv's
// attribute rules). Throws NodeUnsupported for another spatial rank, Exception for a malformed
// attribute.
ConvolutionIntegerDescriptor IntegerConvolutionWindow(NodeContext& node, std::size_t weights);
void AddLayerNormalizationStatistics(NodeContext& node, std::int64_t axis, float epsilon);

}  // namespace backplane::onnx
