// ImportModel end to end: the committed models (tests/data, made by generate_models.py) import,
// run on CpuRef and match PyTorch's (or numpy's) outputs; malformed and unsupported models give
// the documented errors naming the file and the nodes.
#include <backplane/onnx_importer.hpp>

#include "model_builder.hpp"
#include "model_check.hpp"

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <string>

namespace {

using backplane::ErrorCode;
using backplane::Exception;
using backplane::TensorShape;
using backplane::onnx::ImportedModel;
using backplane::onnx::ImportModel;
using backplane::onnx::ImportModelFromMemory;
using backplane::onnx::ImportOptions;
using backplane::onnx::UnsupportedModelError;
using backplane::onnx::testing::AddFloatInitializer;
using backplane::onnx::testing::AddInts;
using backplane::onnx::testing::AddString;
using backplane::onnx::testing::Array;
using backplane::onnx::testing::CheckMatchesExpected;
using backplane::onnx::testing::DataPath;
using backplane::onnx::testing::ImportProto;
using backplane::onnx::testing::OneNode;
using backplane::onnx::testing::Run;
using backplane::onnx::testing::SetTensorType;
using backplane::onnx::testing::TempFile;

const std::string kData = DataPath("");

// The exception `call` throws; fails the test when it throws nothing or something else.
template <typename Error = Exception, typename Call>
Error Thrown(Call&& call) {
  try {
    call();
  } catch (const Error& error) {
    return error;
  }
  FAIL("no " << typeid(Error).name() << " was thrown");
  throw;  // unreachable
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TensorShape OutputShape(const ImportedModel& model, const std::string& layer) {
  return model.network.GetOutputInfo({model.network.FindLayer(layer), 0}).shape;
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// ---- Models from PyTorch ----------------------------------------------------------------------

TEST_CASE("mlp (Gemm, Relu, Tanh, Softmax, opset 13) matches PyTorch on CpuRef") {
  const ImportedModel model = ImportModel(DataPath("mlp.onnx"));
  CHECK(model.inputs == std::vector<std::string>{"input"});
  CHECK(model.outputs == std::vector<std::string>{"output"});
  CHECK(model.opset == 13);
  CHECK(Contains(model.producer, "pytorch"));
  CheckMatchesExpected(kData, "mlp");
}

TEST_CASE("cnn (Conv, BatchNormalization, pooling, Clip, HardSwish, Gemm) matches PyTorch on CpuRef") {
  CheckMatchesExpected(kData, "cnn");
}

TEST_CASE("transformer encoder layer, opset 17 (LayerNormalization, GELU as Erf) matches PyTorch on CpuRef") {
  const ImportedModel model = ImportModel(DataPath("transformer.onnx"));
  CHECK(model.opset == 17);
  CheckMatchesExpected(kData, "transformer");
}

TEST_CASE("transformer encoder layer, opset 13 (layer norm as ReduceMean/Pow/Sqrt) matches PyTorch on CpuRef") {
  CheckMatchesExpected(kData, "transformer_opset13");
}

TEST_CASE("rnn tagger (two bidirectional LSTM layers batch_first, a GRU, opset 14) matches PyTorch on CpuRef") {
  CheckMatchesExpected(kData, "rnn_tagger");
}

TEST_CASE("a dynamic batch is fixed by input_shapes, shape subgraphs are folded") {
  ImportOptions options;
  options.input_shapes["input"] = {2, 3, 4};
  SUBCASE("Shape/Gather/Concat/ConstantOfShape/Equal/Where/Expand folded") {
    const ImportedModel model = ImportModel(DataPath("shape_subgraph.onnx"), options);
    // The folded shape subgraph leaves no Shape-derived layers: only the compute remains.
    CHECK(model.network.GetNumLayers() < 20);
    CheckMatchesExpected(kData, "shape_subgraph", options);
  }
  SUBCASE("the dynamic MLP with batch 4 matches the static one") {
    options.input_shapes = {{"input", {4, 64}}};
    CheckMatchesExpected(kData, "mlp_dynamic", options, 1e-4, "mlp");
  }
}

// ---- Per-op attribute handling ----------------------------------------------------------------

TEST_CASE("Conv auto_pad SAME_UPPER, SAME_LOWER and VALID with stride 2") {
  const ImportedModel model = ImportModel(DataPath("op_conv_auto_pad.onnx"));
  CHECK(OutputShape(model, "conv_same_upper") == TensorShape{1, 3, 4, 4});
  CHECK(OutputShape(model, "conv_same_lower") == TensorShape{1, 3, 4, 4});
  CHECK(OutputShape(model, "conv_valid") == TensorShape{1, 3, 3, 3});
  CheckMatchesExpected(kData, "op_conv_auto_pad");
}

TEST_CASE("Softmax before opset 13 coerces to 2-D, from 13 it is per axis") {
  SUBCASE("opset 11, axis 1: Flatten, Softmax, Reshape") {
    const ImportedModel model = ImportModel(DataPath("op_softmax_opset11.onnx"));
    CHECK(OutputShape(model, "softmax/flatten") == TensorShape{2, 12});
    CHECK(OutputShape(model, "softmax") == TensorShape{2, 3, 4});
    CheckMatchesExpected(kData, "op_softmax_opset11");
  }
  SUBCASE("opset 11, default axis and last axis") { CheckMatchesExpected(kData, "op_softmax_opset11_axes"); }
  SUBCASE("opset 13, axis 1: one Softmax layer") {
    const ImportedModel model = ImportModel(DataPath("op_softmax_opset13.onnx"));
    CHECK_THROWS_AS(model.network.FindLayer("softmax/flatten"), Exception);
    CheckMatchesExpected(kData, "op_softmax_opset13");
  }
}

TEST_CASE("Clip takes min and max from inputs, each optional") { CheckMatchesExpected(kData, "op_clip"); }

TEST_CASE("Slice with negative steps, negative starts and clamped ends") {
  const ImportedModel model = ImportModel(DataPath("op_slice.onnx"));
  CHECK(OutputShape(model, "slice_negative") == TensorShape{4, 6, 2});
  CHECK(OutputShape(model, "slice_plain") == TensorShape{2, 4, 5});
  CheckMatchesExpected(kData, "op_slice");
}

TEST_CASE("MaxPool/AveragePool: ceil_mode, dilations, count_include_pad, auto_pad, GlobalMaxPool") {
  CheckMatchesExpected(kData, "op_pooling");
}

TEST_CASE("Gemm transA, alpha, beta and a broadcast C") { CheckMatchesExpected(kData, "op_gemm"); }

TEST_CASE("Split, Squeeze, Unsqueeze, Expand, Tile, Pad, Gather, Concat, Transpose, Flatten, ReduceSum/Mean") {
  CheckMatchesExpected(kData, "op_data_movement");
  // A Gather of one constant index is a Slice (then a Reshape dropping the axis of a scalar
  // index): backends without a gather kernel run it.
  const ImportedModel model = ImportModel(DataPath("op_data_movement.onnx"));
  CHECK_NOTHROW(model.network.FindLayer("gather_scalar/slice"));
  CHECK_NOTHROW(model.network.FindLayer("gather_one"));
  CHECK_THROWS(model.network.FindLayer("gather_one/slice"));
}

TEST_CASE("elementwise ops and activations (opset 14)") { CheckMatchesExpected(kData, "op_elementwise"); }

TEST_CASE("BatchNormalization (inference) and LayerNormalization over two axes (opset 17)") {
  CheckMatchesExpected(kData, "op_normalization");
}

TEST_CASE("nodes out of topological order are sorted") { CheckMatchesExpected(kData, "op_unsorted"); }

// ---- Files that must not import ---------------------------------------------------------------

TEST_CASE("a missing file is kNotFound naming it") {
  const auto error = Thrown([] { ImportModel(DataPath("no_such_model.onnx")); });
  CHECK(error.code() == ErrorCode::kNotFound);
  CHECK(Contains(error.what(), "no_such_model.onnx"));
}

TEST_CASE("an empty file is kInvalidArgument naming it") {
  const TempFile file("empty.onnx", "");
  const auto error = Thrown([&] { ImportModel(file.path()); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), file.path()));
  CHECK(Contains(error.what(), "empty"));
}

TEST_CASE("garbage bytes are kInvalidArgument naming the file") {
  std::mt19937 random(7);
  std::string garbage(4096, '\0');
  for (auto& c : garbage) c = static_cast<char>(random());
  const TempFile file("garbage.onnx", garbage);
  const auto error = Thrown([&] { ImportModel(file.path()); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), file.path()));
  CHECK(Contains(error.what(), "not a valid ONNX model"));
}

TEST_CASE("a truncated model is kInvalidArgument naming the file, wherever it is cut") {
  const std::string bytes = ReadFile(DataPath("mlp.onnx"));
  REQUIRE(bytes.size() > 1000);
  const TempFile file("truncated.onnx", bytes.substr(0, bytes.size() / 2));
  const auto error = Thrown([&] { ImportModel(file.path()); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), file.path()));
  for (std::size_t size = 1; size < bytes.size(); size += 331) {
    INFO("cut at " << size << " of " << bytes.size() << " bytes");
    const auto cut = Thrown([&] { ImportModelFromMemory(bytes.data(), size, "cut.onnx"); });
    CHECK(cut.code() == ErrorCode::kInvalidArgument);
    CHECK(Contains(cut.what(), "cut.onnx"));
  }
}

TEST_CASE("a file above max_model_bytes is refused before it is read") {
  ImportOptions options;
  options.max_model_bytes = 1000;
  const auto error = Thrown([&] { ImportModel(DataPath("mlp.onnx"), options); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), "max_model_bytes"));
}

TEST_CASE("hostile dims: an initializer claiming 4 TiB is an error, not an allocation") {
  const auto error = Thrown([] { ImportModel(DataPath("bad_huge_dims.onnx")); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), "bad_huge_dims.onnx"));
  CHECK(Contains(error.what(), "initializer 'w'"));
  CHECK(Contains(error.what(), "[1048576,1048576]"));
}

TEST_CASE("hostile dims: an input of 2^80 elements is an error") {
  const auto error = Thrown([] { ImportModel(DataPath("bad_huge_input.onnx")); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), "input 'x'"));
  CHECK(Contains(error.what(), "has more elements than a 64-bit count holds"));
}

TEST_CASE("a model onnx saved with external data (initializers and a Constant) matches numpy on CpuRef") {
  CheckMatchesExpected(kData, "external_data");
  const std::string bytes = ReadFile(DataPath("external_data.onnx"));
  const auto error = Thrown([&] { ImportModelFromMemory(bytes.data(), bytes.size(), "external_data.onnx"); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), "initializer 'w': external data 'external_data.bin': a model imported from memory"));
}

TEST_CASE("external data whose file is missing is a clear error") {
  const auto error = Thrown([] { ImportModel(DataPath("bad_external_data.onnx")); });
  CHECK(error.code() == ErrorCode::kNotFound);
  CHECK(std::string(error.what()) == DataPath("bad_external_data.onnx") +
                                         ": initializer 'w': external data 'bad_external_data.bin': no such file (" +
                                         (std::filesystem::path(BACKPLANE_ONNX_TEST_DATA) / "bad_external_data.bin").string() + ")");
}

TEST_CASE("every unsupported node is listed at once, with type, name, opset and reason") {
  const auto error = Thrown<UnsupportedModelError>([] { ImportModel(DataPath("bad_unsupported_ops.onnx")); });
  CHECK(error.code() == ErrorCode::kUnsupported);
  REQUIRE(error.nodes().size() == 2);
  CHECK(error.nodes()[0].op_type == "LpNormalization");
  CHECK(error.nodes()[0].node_name == "lpnorm1");
  CHECK(error.nodes()[0].opset == 13);
  CHECK(error.nodes()[0].reason == "not in op set v2");
  CHECK(error.nodes()[1].op_type == "Multinomial");
  CHECK(error.nodes()[1].node_name == "#2");  // unnamed: its index
  const std::string message = error.what();
  CHECK(Contains(message, "bad_unsupported_ops.onnx: the model has 2 unsupported nodes"));
  CHECK(Contains(message, "LpNormalization 'lpnorm1' (opset 13): not in op set v2"));
  CHECK(Contains(message, "Multinomial '#2' (opset 13): not in op set v2"));
}

TEST_CASE("a node of another domain is unsupported") {
  const auto error = Thrown<UnsupportedModelError>([] { ImportModel(DataPath("bad_custom_domain.onnx")); });
  REQUIRE(error.nodes().size() == 1);
  CHECK(error.nodes()[0].op_type == "FancyOp");
  CHECK(error.nodes()[0].opset == 1);
  CHECK(Contains(error.nodes()[0].reason, "domain 'com.example'"));
}

TEST_CASE("a node reading an undefined tensor is kInvalidArgument naming both") {
  const auto error = Thrown([] { ImportModel(DataPath("bad_undefined_input.onnx")); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), "node 'add' (Add) reads 'nowhere'"));
}

TEST_CASE("a Reshape whose shape is computed at run time is unsupported, with the reason") {
  const auto error = Thrown<UnsupportedModelError>([] { ImportModel(DataPath("bad_runtime_shape.onnx")); });
  REQUIRE(error.nodes().size() == 1);
  CHECK(error.nodes()[0].node_name == "reshape");
  CHECK(Contains(error.nodes()[0].reason, "'shape') is computed at run time"));
  CHECK(error.nodes()[0].value_inputs == std::vector<std::string>{"shape"});
}

TEST_CASE("ImportOptions::input_values makes an input a constant, so that what depends on it folds") {
  const std::vector<std::int64_t> shape{3, 2};
  ImportOptions options;
  options.input_values["shape"] = {backplane::TensorInfo{TensorShape{2}, backplane::DataType::kInt64}, shape.data()};
  const ImportedModel model = ImportModel(DataPath("bad_runtime_shape.onnx"), options);
  CHECK(model.inputs == std::vector<std::string>{"x"});
  CHECK(model.value_inputs == std::vector<std::string>{"shape"});
  backplane::NpyArray x{backplane::DataType::kFloat32, TensorShape{2, 3}, std::vector<std::uint8_t>(24)};
  CHECK(backplane::onnx::testing::RunImportedOnCpuRef(model, {{"x", x}}).outputs.at("y").shape == TensorShape{3, 2});

  SUBCASE("of another type or shape than the model's, or not an input, it is refused naming it") {
    const std::vector<std::int32_t> narrow{3, 2};
    options.input_values["shape"] = {backplane::TensorInfo{TensorShape{2}, backplane::DataType::kInt32}, narrow.data()};
    CHECK(Contains(Thrown([&] { ImportModel(DataPath("bad_runtime_shape.onnx"), options); }).what(),
                   "ImportOptions::input_values gives input 'shape' as i32; the model's input is i64"));
    options.input_values["shape"] = {backplane::TensorInfo{TensorShape{1}, backplane::DataType::kInt64}, shape.data()};
    CHECK(Contains(Thrown([&] { ImportModel(DataPath("bad_runtime_shape.onnx"), options); }).what(),
                   "ImportOptions::input_values gives input 'shape' dimension 0 = 1, but the model fixes it to 2"));
    options.input_values.clear();
    options.input_values["nowhere"] = {backplane::TensorInfo{TensorShape{2}, backplane::DataType::kInt64}, shape.data()};
    CHECK(Contains(Thrown([&] { ImportModel(DataPath("bad_runtime_shape.onnx"), options); }).what(),
                   "ImportOptions::input_values names 'nowhere', which is not an input of the model"));
  }
}

TEST_CASE("a dynamic dimension without input_shapes is an error naming the input and dimension") {
  const auto error = Thrown([] { ImportModel(DataPath("mlp_dynamic.onnx")); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(Contains(error.what(), "mlp_dynamic.onnx"));
  CHECK(Contains(error.what(), "input 'input' dimension 0 ('batch') is dynamic"));
  CHECK(Contains(error.what(), "input_shapes"));
}

TEST_CASE("input_shapes must name an input and agree with the model") {
  ImportOptions options;
  SUBCASE("unknown name") {
    options.input_shapes = {{"input", {4, 64}}, {"inptu", {4, 64}}};
    const auto error = Thrown([&] { ImportModel(DataPath("mlp_dynamic.onnx"), options); });
    CHECK(Contains(error.what(), "'inptu', which is not an input of the model (its inputs: input)"));
  }
  SUBCASE("wrong rank") {
    options.input_shapes = {{"input", {4, 8, 8}}};
    const auto error = Thrown([&] { ImportModel(DataPath("mlp_dynamic.onnx"), options); });
    CHECK(Contains(error.what(), "rank 3"));
  }
  SUBCASE("contradicts a fixed dimension") {
    options.input_shapes = {{"input", {4, 65}}};
    const auto error = Thrown([&] { ImportModel(DataPath("mlp_dynamic.onnx"), options); });
    CHECK(Contains(error.what(), "dimension 1 = 65, but the model fixes it to 64"));
  }
  SUBCASE("non-positive") {
    options.input_shapes = {{"input", {0, 64}}};
    const auto error = Thrown([&] { ImportModel(DataPath("mlp_dynamic.onnx"), options); });
    CHECK(Contains(error.what(), "must be positive"));
  }
}

// An opset-13 model with the graph input x (f32 [3]) and the graph output y, no nodes yet.
::onnx::ModelProto ModelFromXToY() {
  ::onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  auto* graph = model.mutable_graph();
  auto* input = graph->add_input();
  input->set_name("x");
  auto* tensor_type = input->mutable_type()->mutable_tensor_type();
  tensor_type->set_elem_type(::onnx::TensorProto::FLOAT);
  tensor_type->mutable_shape()->add_dim()->set_dim_value(3);
  graph->add_output()->set_name("y");
  return model;
}

// ModelFromXToY at `opset` with one node x -> `op_type` -> y; the caller adds attributes.
::onnx::ModelProto OneNodeModel(std::int64_t opset, const std::string& op_type, ::onnx::NodeProto*& node) {
  ::onnx::ModelProto model = ModelFromXToY();
  model.mutable_opset_import(0)->set_version(opset);
  node = model.mutable_graph()->add_node();
  node->set_op_type(op_type);
  node->set_name(op_type);
  node->add_input("x");
  node->add_output("y");
  return model;
}

TEST_CASE("opsets 1 to 21 import, older forms mapped, others are unsupported") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNodeModel(22, "Relu", node);
  const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(model); });
  CHECK(Contains(error.what(), "opset 22"));
  CHECK(Contains(error.what(), "1 to 21"));
  CHECK(ImportProto(OneNodeModel(1, "Relu", node)).opset == 1);

  // Slice before opset 10 and Pad before 11 take attributes, not inputs.
  auto output_shape = [](const ImportedModel& imported, const std::string& layer) {
    return imported.network.GetOutputInfo({imported.network.FindLayer(layer), 0}).shape;
  };
  model = OneNodeModel(9, "Slice", node);
  AddInts(*node, "starts", {1});
  AddInts(*node, "ends", {3});
  CHECK(output_shape(ImportProto(model), "Slice") == TensorShape{2});
  model = OneNodeModel(10, "Pad", node);
  AddInts(*node, "pads", {1, 2});
  CHECK(output_shape(ImportProto(model), "Pad") == TensorShape{6});
  model = OneNodeModel(13, "Slice", node);  // the inputs form: starts and ends required
  CHECK(Thrown([&] { ImportProto(model); }).code() == ErrorCode::kInvalidArgument);
  model = OneNodeModel(4, "Reshape", node);  // shape an attribute before opset 5
  AddInts(*node, "shape", {3, 1});
  CHECK(output_shape(ImportProto(model), "Reshape") == TensorShape{3, 1});

  // A form the importer does not read is refused naming the node and the opset it reads from.
  model = OneNodeModel(5, "Tile", node);
  const auto old_tile = Thrown<UnsupportedModelError>([&] { ImportProto(model); });
  CHECK(old_tile.nodes().at(0).reason == "its opset-5 form is not read (the importer reads Tile from opset 6)");
}

TEST_CASE("before opset 7, broadcast=1 with axis lines B up from that axis") {
  // x [3] + b [2,3,4] would not broadcast in numpy's terms; opset 6's axis=1 puts x on axis 1.
  ::onnx::ModelProto model = ModelFromXToY();
  model.mutable_opset_import(0)->set_version(6);
  auto* b = model.mutable_graph()->add_input();
  b->set_name("b");
  auto* type = b->mutable_type()->mutable_tensor_type();
  type->set_elem_type(::onnx::TensorProto::FLOAT);
  for (const int d : {2, 3, 4}) type->mutable_shape()->add_dim()->set_dim_value(d);
  auto* node = model.mutable_graph()->add_node();
  node->set_op_type("Add");
  node->set_name("add");
  node->add_input("b");
  node->add_input("x");
  node->add_output("y");
  auto* broadcast = node->add_attribute();
  broadcast->set_name("broadcast");
  broadcast->set_type(::onnx::AttributeProto::INT);
  broadcast->set_i(1);
  auto* axis = node->add_attribute();
  axis->set_name("axis");
  axis->set_type(::onnx::AttributeProto::INT);
  axis->set_i(1);
  const ImportedModel imported = ImportProto(model);
  CHECK(imported.network.GetOutputInfo({imported.network.FindLayer("add"), 0}).shape == TensorShape{2, 3, 4});
  CHECK(imported.network.GetOutputInfo({imported.network.FindLayer("add/b"), 0}).shape == TensorShape{3, 1});
}

TEST_CASE("a node missing a required input is kInvalidArgument naming it") {
  ::onnx::ModelProto model = ModelFromXToY();
  auto* node = model.mutable_graph()->add_node();
  node->set_op_type("Add");
  node->set_name("half_add");
  node->add_input("x");
  node->add_output("y");
  const std::string bytes = model.SerializeAsString();
  const auto error = Thrown([&] { ImportModelFromMemory(bytes.data(), bytes.size(), "arity.onnx"); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(std::string(error.what()) == "arity.onnx: node 'half_add' (Add): has 1 inputs; the op takes 2");
}

// x [3] -> Dropout(x, ratio, training_mode) -> y, with ratio and training_mode initializers.
std::string DropoutModel(float ratio, bool training) {
  ::onnx::ModelProto model = ModelFromXToY();
  auto* graph = model.mutable_graph();
  auto* ratio_tensor = graph->add_initializer();
  ratio_tensor->set_name("ratio");
  ratio_tensor->set_data_type(::onnx::TensorProto::FLOAT);
  ratio_tensor->add_float_data(ratio);
  auto* training_tensor = graph->add_initializer();
  training_tensor->set_name("training_mode");
  training_tensor->set_data_type(::onnx::TensorProto::BOOL);
  training_tensor->add_int32_data(training ? 1 : 0);
  auto* node = graph->add_node();
  node->set_op_type("Dropout");
  node->set_name("drop");
  for (const char* name : {"x", "ratio", "training_mode"}) node->add_input(name);
  node->add_output("y");
  return model.SerializeAsString();
}

TEST_CASE("Dropout is the identity at inference and in training mode with ratio 0, unsupported otherwise") {
  for (const auto& [ratio, training] : {std::pair<float, bool>{0.5f, false}, {0.0f, true}, {0.0f, false}}) {
    CAPTURE(ratio);
    CAPTURE(training);
    const std::string bytes = DropoutModel(ratio, training);
    CHECK_NOTHROW(ImportModelFromMemory(bytes.data(), bytes.size(), "dropout.onnx"));
  }
  const std::string bytes = DropoutModel(0.1f, true);
  const auto error = Thrown([&] { ImportModelFromMemory(bytes.data(), bytes.size(), "dropout.onnx"); });
  CHECK(error.code() == ErrorCode::kUnsupported);
  CHECK(Contains(error.what(), "Dropout 'drop' (opset 13): training_mode true with a ratio other than 0"));
}

TEST_CASE("randomly mutated models import or throw backplane::Exception, never crash") {
  std::mt19937 random(2024);
  int imported = 0, refused = 0;
  for (const char* stem : {"mlp", "cnn", "shape_subgraph", "op_data_movement", "op_pooling", "op_slice"}) {
    const std::string original = ReadFile(DataPath(std::string(stem) + ".onnx"));
    for (int i = 0; i < 150; ++i) {
      std::string bytes = original;
      for (int k = 0, n = 1 + static_cast<int>(random() % 6); k < n; ++k) {
        bytes[random() % bytes.size()] = static_cast<char>(random());
      }
      ImportOptions options;
      options.input_shapes["input"] = {2, 3, 4};  // shape_subgraph's dynamic batch
      if (std::string(stem) != "shape_subgraph") options.input_shapes.clear();
      try {
        ImportModelFromMemory(bytes.data(), bytes.size(), "mutated.onnx", options);
        ++imported;
      } catch (const Exception& error) {
        CHECK(error.code() != ErrorCode::kInternal);
        CHECK(Contains(error.what(), "mutated.onnx"));
        ++refused;
      }
    }
  }
  CHECK(imported + refused == 900);
}

// ---- Ops composed from other layers (convert_composed.cpp) ------------------------------------

using backplane::DataType;
using backplane::NpyArray;
using backplane::onnx::testing::Floats;
using backplane::onnx::testing::RunImportedOnCpuRef;

TEST_CASE("PRelu is x < 0 ? x * slope : x, exact for -0, NaN and infinities, per channel before opset 7") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  ::onnx::NodeProto* node = nullptr;
  SUBCASE("opset 16, slope [3] broadcast over the last axis") {
    auto model = OneNode(16, "PRelu", {"x", "slope"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {2, 3});
    AddFloatInitializer(*model.mutable_graph(), "slope", {3}, {0.5f, inf, 2.0f});
    CHECK_NOTHROW(ImportProto(model).network.FindLayer("PRelu/negative"));  // the layer form
    const NpyArray x = Array<float>(DataType::kFloat32, {2, 3}, {-2, -inf, -0.0f, nan, 4, -3});
    const auto y = Floats(Run(model, {{"x", x}}).at("y"));
    CHECK(y[0] == -1.0f);
    CHECK(y[1] == -inf);
    CHECK(y[2] == 0.0f);
    CHECK(std::signbit(y[2]));  // -0 is not < 0: x itself
    CHECK(std::isnan(y[3]));
    CHECK(y[4] == 4.0f);  // not 4 + inf * 0 (NaN), as max(x,0) + slope*min(x,0) would give
    CHECK(y[5] == -6.0f);
  }
  SUBCASE("opset 6, slope [C] per channel (axis 1)") {
    auto model = OneNode(6, "PRelu", {"x", "slope"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 2, 2});
    AddFloatInitializer(*model.mutable_graph(), "slope", {2}, {0.5f, 3.0f});
    const auto y = Floats(Run(model, {{"x", Array<float>(DataType::kFloat32, {1, 2, 2}, {-2, 4, -2, 4})}}).at("y"));
    CHECK(y == std::vector<float>{-1, 4, -6, 4});
  }
  SUBCASE("on constants it folds: no PRelu layers") {
    auto model = OneNode(16, "PRelu", {"x", "slope"}, {"y"}, node);
    AddFloatInitializer(*model.mutable_graph(), "x", {3}, {-2, 0, 3});
    AddFloatInitializer(*model.mutable_graph(), "slope", {1}, {0.25f});
    const ImportedModel imported = ImportProto(model);
    CHECK_THROWS_AS(imported.network.FindLayer("PRelu/negative"), Exception);
    CHECK(Floats(RunImportedOnCpuRef(imported, {}).outputs.at("y")) == std::vector<float>{-0.5f, 0, 3});
  }
  SUBCASE("a slope that does not broadcast to x is an error naming both shapes") {
    auto model = OneNode(16, "PRelu", {"x", "slope"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {2, 3});
    AddFloatInitializer(*model.mutable_graph(), "slope", {4, 1}, {1, 2, 3, 4});
    const auto error = Thrown([&] { ImportProto(model); });
    CHECK(Contains(error.what(), "slope [4,1] and X [2,3]: the slope must broadcast to X"));
  }
}

TEST_CASE("OneHot: negative indices count from the end, out-of-range ones give rows of off") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(11, "OneHot", {"indices", "depth", "values"}, {"y"}, node);
  auto* graph = model.mutable_graph();
  AddFloatInitializer(*graph, "depth", {}, {3.0f});
  AddFloatInitializer(*graph, "values", {2}, {-1.0f, 5.0f});
  const std::vector<std::int64_t> indices{1, -1, 3, -4, -3, 0};
  // Independently: the row of index i (after i += 3 when negative) has `on` at i when 0 <= i < 3.
  auto expected_at = [&](std::size_t row, std::int64_t position) {
    const std::int64_t i = indices[row] < 0 ? indices[row] + 3 : indices[row];
    return i == position ? 5.0f : -1.0f;
  };
  SUBCASE("int64 indices, default axis -1: [6, 3]") {
    SetTensorType(*graph->add_input(), "indices", ::onnx::TensorProto::INT64, {6});
    const NpyArray y = Run(model, {{"indices", Array<std::int64_t>(DataType::kInt64, {6}, indices)}}).at("y");
    CHECK(y.shape == TensorShape{6, 3});
    const auto values = Floats(y);
    for (std::size_t row = 0; row < 6; ++row) {
      for (std::int64_t p = 0; p < 3; ++p) CHECK(values[row * 3 + static_cast<std::size_t>(p)] == expected_at(row, p));
    }
  }
  SUBCASE("int32 indices [2, 3], axis 0: [3, 2, 3]") {
    SetTensorType(*graph->add_input(), "indices", ::onnx::TensorProto::INT32, {2, 3});
    auto* axis = node->add_attribute();
    axis->set_name("axis");
    axis->set_type(::onnx::AttributeProto::INT);
    axis->set_i(0);
    const std::vector<std::int32_t> narrow(indices.begin(), indices.end());
    const NpyArray y = Run(model, {{"indices", Array<std::int32_t>(DataType::kInt32, {2, 3}, narrow)}}).at("y");
    CHECK(y.shape == TensorShape{3, 2, 3});
    const auto values = Floats(y);
    for (std::int64_t p = 0; p < 3; ++p) {
      for (std::size_t row = 0; row < 6; ++row) {
        CHECK(values[static_cast<std::size_t>(p) * 6 + row] == expected_at(row, p));
      }
    }
  }
  SUBCASE("a depth computed at run time is unsupported, naming the input") {
    graph->mutable_initializer()->DeleteSubrange(0, 1);
    SetTensorType(*graph->add_input(), "indices", ::onnx::TensorProto::INT64, {6});
    SetTensorType(*graph->add_input(), "depth", ::onnx::TensorProto::FLOAT, {});
    const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(model); });
    CHECK(error.nodes().at(0).reason == "input 1 (depth, 'depth') is computed at run time; the importer needs its value");
    CHECK(error.nodes().at(0).value_inputs == std::vector<std::string>{"depth"});
    CHECK(Contains(error.what(), "(from the value of input 'depth')"));
  }
}

TEST_CASE("DepthToSpace CRD and DCR, SpaceToDepth inverts DCR") {
  ::onnx::NodeProto* node = nullptr;
  const std::int64_t b = 2, c = 2, h = 2, w = 3;  // x [1, c*b*b, h, w] -> y [1, c, h*b, w*b]
  std::vector<float> x(static_cast<std::size_t>(c * b * b * h * w));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto model_of = [&](const std::string& op, const std::string& mode, const std::vector<std::int64_t>& dims) {
    auto model = OneNode(13, op, {"x"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, dims);
    auto* blocksize = node->add_attribute();
    blocksize->set_name("blocksize");
    blocksize->set_type(::onnx::AttributeProto::INT);
    blocksize->set_i(b);
    if (!mode.empty()) AddString(*node, "mode", mode);
    return model;
  };
  for (const std::string mode : {"CRD", "DCR"}) {
    CAPTURE(mode);
    const NpyArray y = Run(model_of("DepthToSpace", mode, {1, c * b * b, h, w}),
                           {{"x", Array<float>(DataType::kFloat32, {1, c * b * b, h, w}, x)}}).at("y");
    REQUIRE(y.shape == TensorShape{1, c, h * b, w * b});
    const auto values = Floats(y);
    // y[0, k, r*b + i, s*b + j] = x[0, depth, r, s]; CRD: depth = k*b*b + i*b + j, DCR: (i*b + j)*c + k.
    for (std::int64_t k = 0; k < c; ++k) {
      for (std::int64_t row = 0; row < h * b; ++row) {
        for (std::int64_t col = 0; col < w * b; ++col) {
          const std::int64_t i = row % b, j = col % b;
          const std::int64_t depth = mode == "CRD" ? k * b * b + i * b + j : (i * b + j) * c + k;
          CHECK(values[static_cast<std::size_t>((k * h * b + row) * w * b + col)] ==
                x[static_cast<std::size_t>((depth * h + row / b) * w + col / b)]);
        }
      }
    }
    if (mode == "DCR") {
      const NpyArray back = Run(model_of("SpaceToDepth", "", {1, c, h * b, w * b}), {{"x", y}}).at("y");
      CHECK(Floats(back) == x);
    }
  }
}

TEST_CASE("LayerNormalization's Mean and InvStdDev outputs over the axes from `axis`") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(17, "LayerNormalization", {"x", "scale"}, {"y", "mean", "inv_std_dev"}, node);
  SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {2, 2, 3});
  AddFloatInitializer(*model.mutable_graph(), "scale", {2, 3}, {1, 1, 1, 1, 1, 1});
  auto* axis = node->add_attribute();
  axis->set_name("axis");
  axis->set_type(::onnx::AttributeProto::INT);
  axis->set_i(-2);
  const float epsilon = 0.5f;
  auto* eps = node->add_attribute();
  eps->set_name("epsilon");
  eps->set_type(::onnx::AttributeProto::FLOAT);
  eps->set_f(epsilon);
  const std::vector<float> x{1, 2, 3, 4, 5, 6, -1, 0, 2, 8, -4, 1};
  const auto outputs = Run(model, {{"x", Array<float>(DataType::kFloat32, {2, 2, 3}, x)}});
  CHECK(outputs.at("mean").shape == TensorShape{2, 1, 1});
  CHECK(outputs.at("inv_std_dev").shape == TensorShape{2, 1, 1});
  const auto mean = Floats(outputs.at("mean"));
  const auto inv_std_dev = Floats(outputs.at("inv_std_dev"));
  const auto y = Floats(outputs.at("y"));
  for (std::size_t n = 0; n < 2; ++n) {
    double sum = 0, squares = 0;
    for (std::size_t i = 0; i < 6; ++i) sum += x[n * 6 + i];
    const double expected_mean = sum / 6;
    for (std::size_t i = 0; i < 6; ++i) squares += (x[n * 6 + i] - expected_mean) * (x[n * 6 + i] - expected_mean);
    const double expected_inv = 1 / std::sqrt(squares / 6 + epsilon);
    CHECK(mean[n] == doctest::Approx(expected_mean).epsilon(1e-6));
    CHECK(inv_std_dev[n] == doctest::Approx(expected_inv).epsilon(1e-6));
    for (std::size_t i = 0; i < 6; ++i) {
      CHECK(y[n * 6 + i] == doctest::Approx((x[n * 6 + i] - expected_mean) * expected_inv).epsilon(1e-5));
    }
  }
}

TEST_CASE("Clip with bounds computed at run time is Max then Min, for f32 and integers") {
  ::onnx::NodeProto* node = nullptr;
  SUBCASE("f32, both bounds graph inputs; min above max gives max (numpy.clip)") {
    auto model = OneNode(13, "Clip", {"x", "low", "high"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {4});
    SetTensorType(*model.mutable_graph()->add_input(), "low", ::onnx::TensorProto::FLOAT, {});
    SetTensorType(*model.mutable_graph()->add_input(), "high", ::onnx::TensorProto::FLOAT, {});
    const auto imported = ImportProto(model);
    CHECK_NOTHROW(imported.network.FindLayer("Clip/at_least_min"));
    const NpyArray x = Array<float>(DataType::kFloat32, {4}, {-3, -1, 2, 5});
    const auto run = [&](float low, float high) {
      return Floats(Run(model, {{"x", x},
                                {"low", Array<float>(DataType::kFloat32, TensorShape{}, {low})},
                                {"high", Array<float>(DataType::kFloat32, TensorShape{}, {high})}})
                        .at("y"));
    };
    CHECK(run(-2, 3) == std::vector<float>{-2, -1, 2, 3});
    CHECK(run(4, 1) == std::vector<float>{1, 1, 1, 1});
  }
  SUBCASE("i8 with a run-time max only, and with no bounds (the input itself)") {
    auto model = OneNode(13, "Clip", {"x", "", "high"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::INT8, {3});
    SetTensorType(*model.mutable_graph()->add_input(), "high", ::onnx::TensorProto::INT8, {});
    const NpyArray x = Array<std::int8_t>(DataType::kInt8, {3}, {-100, 7, 100});
    const NpyArray y =
        Run(model, {{"x", x}, {"high", Array<std::int8_t>(DataType::kInt8, TensorShape{}, {10})}}).at("y");
    CHECK(y.data == std::vector<std::uint8_t>{static_cast<std::uint8_t>(-100), 7, 10});
    auto unbounded = OneNode(13, "Clip", {"x"}, {"y"}, node);
    SetTensorType(*unbounded.mutable_graph()->add_input(), "x", ::onnx::TensorProto::INT8, {3});
    CHECK(Run(unbounded, {{"x", x}}).at("y").data == x.data);
  }
  SUBCASE("a bound of another type is a model error naming both") {
    auto model = OneNode(13, "Clip", {"x", "low"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {3});
    SetTensorType(*model.mutable_graph()->add_input(), "low", ::onnx::TensorProto::INT8, {});
    const auto error = Thrown([&] { ImportProto(model); });
    CHECK(Contains(error.what(), "min is i8 and the input f32"));
  }
}

TEST_CASE("EyeLike folds to a constant of its dtype, and another dtype is unsupported naming the type") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(9, "EyeLike", {"x"}, {"y"}, node);
  SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::INT32, {2, 3});
  auto* k = node->add_attribute();
  k->set_name("k");
  k->set_type(::onnx::AttributeProto::INT);
  k->set_i(-1);
  auto* dtype = node->add_attribute();
  dtype->set_name("dtype");
  dtype->set_type(::onnx::AttributeProto::INT);
  dtype->set_i(::onnx::TensorProto::FLOAT);
  const auto outputs = Run(model, {{"x", Array<std::int32_t>(DataType::kInt32, {2, 3}, {0, 0, 0, 0, 0, 0})}});
  CHECK(Floats(outputs.at("y")) == std::vector<float>{0, 0, 0, 1, 0, 0});
  dtype->set_i(::onnx::TensorProto::COMPLEX64);
  const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(model); });
  CHECK(error.nodes().at(0).reason == "dtype COMPLEX64");
}

TEST_CASE("ConvTranspose: output_shape and auto_pad become pads and output_padding (ONNX's formulas)") {
  // x [1, 2, 3] through taps [1, 10, 100], stride 2: unpadded, the 7 outputs are
  // [1, 10, 102, 20, 203, 30, 300] (inputs 1, 2, 3 at 0, 2, 4).
  ::onnx::NodeProto* node = nullptr;
  auto model_with = [&](const std::string& auto_pad, const std::vector<std::int64_t>& output_shape) {
    auto model = OneNode(11, "ConvTranspose", {"x", "w"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 1, 3});
    AddFloatInitializer(*model.mutable_graph(), "w", {1, 1, 3}, {1, 10, 100});
    AddInts(*node, "strides", {2});
    if (!output_shape.empty()) AddInts(*node, "output_shape", output_shape);
    if (!auto_pad.empty()) AddString(*node, "auto_pad", auto_pad);
    return model;
  };
  const auto run = [&](const ::onnx::ModelProto& model) {
    return Floats(Run(model, {{"x", Array<float>(DataType::kFloat32, {1, 1, 3}, {1, 2, 3})}}).at("y"));
  };
  CHECK(run(model_with("", {})) == std::vector<float>{1, 10, 102, 20, 203, 30, 300});
  // SAME_*: output = input * stride = 6, the one pad at the end (UPPER) or the begin (LOWER).
  CHECK(run(model_with("SAME_UPPER", {})) == std::vector<float>{1, 10, 102, 20, 203, 30});
  CHECK(run(model_with("SAME_LOWER", {})) == std::vector<float>{10, 102, 20, 203, 30, 300});
  // output_shape 8: total padding -1 puts 0 at the begin and -1 at the end, an output_padding of 1.
  CHECK(run(model_with("", {8})) == std::vector<float>{1, 10, 102, 20, 203, 30, 300, 0});
  CHECK(run(model_with("", {1, 1, 5})) == std::vector<float>{10, 102, 20, 203, 30});  // given with N and M
  // output_shape 9: -2, split -1 and -1; a negative leading pad is not representable.
  const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(model_with("", {9})); });
  CHECK(error.nodes().at(0).reason == "output_shape [9] needs a negative leading pad along spatial axis 0");

  auto mismatch = model_with("", {});
  AddInts(*node, "kernel_shape", {2});
  CHECK(Contains(Thrown([&] { ImportProto(mismatch); }).what(), "kernel_shape [2] disagrees with the weights [1,1,3]"));
}

// ---- Op set v2 breadth: Clip of integers, Dropout's mask, ScatterND at run time, mixed Pow ------

void AddInitializer(::onnx::GraphProto& graph, const std::string& name, int elem_type,
                    const std::vector<std::int64_t>& dims, const std::vector<std::int64_t>& values) {
  auto* tensor = graph.add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(elem_type);
  for (const auto d : dims) tensor->add_dims(d);
  for (const auto v : values) {
    if (elem_type == ::onnx::TensorProto::INT64) {
      tensor->add_int64_data(v);
    } else {
      tensor->add_int32_data(static_cast<std::int32_t>(v));
    }
  }
}

TEST_CASE("Clip of i8 is Max and Min with bounds of x's type, constant or run-time, and without bounds y is x") {
  ::onnx::NodeProto* node = nullptr;
  const NpyArray x = Array<std::int8_t>(DataType::kInt8, {5}, {-128, -3, 0, 2, 127});
  SUBCASE("constant min and max") {
    auto model = OneNode(13, "Clip", {"x", "min", "max"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::INT8, {5});
    AddInitializer(*model.mutable_graph(), "min", ::onnx::TensorProto::INT8, {}, {-2});
    AddInitializer(*model.mutable_graph(), "max", ::onnx::TensorProto::INT8, {}, {1});
    CHECK(Run(model, {{"x", x}}).at("y").data == std::vector<std::uint8_t>{0xfe, 0xfe, 0, 1, 1});
  }
  SUBCASE("a run-time max only") {
    auto model = OneNode(13, "Clip", {"x", "", "max"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::INT8, {5});
    SetTensorType(*model.mutable_graph()->add_input(), "max", ::onnx::TensorProto::INT8, {});
    const auto y = Run(model, {{"x", x}, {"max", Array<std::int8_t>(DataType::kInt8, {}, {0})}}).at("y");
    CHECK(y.data == std::vector<std::uint8_t>{0x80, 0xfd, 0, 0, 0});
  }
  SUBCASE("no bounds") {
    auto model = OneNode(13, "Clip", {"x"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::INT8, {5});
    CHECK(Run(model, {{"x", x}}).at("y").data == x.data);
  }
  SUBCASE("a bound of another type is an error naming both") {
    auto model = OneNode(13, "Clip", {"x", "min"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::INT8, {5});
    AddInitializer(*model.mutable_graph(), "min", ::onnx::TensorProto::INT32, {}, {-2});
    CHECK(Contains(Thrown([&] { ImportProto(model); }).what(), "min is i32 and the input i8"));
  }
}

TEST_CASE("Dropout's mask output at inference is all true, x's shape") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(13, "Dropout", {"x"}, {"y", "mask"}, node);
  SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {2, 3});
  const NpyArray x = Array<float>(DataType::kFloat32, {2, 3}, {0, -1, 2, std::nanf(""), 4, 5});
  const auto outputs = Run(model, {{"x", x}});
  CHECK(outputs.at("y").data == x.data);
  CHECK(outputs.at("mask").type == DataType::kBool);
  CHECK(outputs.at("mask").shape == TensorShape{2, 3});
  CHECK(outputs.at("mask").data == std::vector<std::uint8_t>(6, 1));
}

TEST_CASE("ScatterND with index tuples of 1 runs as ScatterElements along axis 0, longer tuples are unsupported") {
  ::onnx::NodeProto* node = nullptr;
  const NpyArray data = Array<float>(DataType::kFloat32, {4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  const NpyArray updates = Array<float>(DataType::kFloat32, {2, 2}, {10, 11, 12, 13});
  auto model = OneNode(16, "ScatterND", {"data", "indices", "updates"}, {"y"}, node);
  SetTensorType(*model.mutable_graph()->add_input(), "data", ::onnx::TensorProto::FLOAT, {4, 2});
  SetTensorType(*model.mutable_graph()->add_input(), "updates", ::onnx::TensorProto::FLOAT, {2, 2});
  SUBCASE("run-time indices, rows 3 and -4 (0) replaced") {
    SetTensorType(*model.mutable_graph()->add_input(), "indices", ::onnx::TensorProto::INT64, {2, 1});
    const NpyArray indices = Array<std::int64_t>(DataType::kInt64, {2, 1}, {3, -4});
    const auto y = Floats(Run(model, {{"data", data}, {"indices", indices}, {"updates", updates}}).at("y"));
    CHECK(y == std::vector<float>{12, 13, 2, 3, 4, 5, 10, 11});
  }
  SUBCASE("constant indices, reduction add, a row twice") {
    AddString(*node, "reduction", "add");
    AddInitializer(*model.mutable_graph(), "indices", ::onnx::TensorProto::INT64, {2, 1}, {1, 1});
    const auto y = Floats(Run(model, {{"data", data}, {"updates", updates}}).at("y"));
    CHECK(y == std::vector<float>{0, 1, 2 + 10 + 12, 3 + 11 + 13, 4, 5, 6, 7});
  }
  SUBCASE("tuples of 2 entries") {
    AddInitializer(*model.mutable_graph(), "indices", ::onnx::TensorProto::INT64, {2, 2}, {0, 1, 3, 0});
    const auto error = Thrown([&] { ImportProto(model); });
    CHECK(error.code() == ErrorCode::kUnsupported);
    CHECK(Contains(error.what(), "index tuples of 2 entries (indices [2,2])"));
  }
}

TEST_CASE("Pow keeps the base's type: an int base by a float exponent truncates, an exact constant exponent takes the base's type") {
  ::onnx::NodeProto* node = nullptr;
  SUBCASE("i32 base, run-time f32 exponent") {
    auto model = OneNode(15, "Pow", {"x", "e"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::INT32, {3});
    SetTensorType(*model.mutable_graph()->add_input(), "e", ::onnx::TensorProto::FLOAT, {3});
    const auto y = Run(model, {{"x", Array<std::int32_t>(DataType::kInt32, {3}, {4, 2, 3})},
                               {"e", Array<float>(DataType::kFloat32, {3}, {0.5f, 3, 0.5f})}})
                       .at("y");
    CHECK(y.type == DataType::kInt32);
    std::vector<std::int32_t> values(3);
    std::memcpy(values.data(), y.data.data(), 12);
    CHECK(values == std::vector<std::int32_t>{2, 8, 1});  // 3 ** 0.5 = 1.73, not 3 ** 0
  }
  SUBCASE("f32 base, constant i64 exponent 2 stored as f32") {
    auto model = OneNode(15, "Pow", {"x", "e"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {2});
    AddInitializer(*model.mutable_graph(), "e", ::onnx::TensorProto::INT64, {}, {2});
    const ImportedModel imported = ImportProto(model);
    CHECK(imported.network.GetOutputInfo({imported.network.FindLayer("Pow/exponent"), 0}).type == DataType::kFloat32);
    CHECK(Floats(RunImportedOnCpuRef(imported, {{"x", Array<float>(DataType::kFloat32, {2}, {3, -1.5f})}})
                     .outputs.at("y")) == std::vector<float>{9, 2.25f});
  }
}

TEST_CASE("Conv, MaxPool and the global pools over 3 spatial axes: auto_pad and values") {
  // x [1, 1, 2, 1, 3] holds rows [1, 2, 3] and [4, 5, 6] (D = 2, H = 1, W = 3).
  const auto x = Array<float>(DataType::kFloat32, {1, 1, 2, 1, 3}, {1, 2, 3, 4, 5, 6});
  ::onnx::NodeProto* node = nullptr;
  // Taps [1, 10] along W; SAME_* keeps W = 3 with one pad, at the end (UPPER) or the begin (LOWER).
  auto conv = [&](const std::string& auto_pad) {
    auto model = OneNode(13, "Conv", {"x", "w"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 1, 2, 1, 3});
    AddFloatInitializer(*model.mutable_graph(), "w", {1, 1, 1, 1, 2}, {1, 10});
    AddString(*node, "auto_pad", auto_pad);
    return model;
  };
  const auto run = [&](const ::onnx::ModelProto& model) { return Floats(Run(model, {{"x", x}}).at("y")); };
  CHECK(run(conv("SAME_UPPER")) == std::vector<float>{21, 32, 3, 54, 65, 6});
  CHECK(run(conv("SAME_LOWER")) == std::vector<float>{10, 21, 32, 40, 54, 65});
  CHECK(run(conv("VALID")) == std::vector<float>{21, 32, 54, 65});

  // MaxPool 2 x 1 x 2 with strides 1 and explicit pads: one leading pad on W.
  auto pool = OneNode(12, "MaxPool", {"x"}, {"y"}, node);
  SetTensorType(*pool.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 1, 2, 1, 3});
  AddInts(*node, "kernel_shape", {2, 1, 2});
  AddInts(*node, "pads", {0, 0, 1, 0, 0, 0});
  CHECK(run(pool) == std::vector<float>{4, 5, 6});

  auto global = OneNode(13, "GlobalAveragePool", {"x"}, {"y"}, node);
  SetTensorType(*global.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 1, 2, 1, 3});
  const auto averaged = Run(global, {{"x", x}}).at("y");
  CHECK(averaged.shape == TensorShape{1, 1, 1, 1, 1});
  CHECK(Floats(averaged) == std::vector<float>{3.5f});

  auto four = OneNode(13, "GlobalMaxPool", {"x"}, {"y"}, node);
  SetTensorType(*four.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 1, 2, 1, 3, 1});
  const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(four); });
  CHECK(error.nodes().at(0).reason ==
        "the input has shape [1,1,2,1,3,1]; GlobalMaxPool runs over 1 to 3 spatial dimensions ([N, C, L], "
        "[N, C, H, W] or [N, C, D, H, W])");
}

// ---- Op set v2: BitShift, GridSample (convert_elementwise.cpp, convert_resize.cpp) -----------

TEST_CASE("BitShift shifts unsigned integers LEFT or RIGHT, a shift by the bit width giving 0") {
  ::onnx::NodeProto* node = nullptr;
  const auto shift = [&](const std::string& direction) {
    auto model = OneNode(11, "BitShift", {"x", "n"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::UINT32, {3});
    SetTensorType(*model.mutable_graph()->add_input(), "n", ::onnx::TensorProto::UINT32, {3});
    AddString(*node, "direction", direction);
    return model;
  };
  const NpyArray x = Array<std::uint32_t>(DataType::kUInt32, {3}, {16, 4, 0xFFFFFFFFu});
  const NpyArray n = Array<std::uint32_t>(DataType::kUInt32, {3}, {1, 2, 32});
  const auto values = [](const NpyArray& y) {
    std::vector<std::uint32_t> v(y.data.size() / sizeof(std::uint32_t));
    std::memcpy(v.data(), y.data.data(), y.data.size());
    return v;
  };
  const NpyArray left = Run(shift("LEFT"), {{"x", x}, {"n", n}}).at("y");
  CHECK(left.type == DataType::kUInt32);
  CHECK(values(left) == std::vector<std::uint32_t>{32, 16, 0});
  CHECK(values(Run(shift("RIGHT"), {{"x", x}, {"n", n}}).at("y")) == std::vector<std::uint32_t>{8, 1, 0});
  const auto error = Thrown([&] { ImportProto(shift("UP")); });
  CHECK(Contains(error.what(), "direction must be LEFT or RIGHT, is 'UP'"));
}

TEST_CASE("GridSample imports its modes, padding modes and align_corners, over 2 spatial axes only") {
  // Values from ONNX's reference (plugins/reference/ops/grid_sample_test.cpp has the generator).
  const std::vector<float> offsets{0, 1, 0, 2, 1, 0, 3, 0, 0, 2, 0, 1};
  std::vector<float> image;
  for (int i = 0; i < 12; ++i) image.push_back(0.5f * static_cast<float>(i) + offsets[static_cast<std::size_t>(i)]);
  const NpyArray x = Array<float>(DataType::kFloat32, {1, 1, 3, 4}, image);
  const NpyArray grid = Array<float>(DataType::kFloat32, {1, 2, 3, 2},
                                     {-1, -1, 0.3f, -0.2f, 1.2f, 0.7f, -1.7f, 0.45f, 0.55f, 1.9f, -0.25f, -1.35f});
  ::onnx::NodeProto* node = nullptr;
  const auto sample = [&](std::int64_t opset, const std::string& mode, const std::string& padding, bool align_corners) {
    auto model = OneNode(opset, "GridSample", {"x", "grid"}, {"y"}, node);
    SetTensorType(*model.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 1, 3, 4});
    SetTensorType(*model.mutable_graph()->add_input(), "grid", ::onnx::TensorProto::FLOAT, {1, 2, 3, 2});
    if (!mode.empty()) AddString(*node, "mode", mode);
    AddString(*node, "padding_mode", padding);
    auto* attribute = node->add_attribute();
    attribute->set_name("align_corners");
    attribute->set_type(::onnx::AttributeProto::INT);
    attribute->set_i(align_corners ? 1 : 0);
    return model;
  };
  const auto run = [&](const ::onnx::ModelProto& model) {
    const NpyArray y = Run(model, {{"x", x}, {"grid", grid}}).at("y");
    CHECK(y.shape == TensorShape{1, 1, 2, 3});
    return Floats(y);
  };
  const auto near = [](const std::vector<float>& actual, const std::vector<float>& expected) {
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(2e-5));
  };
  near(run(sample(16, "", "zeros", false)), {0, 4.4f, 0.617499f, 0, 0, 0});  // bilinear by default
  near(run(sample(16, "nearest", "border", true)), {0, 6, 6.5f, 3, 5, 1.5f});
  near(run(sample(16, "bicubic", "reflection", false)), {-0.914062f, 4.76679f, 6.71774f, 5.19449f, 5.04202f, 1.51738f});
  near(run(sample(20, "linear", "reflection", true)), {0, 4.865f, 5.51f, 4.3625f, 5.2175f, 1.9625f});  // opset 20's names

  const auto bad_mode = Thrown<UnsupportedModelError>([&] { ImportProto(sample(16, "area", "zeros", false)); });
  CHECK(Contains(bad_mode.what(), "mode 'area'"));
  auto volume = OneNode(20, "GridSample", {"x", "grid"}, {"y"}, node);
  SetTensorType(*volume.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 1, 2, 2, 2});
  SetTensorType(*volume.mutable_graph()->add_input(), "grid", ::onnx::TensorProto::FLOAT, {1, 1, 1, 1, 3});
  const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(volume); });
  CHECK(error.nodes().at(0).reason ==
        "GridSample of an input of rank 5 (the GridSample layer samples 2 spatial axes: X [N, C, H, W])");
}

// ---- Op set v2: integer compute (convert_quantization.cpp) --------------------------------------

namespace {

// An initializer of `elem_type` holding `values` as raw bytes (i8, u8, i32).
template <typename T>
void AddRawInitializer(::onnx::GraphProto& graph, const std::string& name, int elem_type,
                       const std::vector<std::int64_t>& dims, const std::vector<T>& values) {
  auto* tensor = graph.add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(elem_type);
  for (const auto d : dims) tensor->add_dims(d);
  tensor->set_raw_data(std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
}

template <typename T>
std::vector<T> Values(const NpyArray& array) {
  std::vector<T> values(array.data.size() / sizeof(T));
  std::memcpy(values.data(), array.data.data(), array.data.size());
  return values;
}

constexpr int kU8 = ::onnx::TensorProto::UINT8;
constexpr int kI8 = ::onnx::TensorProto::INT8;
constexpr int kI32 = ::onnx::TensorProto::INT32;
constexpr int kF32 = ::onnx::TensorProto::FLOAT;

}  // namespace

TEST_CASE("MatMulInteger: i8 and u8 operands, per-row and per-column zero points, B's without A's") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(10, "MatMulInteger", {"a", "b", "a_zero", "b_zero"}, {"y"}, node);
  auto* graph = model.mutable_graph();
  SetTensorType(*graph->add_input(), "a", kU8, {2, 3});
  SetTensorType(*graph->add_input(), "b", kI8, {3, 2});
  SetTensorType(*graph->add_input(), "a_zero", kU8, {2});  // per row, ONNX's 1-D form
  AddRawInitializer<std::int8_t>(*graph, "b_zero", kI8, {2}, {1, -1});
  const NpyArray a = Array<std::uint8_t>(DataType::kUInt8, {2, 3}, {10, 200, 37, 255, 0, 128});
  const NpyArray b = Array<std::int8_t>(DataType::kInt8, {3, 2}, {1, -2, -128, 5, 7, 7});
  const NpyArray y = Run(model, {{"a", a}, {"b", b}, {"a_zero", Array<std::uint8_t>(DataType::kUInt8, {2}, {12, 128})}}).at("y");
  CHECK(y.type == DataType::kInt32);
  CHECK(y.shape == TensorShape{2, 2});
  // [[-2, 188, 25], [127, -128, 0]] @ [[0, -1], [-129, 6], [6, 8]]
  CHECK(Values<std::int32_t>(y) == std::vector<std::int32_t>{-24102, 1330, 16512, -895});

  node->set_input(2, "");  // B's zero point alone: A's is 0
  graph->mutable_input()->RemoveLast();
  const NpyArray no_a_zero = Run(model, {{"a", a}, {"b", b}}).at("y");
  // [[10, 200, 37], [255, 0, 128]] @ [[0, -1], [-129, 6], [6, 8]]
  CHECK(Values<std::int32_t>(no_a_zero) == std::vector<std::int32_t>{-25578, 1486, 768, 769});

  SetTensorType(*graph->add_input(), "a_zero", kU8, {3});  // per column of A: not ONNX's per-row form
  node->set_input(2, "a_zero");
  const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(model); });
  CHECK(error.nodes().at(0).reason ==
        "a_zero_point [3] for input [2,3] (one value, or per row: [M] or [..., M, 1], is taken)");
}

TEST_CASE("ConvInteger: padding reads as the zero point, per-channel weight zero points, 1-D") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(10, "ConvInteger", {"x", "w", "x_zero", "w_zero"}, {"y"}, node);
  auto* graph = model.mutable_graph();
  SetTensorType(*graph->add_input(), "x", kU8, {1, 1, 5});
  AddRawInitializer<std::int8_t>(*graph, "w", kI8, {2, 1, 2}, {1, 2, -3, 4});
  AddRawInitializer<std::uint8_t>(*graph, "x_zero", kU8, {}, {10});
  AddRawInitializer<std::int8_t>(*graph, "w_zero", kI8, {2}, {0, 1});
  AddInts(*node, "pads", {1, 0});
  AddInts(*node, "strides", {2});
  const NpyArray x = Array<std::uint8_t>(DataType::kUInt8, {1, 1, 5}, {11, 12, 13, 14, 255});
  const NpyArray y = Run(model, {{"x", x}}).at("y");
  CHECK(y.type == DataType::kInt32);
  CHECK(y.shape == TensorShape{1, 2, 3});
  // x - 10 padded with 0: [0, 1, 2, 3, 4, 245]; windows [0, 1], [2, 3] and [4, 245].
  // w0 [1, 2]: 2, 8, 494; w1 - 1 = [-4, 3]: 3, 1, 719.
  CHECK(Values<std::int32_t>(y) == std::vector<std::int32_t>{2, 8, 494, 3, 1, 719});

  AddInts(*node, "dilations", {1, 1});
  const auto error = Thrown([&] { ImportProto(model); });
  CHECK(Contains(error.what(), "dilations [1,1] must have 1 values, one per spatial axis"));
}

TEST_CASE("QLinearMatMul: ORT's requantization in f32, per-row and per-column scales, ties to even") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(10, "QLinearMatMul", {"a", "a_scale", "a_zero", "b", "b_scale", "b_zero", "y_scale", "y_zero"},
                       {"y"}, node);
  auto* graph = model.mutable_graph();
  SetTensorType(*graph->add_input(), "a", kU8, {2, 3});
  AddFloatInitializer(*graph, "a_scale", {2}, {0.05f, 0.02f});
  SetTensorType(*graph->add_input(), "a_zero", kU8, {2});
  SetTensorType(*graph->add_input(), "b", kI8, {3, 4});
  AddFloatInitializer(*graph, "b_scale", {4}, {0.1f, 0.25f, 0.5f, 0.01f});
  AddRawInitializer<std::int8_t>(*graph, "b_zero", kI8, {4}, {0, 1, -1, 3});
  AddFloatInitializer(*graph, "y_scale", {}, {0.3f});
  AddRawInitializer<std::uint8_t>(*graph, "y_zero", kU8, {}, {100});
  const NpyArray a = Array<std::uint8_t>(DataType::kUInt8, {2, 3}, {10, 200, 37, 255, 0, 128});
  const NpyArray b = Array<std::int8_t>(DataType::kInt8, {3, 4}, {1, -2, 3, 127, -128, 5, 0, 9, 7, 7, -7, 100});
  const NpyArray y =
      Run(model, {{"a", a}, {"a_zero", Array<std::uint8_t>(DataType::kUInt8, {2}, {12, 128})}, {"b", b}}).at("y");
  CHECK(y.type == DataType::kUInt8);
  // numpy: acc [[-23891, 908, 30, 3305], [16511, -893, 380, 14980]] times the f32 multipliers
  // (a_scale[m] * b_scale[n]) / 0.3, rounded half to even, + 100, saturated at 0.
  CHECK(Values<std::uint8_t>(y) == std::vector<std::uint8_t>{0, 138, 102, 106, 210, 85, 113, 110});

  // Ties: multiplier 0.5 on 1, 3, 5, 7 and 255 gives 0.5, 1.5, 2.5, 3.5, 127.5: to even.
  auto ties = OneNode(10, "QLinearMatMul", {"a", "s", "z", "b", "one", "z", "one", "y_zero"}, {"y"}, node);
  graph = ties.mutable_graph();
  SetTensorType(*graph->add_input(), "a", kU8, {5, 1});
  SetTensorType(*graph->add_input(), "y_zero", kI8, {1});
  AddFloatInitializer(*graph, "s", {1}, {0.5f});
  AddFloatInitializer(*graph, "one", {}, {1.0f});
  AddRawInitializer<std::uint8_t>(*graph, "z", kU8, {}, {0});
  AddRawInitializer<std::uint8_t>(*graph, "b", kU8, {1, 1}, {1});
  const NpyArray odd = Array<std::uint8_t>(DataType::kUInt8, {5, 1}, {1, 3, 5, 7, 255});
  const auto tied = [&](std::int8_t zero) {
    return Values<std::int8_t>(Run(ties, {{"a", odd}, {"y_zero", Array<std::int8_t>(DataType::kInt8, {1}, {zero})}}).at("y"));
  };
  CHECK(tied(-3) == std::vector<std::int8_t>{-3, -1, -1, 1, 125});
  CHECK(tied(3) == std::vector<std::int8_t>{3, 5, 5, 7, 127});  // 131 saturates

  SetTensorType(*graph->add_input(), "f16_scale", ::onnx::TensorProto::FLOAT16, {});
  node->set_input(1, "f16_scale");
  const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(ties); });
  CHECK(error.nodes().at(0).reason == "input 1: a scale of f16 (f32 scales are requantized)");
}

TEST_CASE("QLinearConv: i32 bias, per-channel weight scales and zero points, i8 output saturating") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(10, "QLinearConv",
                       {"x", "x_scale", "x_zero", "w", "w_scale", "w_zero", "y_scale", "y_zero", "bias"}, {"y"}, node);
  auto* graph = model.mutable_graph();
  SetTensorType(*graph->add_input(), "x", kU8, {1, 2, 3, 3});
  AddFloatInitializer(*graph, "x_scale", {}, {0.02f});
  AddRawInitializer<std::uint8_t>(*graph, "x_zero", kU8, {}, {7});
  AddRawInitializer<std::int8_t>(*graph, "w", kI8, {2, 2, 2, 2},
                                 {-128, -91, -54, -17, 20, 57, 94, -125, -88, -51, -14, 23, 60, 97, -122, -85});
  AddFloatInitializer(*graph, "w_scale", {2}, {0.05f, 0.125f});
  AddRawInitializer<std::int8_t>(*graph, "w_zero", kI8, {2}, {2, -3});
  AddFloatInitializer(*graph, "y_scale", {1}, {0.4f});
  AddRawInitializer<std::int8_t>(*graph, "y_zero", kI8, {1}, {-5});
  AddRawInitializer<std::int32_t>(*graph, "bias", kI32, {2}, {100, -2000});
  AddInts(*node, "pads", {1, 1, 1, 1});
  AddInts(*node, "strides", {2, 2});
  std::vector<std::uint8_t> x;
  for (int i = 0; i < 18; ++i) x.push_back(static_cast<std::uint8_t>(i * 13));
  const NpyArray y = Run(model, {{"x", Array<std::uint8_t>(DataType::kUInt8, {1, 2, 3, 3}, x)}}).at("y");
  CHECK(y.type == DataType::kInt8);
  CHECK(y.shape == TensorShape{1, 2, 2, 2});
  // numpy: acc + bias [-13737, -6553, -19906, -13836, -11202, -27361, -2206, -20772].
  CHECK(Values<std::int8_t>(y) == std::vector<std::int8_t>{-39, -21, -55, -40, -75, -128, -19, -128});

  SetTensorType(*graph->add_input(), "wide_zero", kU8, {2});
  node->set_input(2, "wide_zero");
  const auto error = Thrown<UnsupportedModelError>([&] { ImportProto(model); });
  CHECK(error.nodes().at(0).reason == "x_zero_point [2] (one value is taken here)");
}

TEST_CASE("a quantized conv net in QOperator form matches numpy's integer arithmetic exactly") {
  // QuantizeLinear, QLinearConv (per-channel weights, i32 bias, pads), QLinearConv (stride 2),
  // Reshape on u8, QLinearMatMul (per-column weights), DequantizeLinear.
  const ImportedModel model = ImportModel(DataPath("quantized_qoperator.onnx"));
  const auto accumulator = [&](const std::string& layer) {
    return model.network.GetOutputInfo({model.network.FindLayer(layer), 0});
  };
  CHECK(accumulator("conv1/acc") == backplane::TensorInfo{TensorShape{1, 4, 8, 8}, DataType::kInt32});
  CHECK(accumulator("conv2/acc") == backplane::TensorInfo{TensorShape{1, 6, 4, 4}, DataType::kInt32});
  CHECK(accumulator("fc/acc") == backplane::TensorInfo{TensorShape{1, 10}, DataType::kInt32});
  CheckMatchesExpected(kData, "quantized_qoperator", {}, 0.0);
}

TEST_CASE("the same net in QDQ form runs in f32 as written and matches numpy's float64 result") {
  CheckMatchesExpected(kData, "quantized_qdq", {}, 1e-6);
}

TEST_CASE("ORT's dynamic quantization: DynamicQuantizeLinear, MatMulInteger, Cast and the scales' product") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(11, "DynamicQuantizeLinear", {"x"}, {"xq", "xs", "xz"}, node);
  auto* graph = model.mutable_graph();
  graph->mutable_output()->Clear();
  SetTensorType(*graph->add_input(), "x", kF32, {2, 4});
  AddRawInitializer<std::int8_t>(*graph, "w", kI8, {4, 3}, {10, -20, 30, -40, 50, -60, 70, -80, 90, -100, 110, -120});
  AddRawInitializer<std::int8_t>(*graph, "w_zero", kI8, {}, {3});
  AddFloatInitializer(*graph, "w_scale", {}, {0.01f});
  const auto add = [&](const std::string& op, std::vector<std::string> inputs, const std::string& output) {
    ::onnx::NodeProto* next = graph->add_node();
    next->set_op_type(op);
    next->set_name(output);
    for (const auto& input : inputs) next->add_input(input);
    next->add_output(output);
    return next;
  };
  add("MatMulInteger", {"xq", "w", "xz", "w_zero"}, "acc");
  auto* attribute = add("Cast", {"acc"}, "acc_f32")->add_attribute();
  attribute->set_name("to");
  attribute->set_type(::onnx::AttributeProto::INT);
  attribute->set_i(kF32);
  add("Mul", {"xs", "w_scale"}, "scale");
  add("Mul", {"acc_f32", "scale"}, "y");
  graph->add_output()->set_name("y");
  const NpyArray x = Array<float>(DataType::kFloat32, {2, 4}, {-1.5f, 0.25f, 2.0f, 0.75f, 3.1f, -0.4f, 0.0f, 1.2f});
  // numpy: scale 4.6 / 255, zero point 83, xq [[0, 97, 194, 125], [255, 61, 83, 150]],
  // acc [[1928, -2152, 1368], [-4751, 2179, -2211]], y = f32(acc) * (scale * 0.01).
  CHECK(Floats(Run(model, {{"x", x}}).at("y")) == std::vector<float>{0.3477960526943207f, -0.388203889131546f,
                                                                      0.24677646160125732f, -0.8570430874824524f,
                                                                      0.39307448267936707f, -0.3988470435142517f});
}
