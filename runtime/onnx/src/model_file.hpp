// Getting an ONNX ModelProto out of bytes: size limits, protobuf parsing with libonnx's
// generated classes, and the model-level checks (graph present, default-domain opset).
#pragma once

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace backplane::onnx {

// The default-domain opsets the importer reads (ONNX 1.0 to 1.16). Each converter maps its op's
// older and newer forms onto one translation (attributes that became inputs, new attributes,
// opset 1-6's broadcast axis); a form it does not read is refused naming the node and the
// opset the importer reads that op from (OpConverter::min_opset).
inline constexpr std::int64_t kMinOpset = 1;
inline constexpr std::int64_t kMaxOpset = 21;

// Parses the file at `path` as ParseModel parses bytes, reading it as it goes (no copy of the
// whole file). Throws Exception (kNotFound) naming `path` when it does not exist or cannot be
// read, (kInvalidArgument) when it is not a regular file or larger than `max_bytes` (checked
// before reading), and as ParseModel.
::onnx::ModelProto ParseModelFile(const std::string& path, std::uint64_t max_bytes);

// Parses `size` bytes as a ModelProto (protobuf's limit: under 2 GiB; nesting depth 100).
// Throws Exception (kInvalidArgument) naming `name` for empty, truncated or garbage input, or
// input larger than `max_bytes`.
::onnx::ModelProto ParseModel(const void* data, std::size_t size, const std::string& name, std::uint64_t max_bytes);

// The opset the model imports for the default domain ("" or "ai.onnx"). Throws Exception
// (kInvalidArgument) naming `name` when the model has no graph or imports no default opset,
// and UnsupportedModelError when that opset is outside kMinOpset..kMaxOpset.
std::int64_t CheckModel(const ::onnx::ModelProto& model, const std::string& name);

// True for "" and "ai.onnx".
inline bool IsDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

}  // namespace backplane::onnx
