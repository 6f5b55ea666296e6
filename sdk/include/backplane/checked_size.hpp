// Overflow-checked shape and size arithmetic: the one place where dimensions are multiplied or
// added and where element counts and byte sizes are computed from shapes that came from outside
// (a model file, an .npy header, a layer descriptor). Every product or sum of dimensions in the
// runtime's shape inference, the ONNX importer and the .npy reader goes through these
// functions, so a hostile shape ends in a clear error instead of a wrapped value. Every shape
// that enters a graph (inputs, constants, inferred outputs) has been checked here, so code that
// runs later on graph shapes (the SDK's op geometry, the backends) multiplies only factors of a
// product known to fit.
//
// Dimensions are int64 and must be >= 0 here (callers check the meaning of negative values such
// as -1 in a Reshape target before multiplying). Results fit in int64 (element counts, dims) or
// uint64 (byte sizes).
//
// Two forms: Try* returns nullopt on overflow or a negative operand (for code that reports
// through its own channel, such as a bool + reason), Checked* throws Exception
// (kInvalidArgument) with a message that starts with `what` (the caller's "layer 'x' (Concat)",
// "node 't' (Tile)", "x.npy") and gives the operands. Pure functions; thread-safe.
#pragma once

#include <backplane/types.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace backplane {

// a * b and a + b of two dimensions; nullopt when an operand is negative or the result does
// not fit in int64.
std::optional<std::int64_t> TryMulDims(std::int64_t a, std::int64_t b);
std::optional<std::int64_t> TryAddDims(std::int64_t a, std::int64_t b);
// The product of `dims` (1 for rank 0); nullopt when a dimension is negative or it overflows.
// A zero dimension does not hide an overflow of the others: [0, 2^62, 2^62] overflows.
std::optional<std::int64_t> TryNumElements(const std::vector<std::int64_t>& dims);
// TryNumElements times SizeOf(type); nullopt as above, or when the byte size overflows.
std::optional<std::uint64_t> TryNumBytes(const std::vector<std::int64_t>& dims, DataType type);

// The same, throwing Exception (kInvalidArgument):
//   "<what>: 4611686018427387904 * 4 overflows a 64-bit dimension"
//   "<what>: shape [2,-1] has a negative dimension"
std::int64_t CheckedMulDims(std::int64_t a, std::int64_t b, std::string_view what);
std::int64_t CheckedAddDims(std::int64_t a, std::int64_t b, std::string_view what);
std::int64_t CheckedNumElements(const std::vector<std::int64_t>& dims, std::string_view what);
std::uint64_t CheckedNumBytes(const std::vector<std::int64_t>& dims, DataType type, std::string_view what);
// CheckedNumBytes, and also throws when the size is above `limit`; `limit_name` says where the
// limit comes from: "<what>: f32 [1024,1024,1024] needs 4294967296 bytes, over the limit of
// 2147483648 bytes (ImportOptions::max_model_bytes)".
std::uint64_t CheckedNumBytes(const std::vector<std::int64_t>& dims, DataType type, std::uint64_t limit,
                              std::string_view limit_name, std::string_view what);

}  // namespace backplane
