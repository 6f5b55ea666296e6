#include "model_file.hpp"

#include <backplane/exception.hpp>
#include <backplane/onnx_importer.hpp>
#include <backplane/path_text.hpp>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include <filesystem>
#include <fstream>
#include <limits>

namespace backplane::onnx {

namespace {

[[noreturn]] void Invalid(const std::string& name, const std::string& why) {
  throw Exception(ErrorCode::kInvalidArgument, name + ": " + why);
}

// protobuf's hard limit for one message (its sizes are ints).
constexpr std::uint64_t kProtobufLimit = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
// How much of a model file is read at a time while it is parsed.
constexpr int kReadBlockBytes = 1 << 20;

}  // namespace

namespace {

// The limits ParseModel and ParseModelFile share: not empty, within `max_bytes`, under
// protobuf's 2 GiB.
void CheckModelSize(const std::string& name, std::uint64_t size, std::uint64_t max_bytes) {
  if (size == 0) Invalid(name, "not an ONNX model: the file is empty");
  if (size > max_bytes) {
    Invalid(name, "the model is " + std::to_string(size) + " bytes, more than the limit of " +
                      std::to_string(max_bytes) + " (ImportOptions::max_model_bytes)");
  }
  if (size > kProtobufLimit) {
    Invalid(name, "the model is " + std::to_string(size) + " bytes; protobuf cannot read messages of 2 GiB or more");
  }
}

// Parses all of `input` (`size` bytes) as a ModelProto, nesting depth 100.
::onnx::ModelProto ParseCoded(google::protobuf::io::CodedInputStream& input, std::uint64_t size,
                              const std::string& name) {
  input.SetTotalBytesLimit(static_cast<int>(size));
  input.SetRecursionLimit(100);
  ::onnx::ModelProto model;
  if (!model.ParseFromCodedStream(&input) || !input.ConsumedEntireMessage()) {
    Invalid(name, "not a valid ONNX model: the protobuf data is truncated or corrupt (" + std::to_string(size) +
                      " bytes could not be parsed as onnx.ModelProto)");
  }
  return model;
}

}  // namespace

::onnx::ModelProto ParseModelFile(const std::string& path, std::uint64_t max_bytes) {
  const std::filesystem::path file_path = PathFromUtf8(path);
  std::error_code error;
  const auto status = std::filesystem::status(file_path, error);
  if (error || !std::filesystem::exists(status)) {
    throw Exception(ErrorCode::kNotFound, path + ": cannot read the model: no such file");
  }
  if (!std::filesystem::is_regular_file(status)) Invalid(path, "cannot read the model: not a regular file");
  const std::uint64_t size = std::filesystem::file_size(file_path, error);
  if (error) throw Exception(ErrorCode::kNotFound, path + ": cannot read the model: " + error.message());
  CheckModelSize(path, size, max_bytes);
  std::ifstream file(file_path, std::ios::binary);
  if (!file) throw Exception(ErrorCode::kNotFound, path + ": cannot read the model: cannot open the file");
  // Parsed as it is read: no copy of the whole file is made first (resnet50: 100 MB less at
  // the peak, and no 100 MB zero-fill).
  google::protobuf::io::IstreamInputStream stream(&file, kReadBlockBytes);
  google::protobuf::io::CodedInputStream input(&stream);
  ::onnx::ModelProto model = ParseCoded(input, size, path);
  if (file.bad()) throw Exception(ErrorCode::kNotFound, path + ": cannot read the model: reading failed");
  return model;
}

::onnx::ModelProto ParseModel(const void* data, std::size_t size, const std::string& name, std::uint64_t max_bytes) {
  CheckModelSize(name, size, max_bytes);
  google::protobuf::io::CodedInputStream input(static_cast<const std::uint8_t*>(data), static_cast<int>(size));
  return ParseCoded(input, size, name);
}

std::int64_t CheckModel(const ::onnx::ModelProto& model, const std::string& name) {
  if (!model.has_graph()) {
    Invalid(name, "not a valid ONNX model: it has no graph (truncated, or not an ONNX file)");
  }
  if (model.ir_version() < 3) {
    Invalid(name, "not a valid ONNX model: IR version " + std::to_string(model.ir_version()) +
                      " (ONNX files have 3 or later; truncated, or not an ONNX file?)");
  }
  std::int64_t opset = -1;
  for (const auto& entry : model.opset_import()) {
    if (IsDefaultDomain(entry.domain())) {
      if (opset >= 0) Invalid(name, "the model imports the default domain twice");
      opset = entry.version();
    }
  }
  if (opset < 0) {
    Invalid(name, "the model imports no opset of the default domain (\"\" / ai.onnx)");
  }
  if (opset < kMinOpset || opset > kMaxOpset) {
    throw UnsupportedModelError(
        name + ": the model imports opset " + std::to_string(opset) + " of the default domain; the importer supports opsets " +
            std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) +
            " (convert it with onnx.version_converter.convert_version)",
        {});
  }
  return opset;
}

}  // namespace backplane::onnx
