// NumPy .npy files (library Backplane::onnx): tensors in and out of tools and tests.
//
// Format versions 1.0, 2.0 and 3.0 are read; 1.0 is written (2.0 when the header needs it).
// Types: '<f4' f32, '<f2' f16, '<i4' i32, '<i8' i64, '|b1' bool; big-endian files ('>f4', ...)
// are read and converted. C order only.
#pragma once

#include <backplane/exception.hpp>
#include <backplane/onnx_export.hpp>
#include <backplane/types.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace backplane {

// One array: its element type, its shape (rank 0 for a numpy scalar) and its elements,
// little-endian and densely laid out in C order (data.size() == shape.NumElements() * SizeOf(type)).
struct NpyArray {
  DataType type = DataType::kFloat32;
  TensorShape shape;
  std::vector<std::uint8_t> data;
};

// Reads `path`. Throws Exception (kNotFound) when the file cannot be opened, (kInvalidArgument)
// naming the file and the problem for a file that is not a well-formed .npy (bad magic, header,
// shape, or a data size that disagrees with the shape), and (kUnsupported) for a dtype above or
// fortran_order True. Sizes are checked against the file's size before anything is allocated.
// Thread-safe.
BACKPLANE_ONNX_API NpyArray ReadNpy(const std::string& path);

// The same for the `size` bytes of a whole .npy file at `data` (not kept; the array owns a copy
// of its elements); `name` stands for the file in messages. ReadNpy reads the file and calls
// this. Messages quote at most 80 characters of a header; a header over 1 MiB is refused
// before it is looked at. Thread-safe.
BACKPLANE_ONNX_API NpyArray ReadNpyFromMemory(const void* data, std::size_t size, const std::string& name);

// Writes `array` to `path` (replacing it). Throws Exception (kInvalidArgument) when data.size()
// disagrees with the shape and type, (kUnsupported) for bf16 (numpy has no such dtype), and
// (kInvalidArgument) naming the file when it cannot be written. Thread-safe for distinct paths.
BACKPLANE_ONNX_API void WriteNpy(const std::string& path, const NpyArray& array);

}  // namespace backplane
