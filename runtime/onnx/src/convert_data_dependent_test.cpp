// NonZero, Compress, Unique and NonMaxSuppression: folded at import when their inputs are
// constant; otherwise bound-shaped layers whose graph outputs the importer lists for trimming
// (ImportedModel::trimmed_outputs) and onnx::Session trims to ONNX's shapes; refused where a
// data-dependent shape would feed another node.
#include "model_builder.hpp"

#include <backplane/onnx_session.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using backplane::ConstTensorView;
using backplane::DataType;
using backplane::Runtime;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::onnx::Session;
using backplane::onnx::SessionOptions;
using backplane::onnx::SessionOutput;
using backplane::onnx::TrimmedOutput;
using backplane::onnx::UnsupportedModelError;
using namespace backplane::onnx::testing;

using I64s = std::vector<std::int64_t>;

template <typename T>
std::vector<T> Values(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

void AddInput(::onnx::ModelProto& model, const std::string& name, int elem_type, const std::vector<std::int64_t>& dims) {
  SetTensorType(*model.mutable_graph()->add_input(), name, elem_type, dims);
}

// The outputs of one Session::Run of `model` on CpuRef.
std::vector<SessionOutput> RunSession(const ::onnx::ModelProto& model, const std::vector<backplane::InputBinding>& inputs) {
  const TempFile file("m.onnx", model.SerializeAsString());
  auto runtime = Runtime::Create();
  REQUIRE(runtime->HasBackend("CpuRef"));
  SessionOptions options;
  options.optimize.backends = {"CpuRef"};
  return Session::Open(*runtime, file.path(), options)->Run(inputs);
}

}  // namespace

TEST_CASE("data-dependent ops on constants fold to ONNX's shapes") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(13, "NonZero", {"x"}, {"y"}, node);
  AddFloatInitializer(*model.mutable_graph(), "x", {2, 3}, {0, 1, 0, 2, 0, 3});
  const auto imported = ImportProto(model);
  CHECK(imported.trimmed_outputs.empty());
  const auto nonzero = Run(model, {}).at("y");
  CHECK(nonzero.shape == TensorShape{2, 3});
  CHECK(Values<std::int64_t>(nonzero.data) == I64s{0, 1, 1, 1, 0, 2});

  auto unique = OneNode(11, "Unique", {"x"}, {"y", "indices", "inverse", "counts"}, node);
  AddFloatInitializer(*unique.mutable_graph(), "x", {6}, {2, 1, 1, 3, 4, 3});
  auto* sorted = node->add_attribute();
  sorted->set_name("sorted");
  sorted->set_type(::onnx::AttributeProto::INT);
  sorted->set_i(0);
  const auto outputs = Run(unique, {});
  CHECK(outputs.at("y").shape == TensorShape{4});
  CHECK(Values<float>(outputs.at("y").data) == std::vector<float>{2, 1, 3, 4});
  CHECK(Values<std::int64_t>(outputs.at("indices").data) == I64s{0, 1, 3, 4});
  CHECK(Values<std::int64_t>(outputs.at("inverse").data) == I64s{0, 1, 1, 2, 3, 2});
  CHECK(Values<std::int64_t>(outputs.at("counts").data) == I64s{1, 2, 2, 1});
}

TEST_CASE("a data-dependent graph output is computed bound-shaped and listed for trimming by its count") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(13, "Unique", {"x"}, {"y", "", "inverse", "counts"}, node);
  AddInput(model, "x", ::onnx::TensorProto::INT64, {5});
  const auto imported = ImportProto(model);
  REQUIRE(imported.trimmed_outputs.size() == 2);
  CHECK(imported.trimmed_outputs[0].output == "y");
  CHECK(imported.trimmed_outputs[0].count == "y/count");  // one count serves both
  CHECK(imported.trimmed_outputs[1].output == "counts");
  CHECK(imported.trimmed_outputs[1].count == "y/count");
  CHECK(imported.outputs == std::vector<std::string>{"y", "inverse", "counts"});
}

TEST_CASE("a data-dependent shape that feeds another node is refused naming both nodes") {
  ::onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  auto* graph = model.mutable_graph();
  auto* nonzero = graph->add_node();
  nonzero->set_op_type("NonZero");
  nonzero->set_name("nz");
  nonzero->add_input("x");
  nonzero->add_output("i");
  auto* transpose = graph->add_node();
  transpose->set_op_type("Transpose");
  transpose->set_name("t");
  transpose->add_input("i");
  transpose->add_output("y");
  graph->add_output()->set_name("y");
  AddInput(model, "x", ::onnx::TensorProto::FLOAT, {2, 2});
  try {
    ImportProto(model);
    FAIL("imported");
  } catch (const UnsupportedModelError& error) {
    REQUIRE(error.nodes().size() == 1);
    CHECK(error.nodes()[0].node_name == "t");
    CHECK(error.nodes()[0].reason ==
          "reads 'i', whose shape NonZero 'nz' computes from the input values at run time: data-dependent shapes that "
          "feed other nodes are not supported (only as graph outputs)");
  }
}

TEST_CASE("onnx::Session returns data-dependent outputs trimmed to ONNX's shapes, empty ones too") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(13, "NonZero", {"x"}, {"y"}, node);
  AddInput(model, "x", ::onnx::TensorProto::FLOAT, {2, 2});
  const std::vector<float> x{1, 0, 0, 5};
  const auto outputs = RunSession(model, {{"x", ConstTensorView{TensorInfo{TensorShape{2, 2}, DataType::kFloat32}, x.data()}}});
  REQUIRE(outputs.size() == 1);
  CHECK(outputs[0].name == "y");
  CHECK(outputs[0].info.shape == TensorShape{2, 2});
  CHECK(Values<std::int64_t>(outputs[0].data) == I64s{0, 1, 0, 1});
  const std::vector<float> zeros(4, 0.0f);
  const auto none = RunSession(model, {{"x", ConstTensorView{TensorInfo{TensorShape{2, 2}, DataType::kFloat32}, zeros.data()}}});
  CHECK(none[0].info.shape == TensorShape{2, 0});
  CHECK(none[0].data.empty());
}

TEST_CASE("onnx::Session runs NonMaxSuppression with absent optional inputs and Compress along an axis") {
  ::onnx::NodeProto* node = nullptr;
  // max_output_boxes_per_class given, iou_threshold absent (0), no score_threshold: every box
  // that overlaps a kept one is suppressed.
  auto nms = OneNode(11, "NonMaxSuppression", {"boxes", "scores", "max"}, {"selected"}, node);
  AddInput(nms, "boxes", ::onnx::TensorProto::FLOAT, {1, 3, 4});
  AddInput(nms, "scores", ::onnx::TensorProto::FLOAT, {1, 1, 3});
  AddInput(nms, "max", ::onnx::TensorProto::INT64, {1});
  const std::vector<float> boxes{0, 0, 1, 1, 0, 0.5f, 1, 1.5f, 0, 2, 1, 3};
  const std::vector<float> scores{0.5f, 0.9f, 0.1f};
  const std::vector<std::int64_t> max{10};
  const auto selected = RunSession(nms, {{"boxes", ConstTensorView{TensorInfo{TensorShape{1, 3, 4}, DataType::kFloat32}, boxes.data()}},
                                         {"scores", ConstTensorView{TensorInfo{TensorShape{1, 1, 3}, DataType::kFloat32}, scores.data()}},
                                         {"max", ConstTensorView{TensorInfo{TensorShape{1}, DataType::kInt64}, max.data()}}});
  CHECK(selected[0].info.shape == TensorShape{2, 3});
  CHECK(Values<std::int64_t>(selected[0].data) == I64s{0, 0, 1, 0, 0, 2});

  auto compress = OneNode(11, "Compress", {"x", "condition"}, {"y"}, node);
  auto* axis = node->add_attribute();
  axis->set_name("axis");
  axis->set_type(::onnx::AttributeProto::INT);
  axis->set_i(-1);
  AddInput(compress, "x", ::onnx::TensorProto::INT32, {2, 3});
  AddInput(compress, "condition", ::onnx::TensorProto::BOOL, {3});
  const std::vector<std::int32_t> x{1, 2, 3, 4, 5, 6};
  const std::vector<std::uint8_t> condition{1, 0, 1};
  const auto y = RunSession(compress, {{"x", ConstTensorView{TensorInfo{TensorShape{2, 3}, DataType::kInt32}, x.data()}},
                                       {"condition", ConstTensorView{TensorInfo{TensorShape{3}, DataType::kBool}, condition.data()}}});
  CHECK(y[0].info.shape == TensorShape{2, 2});
  CHECK(Values<std::int32_t>(y[0].data) == std::vector<std::int32_t>{1, 3, 4, 6});
}
