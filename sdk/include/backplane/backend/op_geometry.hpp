// Geometry of the ops whose workloads need more than their shapes: output extents, GEMM sizes,
// slice windows, permuted strides ... derived once, so every backend walks a layer the same
// way. The rules themselves (what a layer of each type may be) are the op schema's
// (backplane/backend/op_schema.hpp): each DescribeX first runs CheckLayer, so it never reads an
// input or output the layer does not have and never derives geometry from a broken layer.
// Backend-specific limits (index widths, rank limits, data types) stay in the backend.
//
// Each DescribeX takes a layer of type X and returns true with `out` filled in, or false with
// `reason` set to the plain "what is wrong" (the op schema's, or "expected a MatMul layer") and
// `out` unspecified. Data types are not looked at.
//
// Thread safety: pure functions of their arguments; safe to call concurrently.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace backplane::backend {

// Normalizes a possibly negative axis (counting from the end) against `rank` into [0, rank);
// false when it is out of range.
bool NormalizeAxis(std::int64_t axis, std::size_t rank, std::size_t& out);

// A shape seen around one axis as [outer, length, inner], the view softmax, concat, gather and
// split walk their tensors in: outer is the product of the dimensions before `axis`, length its
// own, inner the product of those after it (a product of no dimensions is 1), so the three
// multiply to the element count (0 when any dimension is 0). `axis` is a normalized one
// (NormalizeAxis); one at or past the rank (a scalar has none) reads as a trailing axis of
// length 1. The shape's element count must fit int64 (true of every checked layer's shapes).
struct AxisExtents {
  std::int64_t outer = 1;
  std::int64_t length = 1;
  std::int64_t inner = 1;
};
AxisExtents ExtentsAroundAxis(const TensorShape& shape, std::size_t axis);

// Output extent along one axis of a sliding window (convolution, pooling): the input `size`
// padded by `pad_begin` and `pad_end`, a kernel of `kernel` taps `dilation` apart, moved by
// `stride`. ceil_mode (pooling) keeps a last partial window, except one that would start past
// the input and the leading padding. False when the dilated kernel does not fit the padded
// input (or the arithmetic would overflow). `kernel`, `stride` and `dilation` must be at least 1.
bool WindowOutputExtent(std::int64_t size, std::int64_t pad_begin, std::int64_t pad_end, std::int64_t kernel,
                        std::int64_t stride, std::int64_t dilation, bool ceil_mode, std::int64_t& out);

// One axis of an ONNX Slice: the window from `start` toward `end` by `step` (not 0). Negative
// starts and ends count from the end; then, for a positive step, both are clamped to [0, dim],
// for a negative step start to [0, dim-1] and end to [-1, dim-1]; the axis keeps
// ceil((end - start) / step) elements, none if that is negative. Exact for any int64 values.
struct SliceAxis {
  std::int64_t start = 0;  // first selected index (0 when none is)
  std::int64_t step = 1;
  std::int64_t count = 0;  // elements kept
};
SliceAxis SliceWindow(std::int64_t dim, std::int64_t start, std::int64_t end, std::int64_t step);

// Convolution2d, NCHW: x [N, C, H, W], weights [M, C/groups, kH, kW], optional bias [M],
// y [N, M, Ho, Wo].
struct ConvGeometry {
  std::int64_t batch = 0, channels = 0, height = 0, width = 0;  // x: N, C, H, W
  std::int64_t out_channels = 0, kernel_h = 0, kernel_w = 0;    // weights: M, kH, kW
  std::int64_t out_height = 0, out_width = 0;                   // y: Ho, Wo
  std::int64_t groups = 1;
  std::int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  std::int64_t pad_top = 0, pad_left = 0;  // leading pads; the trailing ones only shape Ho, Wo

  std::int64_t GroupChannels() const { return channels / groups; }          // C/groups
  std::int64_t GroupOutChannels() const { return out_channels / groups; }   // M/groups
  std::int64_t GroupDepth() const { return GroupChannels() * kernel_h * kernel_w; }  // GEMM K of a group
  std::int64_t OutSpatial() const { return out_height * out_width; }        // GEMM N: Ho*Wo
  std::int64_t InSpatial() const { return height * width; }                 // H*W
};

// Checks a Convolution2d layer (2 or 3 inputs, 1 output): ranks, strides/dilations/groups of
// at least 1, channels divisible by groups, weights [M, C/groups, kH, kW] with a non-empty
// kernel, bias [M], the dilated kernel fitting the padded input, and the output shape.
bool DescribeConvolution(const ILayerView& layer, ConvGeometry& out, std::string& reason);

// One spatial axis of a transposed convolution: input position i and kernel tap k write output
// position i * stride + k * dilation - pad_begin (when inside [0, out)).
struct ConvTransposeAxis {
  std::int64_t size = 0;    // input extent
  std::int64_t kernel = 1;  // taps
  std::int64_t stride = 1;
  std::int64_t dilation = 1;
  std::int64_t pad_begin = 0;  // the end's pad and output_padding only shape `out`
  std::int64_t out = 0;        // output extent
};

// ConvolutionTranspose (ONNX ConvTranspose), 1 to 3 spatial axes: x [N, C, D...], weights
// [C, M/groups, k...], optional bias [M], y [N, M, O...].
struct ConvTransposeGeometry {
  std::int64_t batch = 0, channels = 0, out_channels = 0, groups = 1;  // N, C, M
  std::vector<ConvTransposeAxis> axes;                                 // the spatial axes, in order

  std::int64_t GroupChannels() const { return channels / groups; }         // C/groups
  std::int64_t GroupOutChannels() const { return out_channels / groups; }  // M/groups
  std::int64_t InSpatial() const;      // product of the input extents
  std::int64_t OutSpatial() const;     // product of the output extents
  std::int64_t KernelSpatial() const;  // product of the kernel extents
};

// Checks a ConvolutionTranspose layer (2 or 3 inputs, 1 output): 1 to 3 spatial axes, weights
// of x's rank with C in dimension 0, every list of the spatial rank (pads twice), strides,
// dilations and groups of at least 1, C divisible by groups, bias [M], and the output shape.
bool DescribeConvolutionTranspose(const ILayerView& layer, ConvTransposeGeometry& out, std::string& reason);

// One spatial axis of a sliding window (pooling, N-D convolution).
struct PoolAxis {
  std::int64_t size = 0;      // input extent along the axis
  std::int64_t kernel = 1;    // window taps (the whole axis for a global pooling)
  std::int64_t stride = 1;
  std::int64_t dilation = 1;
  std::int64_t pad_begin = 0, pad_end = 0;
  std::int64_t out = 0;       // output extent

  // Input index of output position `o`'s first tap (may be negative: in the padding).
  std::int64_t Start(std::int64_t o) const { return o * stride - pad_begin; }
  // Whether input index `i` lies in the input, or in the padded input.
  bool InInput(std::int64_t i) const { return i >= 0 && i < size; }
  bool InPadded(std::int64_t i) const { return i >= -pad_begin && i < size + pad_end; }
};

// Pooling2d, NCHW: x [N, C, H, W], y [N, C, Ho, Wo].
struct PoolingGeometry {
  std::int64_t batch = 0, channels = 0;  // N, C
  PoolAxis rows, cols;                   // H and W
};

// Checks a Pooling2d layer (1 input, 1 output): rank 4, max or average, kernel/strides/
// dilations of at least 1 (a global pooling is one window over a non-empty plane), the window
// fitting the padded input (ceil_mode honoured), and the output shape.
bool DescribePooling(const ILayerView& layer, PoolingGeometry& out, std::string& reason);

// The product of the axes' extents `field` (size, kernel or out): 1 for no axes.
std::int64_t ProductOfAxes(const std::vector<PoolAxis>& axes, std::int64_t PoolAxis::*field);

// ConvolutionNd (ONNX Conv), 1 to 3 spatial axes: x [N, C, D...], weights [M, C/groups, k...],
// optional bias [M], y [N, M, O...]. Each axis' kernel is the weights' extent; output position
// o reads input positions axis.Start(o) + k * dilation.
struct ConvNdGeometry {
  std::int64_t batch = 0, channels = 0, out_channels = 0, groups = 1;  // N, C, M
  std::vector<PoolAxis> axes;                                          // the spatial axes, in order

  std::int64_t GroupChannels() const { return channels / groups; }         // C/groups
  std::int64_t GroupOutChannels() const { return out_channels / groups; }  // M/groups
};

// Checks a ConvolutionNd layer (2 or 3 inputs, 1 output): 1 to 3 spatial axes, weights of x's
// rank, every list of the spatial rank (pads twice), strides/dilations/groups of at least 1,
// channels divisible by groups, bias [M], the dilated kernel fitting the padded input, and the
// output shape.
bool DescribeConvolutionNd(const ILayerView& layer, ConvNdGeometry& out, std::string& reason);

// Checks a ConvolutionInteger layer (2 to 4 inputs, 1 output) as DescribeConvolutionNd does a
// ConvolutionNd one, with the zero points (x's: one value; the weights': one value or [M])
// instead of a bias, i8 / u8 data and an i32 output.
bool DescribeConvolutionInteger(const ILayerView& layer, ConvNdGeometry& out, std::string& reason);

// Recurrent (ONNX RNN / GRU / LSTM, time-major): the extents every kernel walks.
struct RecurrentGeometry {
  std::int64_t steps = 0, batch = 0, input = 0, hidden = 0;  // T, B, I, H
  std::int64_t directions = 1, gates = 1;                    // D; G: 1 RNN, 3 GRU, 4 LSTM
  std::size_t functions = 1;                                 // activations per direction
  bool has_bias = false, has_lengths = false, has_initial_h = false, has_initial_c = false, has_peephole = false;
};

// Checks a Recurrent layer (3 to 6 inputs for RNN / GRU, 3 to 8 for LSTM; 2 or 3 outputs) against
// the op schema and reads its extents and which optional inputs it has.
bool DescribeRecurrent(const ILayerView& layer, RecurrentGeometry& out, std::string& reason);

// PoolingNd, 1 to 3 spatial axes: x [N, C, D...], y [N, C, O...].
struct PoolingNdGeometry {
  std::int64_t batch = 0, channels = 0;  // N, C
  std::vector<PoolAxis> axes;            // the spatial axes, in order (a global pooling: one window each)
};

// Checks a PoolingNd layer (1 input, 1 output) as DescribePooling does a Pooling2d one, over
// 1 to 3 spatial axes with lists of the spatial rank.
bool DescribePoolingNd(const ILayerView& layer, PoolingNdGeometry& out, std::string& reason);

// MatMul (numpy.matmul): A [..., M, K] times B [..., K, N]. A rank-1 A is [1, K] and a rank-1
// B is [K, 1], the promoted dimension dropped from the output.
struct MatMulGeometry {
  std::int64_t m = 0, n = 0, k = 0;
  TensorShape a_batch;  // A's dimensions before the matrix ([] for a rank-1 or rank-2 A)
  TensorShape b_batch;  // B's, likewise
  TensorShape batch;    // a_batch and b_batch broadcast: one GEMM per element
  TensorShape output;   // batch, then M unless A is rank 1, then N unless B is rank 1
};

// Checks a MatMul layer (2 inputs, 1 output): ranks of at least 1, matching K, broadcastable
// batch dimensions, and the output shape.
bool DescribeMatMul(const ILayerView& layer, MatMulGeometry& out, std::string& reason);

// Checks a MatMulInteger layer (2 to 4 inputs, 1 output) as DescribeMatMul does a MatMul one,
// with its zero points (each one value or constant along K), i8 / u8 data and an i32 output.
bool DescribeMatMulInteger(const ILayerView& layer, MatMulGeometry& out, std::string& reason);

// Which A and B matrices (row-major indices into a_batch and b_batch) each output matrix
// multiplies: one entry per element of `batch`, in output order.
struct MatMulOperands {
  std::int64_t a = 0, b = 0;
};
std::vector<MatMulOperands> MatMulBatchOperands(const MatMulGeometry& g);

// FullyConnected (ONNX Gemm): Y [M, N] = alpha * op(A) * op(B) + beta * C.
struct GemmGeometry {
  std::int64_t m = 0, n = 0, k = 0;  // op(A) is [M, K], op(B) [K, N]
};

// Checks a FullyConnected layer (2 or 3 inputs, 1 output): A and B matrices whose K match
// after the descriptor's transposes, C (when given) broadcasting to [M, N], output [M, N].
bool DescribeGemm(const ILayerView& layer, GemmGeometry& out, std::string& reason);

// Slice (ONNX): per axis, where the window starts, how it steps and how many elements it keeps
// (SliceWindow).
struct SliceGeometry {
  std::vector<std::int64_t> start;  // per input axis: first selected index (0 when none is)
  std::vector<std::int64_t> step;   // per input axis: 1 where not sliced
  TensorShape output;               // per axis the count kept
  std::int64_t first = 0;           // element offset of the first selected input element
  std::vector<std::int64_t> read_strides;  // per axis, in input elements: step * dense stride
};

// Checks a Slice layer (1 input, 1 output): one end (and axis and step, when given) per
// start, axes in range and named once, non-zero steps, and the output shape.
bool DescribeSlice(const ILayerView& layer, SliceGeometry& out, std::string& reason);

// Transpose: output dimension i is input dimension permutation[i].
struct TransposeGeometry {
  std::vector<std::uint32_t> permutation;  // the descriptor's, or the reversed axes when empty
  std::vector<std::int64_t> read_strides;  // per output dimension: the input's dense stride of it
};

// Checks a Transpose layer (1 input, 1 output): a permutation of the input's axes, and the
// output shape.
bool DescribeTranspose(const ILayerView& layer, TransposeGeometry& out, std::string& reason);

// Checks a Reshape layer (1 input, 1 output): the element counts match and the output shape
// is the requested one (0 copies the input's dimension, one -1 is inferred). There is no
// geometry: the bytes do not move.
bool CheckReshape(const ILayerView& layer, std::string& reason);

// Flatten: [d0 .. d(axis-1)] x [d(axis) .. d(n-1)].
struct FlattenGeometry {
  std::size_t axis = 0;     // normalized, in [0, rank]
  std::int64_t outer = 1;   // product of the dimensions before axis
  std::int64_t inner = 1;   // product of the dimensions from axis on
};

// Checks a Flatten layer (1 input, 1 output): axis in [-rank, rank], output [outer, inner].
bool DescribeFlatten(const ILayerView& layer, FlattenGeometry& out, std::string& reason);

// Split along one axis; around the axis the input is [outer, length * inner].
struct SplitGeometry {
  std::size_t axis = 0;             // normalized
  std::vector<std::int64_t> parts;  // per output: its length along the axis
  std::int64_t outer = 1;           // product of the dimensions before the axis
  std::int64_t inner = 1;           // product of the dimensions after the axis
};

// Checks a Split layer (1 input, at least 1 output): axis in range, sizes (or equal parts
// when empty) summing to the axis' length, one per output, and each output's shape.
bool DescribeSplit(const ILayerView& layer, SplitGeometry& out, std::string& reason);

// LayerNormalization: x seen as [rows, size], each row normalized over dimensions axis..last.
struct LayerNormGeometry {
  std::size_t axis = 0;    // normalized
  std::int64_t rows = 1;   // product of the dimensions before axis
  std::int64_t size = 1;   // product of the dimensions from axis on: one row
};

// Checks a LayerNormalization layer (2 or 3 inputs, 1 output): axis in range, scale and bias
// covering exactly the normalized dimensions (leading 1s allowed), output shaped as x.
bool DescribeLayerNormalization(const ILayerView& layer, LayerNormGeometry& out, std::string& reason);

}  // namespace backplane::backend
