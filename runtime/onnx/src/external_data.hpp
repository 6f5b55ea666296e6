// ONNX external data: a tensor whose bytes are in a file beside the model (data_location =
// EXTERNAL, external_data entries location / offset / length / checksum), as
// onnx.save_model(..., save_as_external_data=True) writes it for models over protobuf's 2 GiB.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace onnx {
class TensorProto;
}

namespace backplane::onnx {

// Where a model's external data files may be: its own folder, or nowhere (a model imported
// from memory has no folder). Value type; reads nothing until Read is called.
class ExternalDataFolder {
 public:
  // Files of a model imported from memory: any external tensor is an error.
  ExternalDataFolder() = default;
  // Files beside the model at `model_path` (its folder; "." for a bare file name).
  static ExternalDataFolder OfModel(const std::string& model_path);

  // The `expected_bytes` bytes of `tensor` (data_location EXTERNAL), read from its file and
  // range only. The rules, each broken one an Exception naming the tensor's location and why:
  // - keys: "location" (required), "offset" and "length" (decimal; offset defaults to 0, length
  //   to the rest of the file), "checksum" (accepted, not verified); any other key or a repeated
  //   key is kInvalidArgument.
  // - location: relative to the model's folder; an absolute path, a path whose ".." components
  //   leave the folder, or one that resolves (through symbolic links) outside it is
  //   kInvalidArgument; a missing file is kNotFound; a file that is not a regular file is
  //   kInvalidArgument.
  // - offset + length inside the file (no overflow) and length == expected_bytes:
  //   kInvalidArgument otherwise.
  // - no folder (from memory): kInvalidArgument, saying external data needs the model's path.
  // Only the range is read (a data file may be far larger than protobuf's 2 GiB); the checks
  // run on the canonical paths at the time of the call.
  // Messages do not name the tensor (the caller adds it). Thread-safe.
  std::vector<std::uint8_t> Read(const ::onnx::TensorProto& tensor, std::uint64_t expected_bytes) const;

 private:
  std::optional<std::filesystem::path> folder_;
};

}  // namespace backplane::onnx
