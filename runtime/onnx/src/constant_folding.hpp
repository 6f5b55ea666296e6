// Evaluation of ONNX ops on constant tensors at import time: how shape subgraphs (Shape ->
// Gather -> Unsqueeze -> Concat -> Reshape, ...) become the constant parameters op set v1 wants.
//
// Plain functions of ConstantTensors, ONNX semantics. Each checks its result's size against
// `max_bytes` before allocating it and throws Exception (kInvalidArgument) with the reason
// (the caller names the node); (kUnsupported) for a type the op does not take.
#pragma once

#include "constant_tensor.hpp"

#include <backplane/descriptors.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace backplane::onnx::folding {

// Numpy (ONNX multidirectional) broadcasting of two shapes; throws when they do not broadcast.
std::vector<std::int64_t> BroadcastShapes(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b);

// Normalizes `axis` (negative counts from the end) for `rank`; throws when out of range.
std::size_t NormalizeAxis(std::int64_t axis, std::size_t rank);

enum class Binary { kAdd, kSub, kMul, kDiv, kPow, kMax, kMin, kMod, kEqual, kLess, kGreater,
                    kLessOrEqual, kGreaterOrEqual, kAnd, kOr, kXor };
enum class Unary { kNeg, kAbs, kSqrt, kExp, kLog, kReciprocal, kErf, kNot, kCeil, kFloor,
                   kRelu, kSigmoid, kTanh, kSin, kCos, kTan, kAsin, kAcos, kAtan, kSinh, kCosh,
                   kAsinh, kAcosh, kAtanh, kSign, kRound };

// Integers (and bool) compute in int64 (Div truncates, as ONNX runtimes do), floating point in
// double, then round to the input type. Comparisons and logic ops produce bool.
ConstantTensor ElementwiseBinary(Binary op, const ConstantTensor& a, const ConstantTensor& b, std::uint64_t max_bytes);
ConstantTensor ElementwiseUnary(Unary op, const ConstantTensor& a);
ConstantTensor Where(const ConstantTensor& condition, const ConstantTensor& x, const ConstantTensor& y,
                     std::uint64_t max_bytes);
ConstantTensor Cast(const ConstantTensor& a, DataType to);

// Data movement, for any element type.
ConstantTensor Gather(const ConstantTensor& data, const ConstantTensor& indices, std::int64_t axis,
                      std::uint64_t max_bytes);
// ONNX Slice; `axes` and `steps` may be empty (0..n-1 and all 1).
ConstantTensor Slice(const ConstantTensor& data, const std::vector<std::int64_t>& starts,
                     const std::vector<std::int64_t>& ends, const std::vector<std::int64_t>& axes,
                     const std::vector<std::int64_t>& steps);
ConstantTensor Concat(const std::vector<const ConstantTensor*>& inputs, std::int64_t axis, std::uint64_t max_bytes);
ConstantTensor Transpose(const ConstantTensor& a, const std::vector<std::int64_t>& permutation);
// Broadcasts `a` to `shape` (already the broadcast of both).
ConstantTensor Expand(const ConstantTensor& a, const std::vector<std::int64_t>& shape, std::uint64_t max_bytes);
ConstantTensor Tile(const ConstantTensor& a, const std::vector<std::int64_t>& repeats, std::uint64_t max_bytes);
// ONNX ScatterND (reduction "none"): a copy of `data` with the slices `indices` [..., k] address
// (k <= rank; negative indices count from the end) replaced by `updates`
// [indices.shape[:-1] ..., data.shape[k:] ...]. Later updates of the same slice win, as in
// ONNX Runtime. Throws (kInvalidArgument) for shapes that do not fit and indices out of range.
ConstantTensor ScatterND(const ConstantTensor& data, const ConstantTensor& indices, const ConstantTensor& updates);
std::vector<ConstantTensor> Split(const ConstantTensor& a, std::int64_t axis, const std::vector<std::int64_t>& sizes);
// `operation` over `axes` (empty: all), as backend::reduction computes it, in double; the result
// in a's type. Throws (kInvalidArgument) for bad axes and for an integer result that is not
// finite (a mean, a maximum or a logarithm of an empty set of integers).
ConstantTensor Reduce(const ConstantTensor& a, const std::vector<std::int64_t>& axes, bool keep_dims,
                      ReduceOperation operation);

// Generators.
ConstantTensor Range(const ConstantTensor& start, const ConstantTensor& limit, const ConstantTensor& delta,
                     std::uint64_t max_bytes);
ConstantTensor ConstantOfShape(const std::vector<std::int64_t>& shape, const ConstantTensor& value,
                               std::uint64_t max_bytes);

// Data-dependent extents, folded to ONNX's exact shapes (the network's layers for these ops
// compute upper-bound shapes plus a count; the C header's BP_LAYER_NON_ZERO .. comments).
// ONNX NonZero: the i64 indices [rank, count] of the non-zero elements in C order.
ConstantTensor NonZero(const ConstantTensor& x);
// ONNX Compress: `axis` absent (nullopt) reads x flattened.
ConstantTensor Compress(const ConstantTensor& x, const ConstantTensor& condition, std::optional<std::int64_t> axis);
// ONNX Unique of numbers: y, indices, inverse_indices, counts (numpy.unique; NaN after every
// number and equal to NaN). Throws (kUnsupported) for bool.
std::vector<ConstantTensor> Unique(const ConstantTensor& x, bool sorted, std::optional<std::int64_t> axis);

// The output shape of ONNX Reshape of `input` to `target` (0 copies, -1 infers; allowzero=0).
std::vector<std::int64_t> ReshapeTarget(const std::vector<std::int64_t>& input, const std::vector<std::int64_t>& target);

}  // namespace backplane::onnx::folding
