// onnx::Session: one opened model run with several input shapes (and shape-deciding input
// values), the bounded specialization cache, the binding errors, and concurrent runs.
#include <backplane/onnx_session.hpp>

#include "model_check.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

using backplane::ConstTensorView;
using backplane::DataType;
using backplane::ErrorCode;
using backplane::Exception;
using backplane::InputBinding;
using backplane::NpyArray;
using backplane::ReadNpy;
using backplane::Runtime;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::onnx::Session;
using backplane::onnx::SessionOptions;
using backplane::onnx::SessionOutput;
using backplane::onnx::testing::DataPath;
using backplane::onnx::testing::TempFile;

std::unique_ptr<Runtime> CpuRefRuntime() {
  auto runtime = Runtime::Create();
  REQUIRE(runtime->HasBackend("CpuRef"));
  return runtime;
}

SessionOptions OnCpuRef() {
  SessionOptions options;
  options.optimize.backends = {"CpuRef"};
  return options;
}

std::string MessageOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    return error.what();
  }
  FAIL("no Exception was thrown");
  return {};
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `batch` rows of mlp.input.npy (row i is input row i % 4), as f32 elements.
std::vector<float> MlpRows(const NpyArray& input, std::int64_t batch) {
  std::vector<float> rows;
  const auto* all = reinterpret_cast<const float*>(input.data.data());
  for (std::int64_t i = 0; i < batch; ++i) rows.insert(rows.end(), all + (i % 4) * 64, all + (i % 4 + 1) * 64);
  return rows;
}

// Runs mlp_dynamic.onnx with `batch` rows and checks each against PyTorch's output for its row.
void CheckMlpBatch(Session& session, const NpyArray& input, const NpyArray& expected, std::int64_t batch) {
  const std::vector<float> rows = MlpRows(input, batch);
  const auto outputs =
      session.Run({{"input", ConstTensorView{TensorInfo{TensorShape{batch, 64}, DataType::kFloat32}, rows.data()}}});
  REQUIRE(outputs.size() == 1);
  REQUIRE(outputs[0].info.shape == TensorShape({batch, 10}));
  const auto* actual = reinterpret_cast<const float*>(outputs[0].data.data());
  const auto* wanted = reinterpret_cast<const float*>(expected.data.data());
  double worst = 0;
  for (std::int64_t i = 0; i < batch * 10; ++i) worst = std::max(worst, double(std::fabs(actual[i] - wanted[(i / 10 % 4) * 10 + i % 10])));
  CHECK(worst < 1e-5);
}

// a [batch, 3] + b [batch, 3] (both f32), opset 13.
std::string AddModelWithSharedSymbol() {
  ::onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  auto* graph = model.mutable_graph();
  graph->set_name("shared_symbol");
  auto* node = graph->add_node();
  node->set_op_type("Add");
  node->add_input("a");
  node->add_input("b");
  node->add_output("y");
  for (const char* name : {"a", "b", "y"}) {
    auto* info = std::string(name) == "y" ? graph->add_output() : graph->add_input();
    info->set_name(name);
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(::onnx::TensorProto::FLOAT);
    tensor->mutable_shape()->add_dim()->set_dim_param("batch");
    tensor->mutable_shape()->add_dim()->set_dim_value(3);
  }
  return model.SerializeAsString();
}

}  // namespace

TEST_CASE("a dynamic-batch model opened once runs batch 1, 3 and 8, each matching PyTorch") {
  auto runtime = CpuRefRuntime();
  auto session = Session::Open(*runtime, DataPath("mlp_dynamic.onnx"), OnCpuRef());
  const NpyArray input = ReadNpy(DataPath("mlp.input.npy")), expected = ReadNpy(DataPath("mlp.output.npy"));
  for (const std::int64_t batch : {1, 3, 8, 3, 1}) {
    CAPTURE(batch);
    CheckMlpBatch(*session, input, expected, batch);
  }
  const auto stats = session->GetStats();
  CHECK(stats.runs == 5);
  CHECK(stats.specializations_made == 3);  // the repeated shapes reuse theirs
  CHECK(stats.specializations_loaded == 3);
}

TEST_CASE("the specialization cache keeps at most max_specializations, least recently used out") {
  auto runtime = CpuRefRuntime();
  SessionOptions options = OnCpuRef();
  options.max_specializations = 2;
  auto session = Session::Open(*runtime, DataPath("mlp_dynamic.onnx"), options);
  const NpyArray input = ReadNpy(DataPath("mlp.input.npy")), expected = ReadNpy(DataPath("mlp.output.npy"));
  for (const std::int64_t batch : {1, 2, 1, 3, 1, 2}) CheckMlpBatch(*session, input, expected, batch);
  const auto stats = session->GetStats();
  CHECK(stats.specializations_loaded == 2);
  CHECK(stats.specializations_made == 4);  // 1, 2, 3 (2 out), 2 again (3 out)
  CHECK(stats.specializations_unloaded == 2);
}

TEST_CASE("a model that computes shapes from its input's shape runs a batch it was not exported with") {
  auto runtime = CpuRefRuntime();
  auto session = Session::Open(*runtime, DataPath("shape_subgraph.onnx"), OnCpuRef());
  const NpyArray input = ReadNpy(DataPath("shape_subgraph.input.npy"));
  const NpyArray expected = ReadNpy(DataPath("shape_subgraph.output.npy"));
  const auto outputs = session->Run({{"input", ConstTensorView{TensorInfo{input.shape, input.type}, input.data.data()}}});
  REQUIRE(outputs[0].info.shape == expected.shape);
  const auto* actual = reinterpret_cast<const float*>(outputs[0].data.data());
  const auto* wanted = reinterpret_cast<const float*>(expected.data.data());
  for (std::size_t i = 0; i < expected.data.size() / 4; ++i) CHECK(actual[i] == doctest::Approx(wanted[i]).epsilon(1e-5));

  // Batch 3, against the same model imported the old way with that shape fixed.
  std::vector<float> three(3 * 12);
  for (std::size_t i = 0; i < three.size(); ++i) three[i] = float(i % 7) * 0.25f - 0.5f;
  backplane::onnx::ImportOptions fixed;
  fixed.input_shapes["input"] = {3, 3, 4};
  NpyArray three_array{DataType::kFloat32, TensorShape{3, 3, 4}, {}};
  three_array.data.resize(three.size() * 4);
  std::memcpy(three_array.data.data(), three.data(), three_array.data.size());
  const auto reference = backplane::onnx::testing::RunImportedOnCpuRef(
      backplane::onnx::ImportModel(DataPath("shape_subgraph.onnx"), fixed), {{"input", three_array}});
  const auto batch3 = session->Run({{"input", ConstTensorView{TensorInfo{TensorShape{3, 3, 4}, DataType::kFloat32}, three.data()}}});
  const NpyArray& wanted3 = reference.outputs.begin()->second;
  REQUIRE(batch3[0].info.shape == wanted3.shape);
  CHECK(batch3[0].data == wanted3.data);
}

TEST_CASE("an input that decides a shape is specialized on by value") {
  // bad_runtime_shape.onnx: y = Reshape(x [2, 3], shape), shape an int64 graph input.
  auto runtime = CpuRefRuntime();
  auto session = Session::Open(*runtime, DataPath("bad_runtime_shape.onnx"), OnCpuRef());
  const std::vector<float> x{1, 2, 3, 4, 5, 6};
  const ConstTensorView x_view{TensorInfo{TensorShape{2, 3}, DataType::kFloat32}, x.data()};
  for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{3, 2}, {6, 1}, {3, 2}}) {
    const auto outputs = session->Run(
        {{"x", x_view}, {"shape", ConstTensorView{TensorInfo{TensorShape{2}, DataType::kInt64}, shape.data()}}});
    CHECK(outputs[0].info.shape == TensorShape(shape));
    CHECK(std::memcmp(outputs[0].data.data(), x.data(), 24) == 0);
  }
  CHECK(session->GetStats().specializations_made == 2);
}

TEST_CASE("a binding the model contradicts is refused naming the input, the dimension and both values") {
  auto runtime = CpuRefRuntime();
  auto session = Session::Open(*runtime, DataPath("mlp_dynamic.onnx"), OnCpuRef());
  const std::vector<float> data(5 * 64);
  auto bind = [&](const std::string& name, TensorShape shape, DataType type = DataType::kFloat32) {
    return std::vector<InputBinding>{{name, ConstTensorView{TensorInfo{std::move(shape), type}, data.data()}}};
  };
  CHECK(Contains(MessageOf([&] { session->Run(bind("input", {2, 32})); }),
                 "input 'input' dimension 1 is 32; the model fixes it to 64"));
  CHECK(Contains(MessageOf([&] { session->Run(bind("input", {2, 64, 1})); }),
                 "input 'input' has rank 3 ([2,64,1]); the model's has rank 2"));
  CHECK(Contains(MessageOf([&] { session->Run(bind("input", {2, 64}, DataType::kInt32)); }),
                 "input 'input' is i32; the model's input is f32"));
  CHECK(Contains(MessageOf([&] { session->Run(bind("x", {2, 64})); }),
                 "input 'x' is not an input of the model (its inputs: 'input')"));
  CHECK(Contains(MessageOf([&] { session->Run({}); }), "input 'input' is not bound"));
  CHECK(session->GetStats().specializations_made == 0);

  const TempFile model("shared_symbol.onnx", AddModelWithSharedSymbol());
  auto shared = Session::Open(*runtime, model.path(), OnCpuRef());
  CHECK(Contains(MessageOf([&] {
                   shared->Run({{"a", ConstTensorView{TensorInfo{TensorShape{2, 3}, DataType::kFloat32}, data.data()}},
                                {"b", ConstTensorView{TensorInfo{TensorShape{4, 3}, DataType::kFloat32}, data.data()}}});
                 }),
                 "input 'b' dimension 0 ('batch') is 4, but input 'a' dimension 0 (the same dimension in the model) is 2"));
}

TEST_CASE("bad session options are refused before anything is read") {
  auto runtime = CpuRefRuntime();
  SessionOptions options = OnCpuRef();
  options.max_specializations = 0;
  CHECK(Contains(MessageOf([&] { Session::Open(*runtime, DataPath("mlp_dynamic.onnx"), options); }),
                 "max_specializations must be at least 1"));
}

TEST_CASE("threads running different batch sizes at once on one session each get their own results") {
  auto runtime = CpuRefRuntime();
  SessionOptions options = OnCpuRef();
  options.max_specializations = 2;  // fewer than the shapes: specializations are unloaded under runs
  auto session = Session::Open(*runtime, DataPath("mlp_dynamic.onnx"), options);
  const NpyArray input = ReadNpy(DataPath("mlp.input.npy")), expected = ReadNpy(DataPath("mlp.output.npy"));
  std::vector<std::thread> threads;
  for (std::int64_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 6; ++round) CheckMlpBatch(*session, input, expected, 1 + (t + round) % 3);
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(session->GetStats().runs == 24);
}

TEST_CASE("a BERT-style encoder with dynamic batch and sequence runs (1, 16) and padded (2, 40), matching PyTorch") {
  // bert_dynamic.onnx: int64 token ids and attention mask [batch, sequence] -> hidden [batch, sequence, 32].
  auto runtime = CpuRefRuntime();
  for (const char* backends : {"CpuRef", "CpuOneDnn,CpuRef"}) {
    CAPTURE(backends);
    SessionOptions options;
    options.optimize.backends = {"CpuRef"};
    if (std::string(backends) != "CpuRef") {
      if (!runtime->HasBackend("CpuOneDnn")) continue;
      options.optimize.backends = {"CpuOneDnn", "CpuRef"};
    }
    auto session = Session::Open(*runtime, DataPath("bert_dynamic.onnx"), options);
    for (const char* set : {"s16", "s40", "s16"}) {
      CAPTURE(set);
      const std::string stem = std::string("bert_dynamic.") + set;
      const NpyArray ids = ReadNpy(DataPath(stem + ".input_ids.npy"));
      const NpyArray mask = ReadNpy(DataPath(stem + ".attention_mask.npy"));
      const NpyArray expected = ReadNpy(DataPath(stem + ".hidden.npy"));
      const auto outputs = session->Run({{"input_ids", ConstTensorView{TensorInfo{ids.shape, ids.type}, ids.data.data()}},
                                         {"attention_mask", ConstTensorView{TensorInfo{mask.shape, mask.type}, mask.data.data()}}});
      REQUIRE(outputs[0].info.shape == expected.shape);
      const NpyArray actual{outputs[0].info.type, outputs[0].info.shape, outputs[0].data};
      CHECK(backplane::onnx::testing::MaxRelativeError(expected, actual) < 1e-4);
    }
    CHECK(session->GetStats().specializations_made == 2);
  }
}
