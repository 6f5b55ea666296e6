// Op set v1: one descriptor per layer type, with the parameters of that op.
//
// Every descriptor derives from LayerDescriptor and names its LayerType in kType, so
// Network::AddLayer knows the type and a backend can static_cast a layer's descriptor after
// checking ILayerView::GetType(). Plain value types; thread-safe to read. Layout is NCHW.
//
// Inputs are tensors connected to the layer's input slots, in the order listed per op; weights
// and other parameters that are tensors come in as inputs too (usually from Constant layers),
// so a backend sees them through ILayerView::GetConstantInput at CreateWorkload time.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/types.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace backplane {

using backend::LayerDescriptor;
using backend::LayerType;

// Inputs: x [N, C, H, W], weights [M, C/groups, kH, kW], optional bias [M].
// Output: [N, M, Ho, Wo]. Depthwise: groups == C == M / multiplier.
struct Convolution2dDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kConvolution2d;
  std::array<std::uint32_t, 2> strides{1, 1};      // H, W
  std::array<std::uint32_t, 2> dilations{1, 1};    // H, W
  std::array<std::uint32_t, 4> pads{0, 0, 0, 0};   // top, left, bottom, right
  std::uint32_t groups = 1;
};

// ONNX Gemm: Y = alpha * op(A) * op(B) + beta * C, A [M, K] (or [K, M] transposed),
// B [K, N] (or [N, K] transposed), optional C broadcastable to [M, N].
// FullyConnected is Gemm with transpose_b = true and C the bias.
struct FullyConnectedDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kFullyConnected;
  bool transpose_a = false;
  bool transpose_b = true;
  float alpha = 1.0f;
  float beta = 1.0f;
};

// numpy.matmul: inputs A [..., M, K], B [..., K, N]; batch dimensions broadcast; rank-1
// operands are promoted as numpy does.
struct MatMulDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kMatMul;
};

enum class PoolingType : std::uint32_t { kMax, kAverage };

// Input x [N, C, H, W]. Global pooling ignores kernel/strides/pads and reduces H and W.
struct Pooling2dDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kPooling2d;
  PoolingType type = PoolingType::kMax;
  std::array<std::uint32_t, 2> kernel{1, 1};
  std::array<std::uint32_t, 2> strides{1, 1};
  std::array<std::uint32_t, 2> dilations{1, 1};
  std::array<std::uint32_t, 4> pads{0, 0, 0, 0};   // top, left, bottom, right
  bool count_include_pad = false;                  // average: divide by the full window
  bool ceil_mode = false;
  bool global = false;
};

enum class ActivationFunction : std::uint32_t {
  kRelu,
  kClip,        // min(max(x, alpha), beta); relu6 is Clip(0, 6)
  kSigmoid,
  kTanh,
  kGelu,        // exact: 0.5 x (1 + erf(x / sqrt 2)); kGeluTanh for the tanh approximation
  kGeluTanh,
  kLeakyRelu,   // x < 0 ? alpha x : x
  kHardSwish,   // x * relu6(x + 3) / 6
  kSilu,        // x * sigmoid(x)
  kHardSigmoid, // max(0, min(1, alpha x + beta))
};

struct ActivationDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kActivation;
  ActivationFunction function = ActivationFunction::kRelu;
  float alpha = 0.0f;
  float beta = 0.0f;
};

enum class BinaryOperation : std::uint32_t { kAdd, kSub, kMul, kDiv, kMax, kMin, kPow };

// Two inputs with numpy broadcasting.
struct ElementwiseBinaryDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kElementwiseBinary;
  BinaryOperation operation = BinaryOperation::kAdd;
};

enum class UnaryOperation : std::uint32_t { kSqrt, kExp, kLog, kAbs, kNeg, kErf, kReciprocal };

struct ElementwiseUnaryDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kElementwiseUnary;
  UnaryOperation operation = UnaryOperation::kAbs;
};

struct SoftmaxDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kSoftmax;
  std::int32_t axis = -1;  // negative counts from the last
};

// Inputs: x [N, C, ...], scale [C], bias [C], mean [C], variance [C] (inference form).
struct BatchNormalizationDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kBatchNormalization;
  float epsilon = 1e-5f;
};

// Normalizes over the dimensions from `axis` to the last. Inputs: x, scale, optional bias
// (scale and bias of the normalized shape).
struct LayerNormalizationDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kLayerNormalization;
  std::int32_t axis = -1;
  float epsilon = 1e-5f;
};

enum class ReduceOperation : std::uint32_t { kMean, kSum };

struct ReduceDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kReduce;
  ReduceOperation operation = ReduceOperation::kMean;
  std::vector<std::int32_t> axes;  // empty: all axes
  bool keep_dims = true;
};

// The new shape; at most one -1 (inferred), 0 copies the input's dimension (ONNX rules).
struct ReshapeDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kReshape;
  std::vector<std::int64_t> shape;
};

// [d0 .. d(axis-1)] x [d(axis) .. d(n-1)] as a 2-D tensor.
struct FlattenDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kFlatten;
  std::int32_t axis = 1;
};

struct TransposeDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kTranspose;
  std::vector<std::uint32_t> permutation;  // empty: reverse the axes
};

struct ConcatDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kConcat;
  std::int32_t axis = 0;
};

// One output per entry of `sizes` (which sum to the axis' length).
struct SplitDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kSplit;
  std::int32_t axis = 0;
  std::vector<std::int64_t> sizes;
};

// ONNX Slice semantics with constant starts/ends/axes/steps (clamped; negative from the end).
struct SliceDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kSlice;
  std::vector<std::int64_t> starts;
  std::vector<std::int64_t> ends;
  std::vector<std::int32_t> axes;   // empty: 0 .. starts.size()-1
  std::vector<std::int64_t> steps;  // empty: all 1
};

// Inputs: data, indices (i32 or i64; negative counts from the end). ONNX Gather.
struct GatherDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kGather;
  std::int32_t axis = 0;
};

enum class PadMode : std::uint32_t { kConstant, kReflect, kEdge };

struct PadDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kPad;
  std::vector<std::int64_t> pads;  // begin of each axis, then end of each axis (ONNX order)
  PadMode mode = PadMode::kConstant;
  float value = 0.0f;
};

struct CastDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kCast;
  DataType to = DataType::kFloat32;
};

// A constant tensor (weights, shapes). The data is shared and immutable.
struct ConstantDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kConstant;
  TensorInfo info;
  std::shared_ptr<const std::vector<std::uint8_t>> data;  // info.NumBytes() bytes
};

}  // namespace backplane
