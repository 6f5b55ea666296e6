// Unit tests of the CpuRef backend class, used directly (no plugin loading involved).
#include "reference_backend.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

namespace {

using backplane::backend::LayerType;

// A layer with a type and a name and nothing else; enough for support queries.
class FakeLayer final : public backplane::backend::ILayerView {
 public:
  FakeLayer(LayerType type, std::string name) : type_(type), name_(std::move(name)) {}
  LayerType GetType() const override { return type_; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumInputs() const override { return 0; }
  std::size_t GetNumOutputs() const override { return 0; }
  const backplane::TensorInfo& GetInputInfo(std::size_t) const override { return info_; }
  const backplane::TensorInfo& GetOutputInfo(std::size_t) const override { return info_; }
  const backplane::backend::LayerDescriptor* GetDescriptor() const override { return nullptr; }

 private:
  LayerType type_;
  std::string name_;
  backplane::TensorInfo info_;
};

const std::string kLabel = std::string("CpuRef ") + BACKPLANE_BACKEND_VERSION;

}  // namespace

TEST_CASE("id is CpuRef and the label carries the plugin version") {
  backplane::reference::ReferenceBackend backend;
  CHECK(backend.GetId() == backplane::BackendId("CpuRef"));
  CHECK(backplane::IsWellFormedBackendId(backend.GetId().Get()));
  CHECK(backplane::reference::ReferenceBackend::Label() == kLabel);
}

TEST_CASE("capabilities: cpu, f32, no layer types, no protected content") {
  const auto capabilities = backplane::reference::ReferenceBackend().GetCapabilities();
  CHECK(capabilities.device_kind == backplane::backend::DeviceKind::kCpu);
  REQUIRE(capabilities.data_types.size() == 1);
  CHECK(capabilities.data_types[0] == backplane::DataType::kFloat32);
  CHECK(capabilities.layer_types.empty());
  REQUIRE(capabilities.values.count("ProtectedContentAllocation") == 1);
  CHECK_FALSE(capabilities.values.at("ProtectedContentAllocation"));
  CHECK(capabilities.values.size() == 1);
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

TEST_CASE("layer support refuses every layer type and names it in the reason") {
  const auto support = backplane::reference::ReferenceBackend().GetLayerSupport();
  REQUIRE(support != nullptr);
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(LayerType::kCount); ++i) {
    const auto type = static_cast<LayerType>(i);
    const std::string type_name = backplane::backend::ToString(type);
    CAPTURE(type_name);
    std::string reason = "stale text";
    CHECK_FALSE(support->IsLayerSupported(FakeLayer(type, "layer"), &reason));
    CHECK(reason == kLabel + " provides no kernel for " + type_name);
  }
}

TEST_CASE("layer support accepts a null reason pointer") {
  const auto support = backplane::reference::ReferenceBackend().GetLayerSupport();
  CHECK_FALSE(support->IsLayerSupported(FakeLayer(LayerType::kSoftmax, "softmax"), nullptr));
}

TEST_CASE("workload factory throws kUnsupported naming the layer type and name") {
  const auto factory = backplane::reference::ReferenceBackend().CreateWorkloadFactory(nullptr);
  REQUIRE(factory != nullptr);
  const FakeLayer conv(LayerType::kConvolution2d, "conv1");
  try {
    factory->CreateWorkload(conv);
    FAIL("CreateWorkload returned instead of throwing");
  } catch (const backplane::Exception& error) {
    CHECK(error.code() == backplane::ErrorCode::kUnsupported);
    CHECK(std::string(error.what()) == kLabel + " provides no kernel for Convolution2d (layer 'conv1')");
  }
}

TEST_CASE("instances are independent: objects they return outlive them") {
  std::shared_ptr<backplane::backend::ILayerSupport> support;
  {
    backplane::reference::ReferenceBackend backend;
    support = backend.GetLayerSupport();
  }
  std::string reason;
  CHECK_FALSE(support->IsLayerSupported(FakeLayer(LayerType::kActivation, "relu"), &reason));
  CHECK(reason == kLabel + " provides no kernel for Activation");
}
