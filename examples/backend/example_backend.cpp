#include "example_backend.hpp"

#include "example_workloads.hpp"

#include <backplane/descriptors.hpp>

#include <array>

namespace example {

using namespace backplane;
using namespace backplane::backend;

namespace {

// Every layer CpuExample runs: an f32 output, and f32 inputs of its shape (no broadcasting).
// Runs before the row's own check, after the op schema's (which gives both ops one output).
bool SameShapeF32(const ILayerView& layer, std::string& why) {
  const TensorInfo& output = layer.GetOutputInfo(0);
  if (output.type != DataType::kFloat32) {
    why = "only f32 is supported";
    return false;
  }
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (layer.GetInputInfo(i) != output) {
      why = "inputs and output must be f32 of one shape (no broadcasting)";
      return false;
    }
  }
  return true;
}

// The op table runs the SDK's op schema before these checks (arity, descriptor values, shapes),
// so each checks only what this backend itself cannot do.
bool IsAddMulSupported(const ILayerView& layer, std::string& why) {
  const auto operation = static_cast<const ElementwiseBinaryDescriptor&>(*layer.GetDescriptor()).operation;
  if (operation != BinaryOperation::kAdd && operation != BinaryOperation::kMul) {
    why = "only the Add and Mul operations are supported";
    return false;
  }
  return true;
}

bool IsReluSupported(const ILayerView& layer, std::string& why) {
  if (static_cast<const ActivationDescriptor&>(*layer.GetDescriptor()).function != ActivationFunction::kRelu) {
    why = "only the Relu activation is supported";
    return false;
  }
  return true;
}

const std::array<ExampleOp, 2> kOps{{
    {LayerType::kElementwiseBinary, IsAddMulSupported, CreateElementwiseWorkload},
    {LayerType::kActivation, IsReluSupported, CreateElementwiseWorkload},
}};

}  // namespace

const OpTable<ExampleOp>& Ops() {
  static const OpTable<ExampleOp> table("CpuExample", kOps, SameShapeF32);
  return table;
}

BackendId ExampleBackend::GetId() const { return BackendId("CpuExample"); }

std::vector<DeviceInfo> ExampleBackend::GetDevices() const {
  return {DeviceInfo{"host CPU (CpuExample)", DeviceKind::kCpu, true, ""}};
}

BackendCapabilities ExampleBackend::GetCapabilities() const {
  BackendCapabilities capabilities;
  capabilities.device_kind = DeviceKind::kCpu;
  capabilities.data_types = {DataType::kFloat32};
  capabilities.layer_types = Ops().LayerTypes();
  capabilities.values = {{"ProtectedContentAllocation", false}};
  return capabilities;
}

std::vector<OptionSpec> ExampleBackend::GetOptionSpecs() const {
  return {{"threads", OptionSpec::Type::kInteger, "1",
           "intra-op threads; CpuExample is single-threaded and ignores it"}};
}

std::shared_ptr<ILayerSupport> ExampleBackend::GetLayerSupport() const {
  return std::make_shared<OpTableLayerSupport<ExampleOp>>(Ops());
}

std::unique_ptr<IWorkloadFactory> ExampleBackend::CreateWorkloadFactory(
    const std::shared_ptr<IMemoryManager>& /*memory_manager*/, IBackendContext* /*context*/) const {
  return std::make_unique<ExampleWorkloadFactory>();
}

}  // namespace example
