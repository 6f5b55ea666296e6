// ParseModel / CheckModel: the protobuf layer and the model-level checks.
#include "model_file.hpp"

#include <backplane/exception.hpp>
#include <backplane/onnx_importer.hpp>

#include <doctest/doctest.h>

#include <string>

namespace {

using backplane::ErrorCode;
using backplane::Exception;
using backplane::onnx::CheckModel;
using backplane::onnx::ParseModel;

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
