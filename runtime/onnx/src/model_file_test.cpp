// ParseModel / ParseModelFile / CheckModel: the protobuf layer and the model-level checks.
#include "model_file.hpp"

#include <backplane/exception.hpp>
#include <backplane/onnx_importer.hpp>

#include "temp_folder.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

using backplane::ErrorCode;
using backplane::Exception;
using backplane::onnx::CheckModel;
using backplane::onnx::ParseModel;
using backplane::onnx::ParseModelFile;

std::string Serialized(const onnx::ModelProto& model) { return model.SerializeAsString(); }

onnx::ModelProto MinimalModel(std::int64_t opset) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  auto* entry = model.add_opset_import();
  entry->set_domain("");
  entry->set_version(opset);
  model.mutable_graph()->set_name("g");
  return model;
}

std::string ErrorOf(const std::string& bytes, std::uint64_t limit = 1 << 20) {
  try {
    CheckModel(ParseModel(bytes.data(), bytes.size(), "m.onnx", limit), "m.onnx");
  } catch (const Exception& error) {
    return std::string(backplane::ToString(error.code())) + ": " + error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a minimal model parses and reports its opset") {
  const std::string bytes = Serialized(MinimalModel(13));
  CHECK(CheckModel(ParseModel(bytes.data(), bytes.size(), "m.onnx", 1 << 20), "m.onnx") == 13);
  onnx::ModelProto model = MinimalModel(12);
  model.mutable_opset_import(0)->set_domain("ai.onnx");
  CHECK(CheckModel(model, "m.onnx") == 12);
}

TEST_CASE("bytes that are not a model") {
  CHECK(ErrorOf("") == "invalid_argument: m.onnx: not an ONNX model: the file is empty");
  CHECK(ErrorOf("\xff\xff\xff\xff") .find("invalid_argument: m.onnx: not a valid ONNX model") == 0);
  // Valid protobuf, but no graph (an unknown field only).
  CHECK(ErrorOf(std::string("\x98\x06\x01", 3)).find("it has no graph") != std::string::npos);
}

TEST_CASE("a model without a default-domain opset, or with an unsupported one") {
  onnx::ModelProto model = MinimalModel(13);
  model.mutable_opset_import(0)->set_domain("com.example");
  CHECK(ErrorOf(Serialized(model)).find("imports no opset of the default domain") != std::string::npos);
  CHECK(ErrorOf(Serialized(MinimalModel(22))) ==
        "unsupported: m.onnx: the model imports opset 22 of the default domain; the importer supports opsets 1 to 21 "
        "(convert it with onnx.version_converter.convert_version)");
  CHECK(ErrorOf(Serialized(MinimalModel(0))).find("imports opset 0 of the default domain") != std::string::npos);
}

TEST_CASE("the size limit is checked before parsing") {
  const std::string bytes = Serialized(MinimalModel(13));
  CHECK(ErrorOf(bytes, 4).find("more than the limit of 4") != std::string::npos);
}

TEST_CASE("a model file is parsed as it is read, with the same checks and errors naming the file") {
  namespace fs = std::filesystem;
  const backplane::test_support::TempFolder temp("model-file");
  const fs::path& folder = temp.path();
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(folder / name, std::ios::binary) << bytes;
    return (folder / name).string();
  };
  auto error_of = [](const std::string& path, std::uint64_t limit = 1 << 20) {
    try {
      ParseModelFile(path, limit);
    } catch (const Exception& error) {
      return std::string(backplane::ToString(error.code())) + ": " + error.what();
    }
    return std::string("no error");
  };
  // Larger than one read block (1 MiB), so the parse crosses blocks.
  onnx::ModelProto big = MinimalModel(13);
  auto* weights = big.mutable_graph()->add_initializer();
  weights->set_name("w");
  weights->set_data_type(onnx::TensorProto::FLOAT);
  weights->add_dims(3 << 17);
  weights->set_raw_data(std::string(std::size_t{3} << 19, '\x7f'));
  const std::string good = write("good.onnx", Serialized(big));
  const onnx::ModelProto parsed = ParseModelFile(good, 16 << 20);
  CHECK(CheckModel(parsed, good) == 13);
  CHECK(parsed.graph().initializer(0).raw_data() == weights->raw_data());

  CHECK(error_of((folder / "missing.onnx").string()) ==
        "not_found: " + (folder / "missing.onnx").string() + ": cannot read the model: no such file");
  CHECK(error_of(folder.string()) == "invalid_argument: " + folder.string() + ": cannot read the model: not a regular file");
  CHECK(error_of(good, 4).find("more than the limit of 4") != std::string::npos);
  const std::string empty = write("empty.onnx", "");
  CHECK(error_of(empty) == "invalid_argument: " + empty + ": not an ONNX model: the file is empty");
  const std::string cut = write("cut.onnx", Serialized(big).substr(0, 1500000));
  CHECK(error_of(cut, 16 << 20).find(cut + ": not a valid ONNX model: the protobuf data is truncated or corrupt") == 18);
}
