// The generic op table: the one refusal format, and the order of its checks (a row, a
// descriptor, the op schema, the backend-wide check, the row's check), through a two-row table of a fake backend.
#include <backplane/backend/op_schema.hpp>
#include <backplane/backend/op_table.hpp>

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

#include <stdexcept>
#include <utility>

namespace {
using namespace backplane;
using namespace backplane::backend;

// A layer with one input and one output of the same info; every op of the fake table keeps op
// set v1's shape rules with it.
struct Layer : LayerValues {
  Layer(LayerType type, const LayerDescriptor* descriptor, std::string name, DataType data_type = DataType::kFloat32)
      : LayerValues(type, std::move(name), descriptor, {{TensorShape({2, 3}), data_type}},
                    {{TensorShape({2, 3}), data_type}}) {}
};

struct Row {
  LayerType type;
  bool (*is_supported)(const ILayerView& layer, std::string& why);
  int kernel;  // what a backend's `create` would be
};

// Relu and Sigmoid run; Tanh is refused without a reason; others with one.
bool ActivationSupported(const ILayerView& layer, std::string& why) {
  const auto function = static_cast<const ActivationDescriptor&>(*layer.GetDescriptor()).function;
  if (function == ActivationFunction::kRelu || function == ActivationFunction::kSigmoid) return true;
  if (function != ActivationFunction::kTanh) why = "only Relu, Sigmoid";
  return false;
}
bool SoftmaxSupported(const ILayerView&, std::string&) { throw std::runtime_error("probe failed"); }
// The fake backend runs f32 only.
bool F32Only(const ILayerView& layer, std::string& why) {
  if (layer.GetInputInfo(0).type == DataType::kFloat32) return true;
  why = "input 0 is not f32";
  return false;
}

const std::array<Row, 2> kRows{{
    {LayerType::kActivation, ActivationSupported, 1},
    {LayerType::kSoftmax, SoftmaxSupported, 2},
}};
const OpTable<Row> kTable("CpuFake", kRows, F32Only);

ActivationDescriptor Activation(ActivationFunction function) {
  ActivationDescriptor descriptor;
  descriptor.function = function;
  return descriptor;
}

// The plain why of kTable's refusal of `layer` ("" when it runs it).
std::string Why(const ILayerView& layer) {
  std::string why;
  return kTable.Supporting(layer, why) ? std::string() : why;
}
}  // namespace

TEST_CASE("op table: a refusal reads '<backend> cannot run layer '<name>': <why>'") {
  const Layer layer(LayerType::kGather, nullptr, "gather1");
  CHECK(CannotRunReason("CpuRef", layer, "it has no kernel for Gather layers") ==
        "CpuRef cannot run layer 'gather1': it has no kernel for Gather layers");
}

TEST_CASE("op table: rows are found by type and listed in table order") {
  CHECK(kTable.Backend() == "CpuFake");
  CHECK(kTable.LayerTypes() == std::vector<LayerType>{LayerType::kActivation, LayerType::kSoftmax});
  REQUIRE(kTable.Find(LayerType::kSoftmax) != nullptr);
  CHECK(kTable.Find(LayerType::kSoftmax)->kernel == 2);
  CHECK(kTable.Find(LayerType::kGather) == nullptr);
}

TEST_CASE("op table: the supporting row, or why not, checked in order") {
  const auto relu = Activation(ActivationFunction::kRelu);
  const Layer runs(LayerType::kActivation, &relu, "relu1");
  std::string why = "stale";
  const Row* row = kTable.Supporting(runs, why);
  REQUIRE(row != nullptr);
  CHECK(row->kernel == 1);

  // No row, whatever else is wrong with the layer.
  CHECK(Why(Layer(LayerType::kGather, nullptr, "g", DataType::kFloat16)) == "it has no kernel for Gather layers");
  // A descriptor before the backend's and the row's checks.
  CHECK(Why(Layer(LayerType::kActivation, nullptr, "bare", DataType::kFloat16)) == "the layer has no descriptor");
  // Op set v1's rules (the op schema) before the backend's and the row's checks: an output
  // shape the op does not give, or an enumerator it does not have, never reaches them.
  const LayerValues reshaped(LayerType::kActivation, "wrong", &relu, {{TensorShape({2, 3}), DataType::kFloat16}},
                             {{TensorShape({3, 2}), DataType::kFloat16}});
  CHECK(Why(reshaped) == "output 0 is f16 [3,2], the op gives f16 [2,3]");
  const auto unknown = Activation(static_cast<ActivationFunction>(200));
  CHECK(Why(Layer(LayerType::kActivation, &unknown, "odd", DataType::kFloat16)) == "unknown activation function 200");
  // The backend-wide check before the row's.
  const auto gelu = Activation(ActivationFunction::kGelu);
  CHECK(Why(Layer(LayerType::kActivation, &gelu, "half", DataType::kFloat16)) == "input 0 is not f32");
  // The row's own refusal, as it gave it; a refusal without a reason gets one.
  CHECK(Why(Layer(LayerType::kActivation, &gelu, "gelu1")) == "only Relu, Sigmoid");
  const auto tanh = Activation(ActivationFunction::kTanh);
  CHECK(Why(Layer(LayerType::kActivation, &tanh, "tanh1")) == "its Activation kernel refused the layer without a reason");
  // A check that throws refuses.
  SoftmaxDescriptor softmax;
  CHECK(Why(Layer(LayerType::kSoftmax, &softmax, "softmax1")) == "its support check failed: probe failed");
}

TEST_CASE("op table: layer support and workload factories report the one format") {
  const OpTableLayerSupport<Row> support(kTable);
  const auto sigmoid = Activation(ActivationFunction::kSigmoid);
  CHECK(support.IsLayerSupported(Layer(LayerType::kActivation, &sigmoid, "s"), nullptr));
  CHECK(&kTable.SupportingOrThrow(Layer(LayerType::kActivation, &sigmoid, "s")) == &kRows[0]);

  const Layer pad(LayerType::kPad, nullptr, "pad1");
  std::string reason;
  CHECK_FALSE(support.IsLayerSupported(pad, &reason));
  CHECK(reason == "CpuFake cannot run layer 'pad1': it has no kernel for Pad layers");
  CHECK_FALSE(support.IsLayerSupported(pad, nullptr));
  try {
    kTable.SupportingOrThrow(pad);
    FAIL("SupportingOrThrow returned a row for a Pad layer");
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kUnsupported);
    CHECK(std::string(error.what()) == reason);
  }
}

namespace {
constexpr const char* kFakeBackend = "CpuFake";

// A MatMul-shaped layer of two inputs of the given types (only the types are read).
LayerValues TwoInputs(DataType first, DataType second) {
  return LayerValues(LayerType::kMatMul, "mm", nullptr, {{TensorShape({2, 2}), first}, {TensorShape({2, 2}), second}},
                     {{TensorShape({2, 2}), first}});
}
}  // namespace

TEST_CASE("op table: the f32 rule names the first input that is not f32, and the backend") {
  std::string why;
  CHECK(AllFloat32<kFakeBackend>(TwoInputs(DataType::kFloat32, DataType::kFloat32), why));
  CHECK_FALSE(AllFloat32<kFakeBackend>(TwoInputs(DataType::kFloat32, DataType::kInt64), why));
  CHECK(why == "input 1 is i64; CpuFake runs MatMul on f32 only");
  CHECK_FALSE(AllFloat32<kFakeBackend>(TwoInputs(DataType::kFloat16, DataType::kInt32), why));
  CHECK(why == "input 0 is f16; CpuFake runs MatMul on f32 only");
  // Only the first `count` inputs (GpuOpenCl's Gather: its indices may be integers); a count
  // past the layer's inputs, and a layer without inputs, check what there is.
  why.clear();
  CHECK(InputsAreFloat32("GpuFake", TwoInputs(DataType::kFloat32, DataType::kInt64), 1, why));
  CHECK(why.empty());
  CHECK_FALSE(InputsAreFloat32("GpuFake", TwoInputs(DataType::kFloat32, DataType::kInt32), 5, why));
  CHECK(why == "input 1 is i32; GpuFake runs MatMul on f32 only");
  const LayerValues none(LayerType::kConstant, "c", nullptr, {}, {{TensorShape({1}), DataType::kBool}});
  CHECK(AllFloat32<kFakeBackend>(none, why));
}
