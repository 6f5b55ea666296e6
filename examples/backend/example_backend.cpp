#include "example_backend.hpp"

#include "example_workloads.hpp"

#include <backplane/descriptors.hpp>

namespace example {

using namespace backplane;
using namespace backplane::backend;

namespace {

class ExampleLayerSupport final : public ILayerSupport {
 public:
  bool IsLayerSupported(const ILayerView& layer, std::string* reason) const override {
    return IsSupported(layer, reason);
  }
};

bool Refuse(const ILayerView& layer, const std::string& why, std::string* reason) {
  if (reason) *reason = "CpuExample cannot run layer '" + layer.GetName() + "': " + why;
  return false;
}

}  // namespace

bool IsSupported(const ILayerView& layer, std::string* reason) {
  const LayerDescriptor* descriptor = layer.GetDescriptor();
  std::size_t inputs = 0;
  if (layer.GetType() == LayerType::kElementwiseBinary && descriptor != nullptr) {
    const auto operation = static_cast<const ElementwiseBinaryDescriptor&>(*descriptor).operation;
    if (operation != BinaryOperation::kAdd && operation != BinaryOperation::kMul) {
      return Refuse(layer, "only the Add and Mul operations are supported", reason);
    }
    inputs = 2;
  } else if (layer.GetType() == LayerType::kActivation && descriptor != nullptr) {
    if (static_cast<const ActivationDescriptor&>(*descriptor).function != ActivationFunction::kRelu) {
      return Refuse(layer, "only the Relu activation is supported", reason);
    }
    inputs = 1;
  } else {
    return Refuse(layer, std::string("layer type ") + ToString(layer.GetType()) + " is not supported",
                  reason);
  }
  if (layer.GetNumInputs() != inputs || layer.GetNumOutputs() != 1) {
    return Refuse(layer, "unexpected number of inputs or outputs", reason);
  }
  const TensorInfo& output = layer.GetOutputInfo(0);
  for (std::size_t i = 0; i < inputs; ++i) {
    if (layer.GetInputInfo(i) != output) {
      return Refuse(layer, "inputs and output must be f32 of one shape (no broadcasting)", reason);
    }
  }
  if (output.type != DataType::kFloat32) return Refuse(layer, "only f32 is supported", reason);
  if (reason) reason->clear();
  return true;
}

BackendId ExampleBackend::GetId() const { return BackendId("CpuExample"); }

std::vector<DeviceInfo> ExampleBackend::GetDevices() const {
  return {DeviceInfo{"host CPU (CpuExample)", DeviceKind::kCpu, true, ""}};
}

BackendCapabilities ExampleBackend::GetCapabilities() const {
  BackendCapabilities capabilities;
  capabilities.device_kind = DeviceKind::kCpu;
  capabilities.data_types = {DataType::kFloat32};
  capabilities.layer_types = {LayerType::kElementwiseBinary, LayerType::kActivation};
  capabilities.values = {{"ProtectedContentAllocation", false}};
  return capabilities;
}

std::vector<OptionSpec> ExampleBackend::GetOptionSpecs() const {
  return {{"threads", OptionSpec::Type::kInteger, "1",
           "intra-op threads; CpuExample is single-threaded and ignores it"}};
}

std::shared_ptr<ILayerSupport> ExampleBackend::GetLayerSupport() const {
  return std::make_shared<ExampleLayerSupport>();
}

std::unique_ptr<IWorkloadFactory> ExampleBackend::CreateWorkloadFactory(
    const std::shared_ptr<IMemoryManager>& /*memory_manager*/, IBackendContext* /*context*/) const {
  return std::make_unique<ExampleWorkloadFactory>();
}

}  // namespace example
