// Unit tests of the CpuRef backend class, used directly (no plugin loading involved).
#include "reference_backend.hpp"

#include "ops/op_test_harness.hpp"
#include "ops/reference_ops.hpp"

#include <backplane/backend/op_attributes.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using backplane::DataType;
using backplane::TensorInfo;
using backplane::backend::LayerType;

// A layer with a type, a name, a descriptor (possibly null) and tensor infos; no constants.
class FakeLayer final : public backplane::backend::ILayerView {
 public:
  FakeLayer(LayerType type, std::string name, const backplane::backend::LayerDescriptor* descriptor = nullptr,
            std::vector<TensorInfo> inputs = {}, std::vector<TensorInfo> outputs = {})
      : type_(type), name_(std::move(name)), descriptor_(descriptor), inputs_(std::move(inputs)),
        outputs_(std::move(outputs)) {}
  LayerType GetType() const override { return type_; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumInputs() const override { return inputs_.size(); }
  std::size_t GetNumOutputs() const override { return outputs_.size(); }
  const TensorInfo& GetInputInfo(std::size_t i) const override { return inputs_.at(i); }
  const TensorInfo& GetOutputInfo(std::size_t i) const override { return outputs_.at(i); }
  const backplane::backend::LayerDescriptor* GetDescriptor() const override { return descriptor_; }
  const void* GetConstantInput(std::size_t) const override { return nullptr; }

 private:
  LayerType type_;
  std::string name_;
  const backplane::backend::LayerDescriptor* descriptor_;
  std::vector<TensorInfo> inputs_, outputs_;
};


// Softmax over [2,3] of `type`.
FakeLayer SoftmaxLayer(const backplane::SoftmaxDescriptor& descriptor, DataType type, std::string name = "softmax") {
  return FakeLayer(LayerType::kSoftmax, std::move(name), &descriptor, {{{2, 3}, type}}, {{{2, 3}, type}});
}

const std::vector<LayerType> kOpSet = {
    LayerType::kConvolution2d, LayerType::kFullyConnected,     LayerType::kMatMul,
    LayerType::kPooling2d,     LayerType::kActivation,         LayerType::kElementwiseBinary,
    LayerType::kElementwiseUnary, LayerType::kSoftmax,         LayerType::kBatchNormalization,
    LayerType::kLayerNormalization, LayerType::kReduce,        LayerType::kReshape,
    LayerType::kFlatten,       LayerType::kTranspose,          LayerType::kConcat,
    LayerType::kSplit,         LayerType::kSlice,              LayerType::kGather,
    LayerType::kPad,           LayerType::kCast,               LayerType::kWhere,
    LayerType::kGatherElements, LayerType::kArgMinMax,         LayerType::kTrilu,
    LayerType::kResize, LayerType::kConvolutionTranspose,
    LayerType::kTopK,          LayerType::kCumSum,             LayerType::kScatterElements,
    LayerType::kGatherNd,      LayerType::kConvolutionNd,      LayerType::kPoolingNd,
    LayerType::kGridSample,    LayerType::kMatMulInteger,      LayerType::kConvolutionInteger,
    LayerType::kRecurrent,     LayerType::kDft,                LayerType::kLrn,
    LayerType::kDet,           LayerType::kNonZero,            LayerType::kCompress,
    LayerType::kUnique,        LayerType::kNonMaxSuppression};

}  // namespace

TEST_CASE("id is CpuRef and the label carries the plugin version") {
  backplane::reference::ReferenceBackend backend;
  CHECK(backend.GetId() == backplane::BackendId("CpuRef"));
  CHECK(backplane::IsWellFormedBackendId(backend.GetId().Get()));
}

TEST_CASE("options: only the common integer option threads, documented, default 1") {
  const auto specs = backplane::reference::ReferenceBackend().GetOptionSpecs();
  REQUIRE(specs.size() == 1);
  CHECK(specs[0].key == "threads");
  CHECK(specs[0].type == backplane::backend::OptionSpec::Type::kInteger);
  CHECK(specs[0].default_value == "1");
  CHECK(specs[0].doc.find("single-threaded") != std::string::npos);
}

TEST_CASE("capabilities: cpu, every data type, the layer types of the op table, no protected content, a reference implementation") {
  const auto capabilities = backplane::reference::ReferenceBackend().GetCapabilities();
  CHECK(capabilities.device_kind == backplane::backend::DeviceKind::kCpu);
  CHECK(capabilities.data_types.size() == backplane::backend::kBpDataTypeCount);
  CHECK(capabilities.layer_types == kOpSet);
  CHECK(capabilities.layer_types == backplane::reference::Ops().LayerTypes());
  REQUIRE(capabilities.values.count("ProtectedContentAllocation") == 1);
  CHECK_FALSE(capabilities.values.at("ProtectedContentAllocation"));
  CHECK(capabilities.values.at(backplane::backend::kReferenceImplementation));  // preferred last by default
  CHECK(capabilities.values.size() == 2);
}

TEST_CASE("capabilities equal the manifest's capabilities.json") {
  std::ifstream file(BACKPLANE_REFERENCE_CAPABILITIES_FILE);
  REQUIRE(file.good());
  const auto json = nlohmann::json::parse(file);
  const auto capabilities = backplane::reference::ReferenceBackend().GetCapabilities();

  CHECK(json.at("device_kind").get<std::string>() ==
        backplane::backend::ToString(capabilities.device_kind));

  std::set<std::string> manifest_types = json.at("data_types").get<std::set<std::string>>();
  std::set<std::string> backend_types;
  for (auto type : capabilities.data_types) backend_types.insert(backplane::ToString(type));
  CHECK(manifest_types == backend_types);

  std::set<std::string> manifest_layers = json.at("layer_types").get<std::set<std::string>>();
  std::set<std::string> backend_layers;
  for (auto type : capabilities.layer_types) backend_layers.insert(backplane::backend::ToString(type));
  CHECK(manifest_layers == backend_layers);
  CHECK(manifest_layers.size() == kOpSet.size());

  CHECK(json.at("values").get<std::map<std::string, bool>>() == capabilities.values);
}

TEST_CASE("one available CPU device named after the host") {
  const auto devices = backplane::reference::ReferenceBackend().GetDevices();
  REQUIRE(devices.size() == 1);
  CHECK(devices[0].kind == backplane::backend::DeviceKind::kCpu);
  CHECK(devices[0].available);
  CHECK(devices[0].reason.empty());
  CHECK(devices[0].name.rfind("host CPU (", 0) == 0);
  CHECK(devices[0].name.back() == ')');
}

TEST_CASE("layer support accepts supported layers described by real descriptors") {
  const auto support = backplane::reference::ReferenceBackend().GetLayerSupport();
  REQUIRE(support != nullptr);
  std::string reason = "stale text";
  const backplane::SoftmaxDescriptor softmax;
  CHECK(support->IsLayerSupported(SoftmaxLayer(softmax, DataType::kFloat32), &reason));

  backplane::ActivationDescriptor relu6;
  relu6.function = backplane::ActivationFunction::kClip;
  relu6.beta = 6.0f;
  CHECK(support->IsLayerSupported(
      FakeLayer(LayerType::kActivation, "relu6", &relu6, {{{1, 8}, DataType::kFloat32}}, {{{1, 8}, DataType::kFloat32}}),
      &reason));

  const backplane::GatherDescriptor gather;
  CHECK(support->IsLayerSupported(FakeLayer(LayerType::kGather, "embedding", &gather,
                                            {{{100, 16}, DataType::kFloat32}, {{2, 7}, DataType::kInt64}},
                                            {{{2, 7, 16}, DataType::kFloat32}}),
                                  &reason));

  backplane::CastDescriptor cast;
  cast.to = DataType::kInt64;
  CHECK(support->IsLayerSupported(
      FakeLayer(LayerType::kCast, "cast", &cast, {{{4}, DataType::kInt32}}, {{{4}, DataType::kInt64}}), &reason));
}

TEST_CASE("layer support refuses layer types without a kernel and names them in the reason") {
  const auto support = backplane::reference::ReferenceBackend().GetLayerSupport();
  for (const auto type : {LayerType::kInput, LayerType::kOutput, LayerType::kConstant, LayerType::kPreCompiled}) {
    const std::string type_name = backplane::backend::ToString(type);
    CAPTURE(type_name);
    std::string reason = "stale text";
    CHECK_FALSE(support->IsLayerSupported(FakeLayer(type, "layer"), &reason));
    CHECK(reason == "CpuRef cannot run layer 'layer': it has no kernel for " + type_name + " layers");
  }
  // Every other type has a kernel.
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(LayerType::kCount); ++i) {
    const auto type = static_cast<LayerType>(i);
    const bool in_op_set = std::find(kOpSet.begin(), kOpSet.end(), type) != kOpSet.end();
    CAPTURE(backplane::backend::ToString(type));
    CHECK((backplane::reference::Ops().Find(type) != nullptr) == in_op_set);
  }
}

TEST_CASE("layer support refuses an i32 Softmax and a layer without a descriptor, with the reason") {
  const auto support = backplane::reference::ReferenceBackend().GetLayerSupport();
  std::string reason;
  const backplane::SoftmaxDescriptor softmax;
  CHECK_FALSE(support->IsLayerSupported(SoftmaxLayer(softmax, DataType::kInt32), &reason));
  CHECK(reason == "CpuRef cannot run layer 'softmax': CpuRef runs Softmax on f32, f64, f16 and bf16, not i32");
  CHECK_FALSE(support->IsLayerSupported(FakeLayer(LayerType::kSoftmax, "bare"), &reason));
  CHECK(reason == "CpuRef cannot run layer 'bare': the layer has no descriptor");
}

TEST_CASE("layer support accepts a null reason pointer") {
  const auto support = backplane::reference::ReferenceBackend().GetLayerSupport();
  const backplane::SoftmaxDescriptor softmax;
  CHECK_FALSE(support->IsLayerSupported(SoftmaxLayer(softmax, DataType::kInt32), nullptr));
  CHECK_FALSE(support->IsLayerSupported(FakeLayer(LayerType::kPreCompiled, "fused"), nullptr));
  CHECK(support->IsLayerSupported(SoftmaxLayer(softmax, DataType::kFloat32), nullptr));
}

TEST_CASE("workload factory creates a workload that runs") {
  const auto factory = backplane::reference::ReferenceBackend().CreateWorkloadFactory(nullptr, nullptr);
  REQUIRE(factory != nullptr);
  const backplane::SoftmaxDescriptor softmax;
  const auto workload = factory->CreateWorkload(SoftmaxLayer(softmax, DataType::kFloat32));
  REQUIRE(workload != nullptr);

  std::vector<float> x{0, 0, 0, 1, 1, 1}, y(6, -1.0f);
  backplane::backend::HostTensorHandle in_handle({{2, 3}, DataType::kFloat32}, x.data());
  backplane::backend::HostTensorHandle out_handle({{2, 3}, DataType::kFloat32}, y.data());
  const std::vector<backplane::backend::ITensorHandle*> in{&in_handle}, out{&out_handle};
  workload->Execute({in, out, nullptr});
  for (const float value : y) CHECK(value == doctest::Approx(1.0 / 3.0));
}

TEST_CASE("workload factory throws kUnsupported naming the layer and the reason") {
  const auto factory = backplane::reference::ReferenceBackend().CreateWorkloadFactory(nullptr, nullptr);
  REQUIRE(factory != nullptr);
  try {
    factory->CreateWorkload(FakeLayer(LayerType::kPreCompiled, "fused1"));
    FAIL("CreateWorkload returned instead of throwing");
  } catch (const backplane::Exception& error) {
    CHECK(error.code() == backplane::ErrorCode::kUnsupported);
    CHECK(std::string(error.what()) == "CpuRef cannot run layer 'fused1': it has no kernel for PreCompiled layers");
  }
  const backplane::SoftmaxDescriptor softmax;
  try {
    factory->CreateWorkload(SoftmaxLayer(softmax, DataType::kInt32, "int_softmax"));
    FAIL("CreateWorkload returned instead of throwing");
  } catch (const backplane::Exception& error) {
    CHECK(error.code() == backplane::ErrorCode::kUnsupported);
    CHECK(std::string(error.what()) ==
          "CpuRef cannot run layer 'int_softmax': CpuRef runs Softmax on f32, f64, f16 and bf16, not i32");
  }
}

TEST_CASE("instances are independent: objects they return outlive them") {
  std::shared_ptr<backplane::backend::ILayerSupport> support;
  {
    backplane::reference::ReferenceBackend backend;
    support = backend.GetLayerSupport();
  }
  std::string reason;
  CHECK_FALSE(support->IsLayerSupported(FakeLayer(LayerType::kPreCompiled, "fused"), &reason));
  CHECK(reason == "CpuRef cannot run layer 'fused': it has no kernel for PreCompiled layers");
  const backplane::SoftmaxDescriptor softmax;
  CHECK(support->IsLayerSupported(SoftmaxLayer(softmax, DataType::kFloat32), &reason));
}
