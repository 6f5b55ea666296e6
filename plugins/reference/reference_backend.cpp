#include "reference_backend.hpp"

#include "reference_workload_factory.hpp"
#include "ops/reference_ops.hpp"

#include <thread>

namespace backplane::reference {

BackendId ReferenceBackend::GetId() const { return BackendId(kReferenceBackendId); }

std::vector<backend::DeviceInfo> ReferenceBackend::GetDevices() const {
  backend::DeviceInfo cpu;
  cpu.kind = backend::DeviceKind::kCpu;
  // hardware_concurrency() is a hint and may be 0 where the count cannot be determined. Asked
  // once per process: glibc reads /sys on every call, and discovery asks at every Runtime::Create.
  static const unsigned threads = std::thread::hardware_concurrency();
  cpu.name = threads > 0 ? "host CPU (" + std::to_string(threads) + " threads)"
                         : std::string("host CPU (thread count unknown)");
  return {cpu};
}

backend::BackendCapabilities ReferenceBackend::GetCapabilities() const {
  backend::BackendCapabilities capabilities;
  capabilities.device_kind = backend::DeviceKind::kCpu;
  // Every type moves through the data-movement ops and Cast; which op computes on which type is
  // each op's own rule (ops/*.cpp).
  capabilities.data_types = {DataType::kFloat32, DataType::kInt32,  DataType::kInt64,  DataType::kBool,
                             DataType::kFloat16, DataType::kBFloat16, DataType::kInt8,  DataType::kUInt8,
                             DataType::kInt16,   DataType::kUInt16,  DataType::kUInt32, DataType::kUInt64,
                             DataType::kFloat64};
  capabilities.layer_types = Ops().LayerTypes();
  capabilities.values = {{"ProtectedContentAllocation", false}, {backend::kReferenceImplementation, true}};
  return capabilities;
}

std::vector<backend::OptionSpec> ReferenceBackend::GetOptionSpecs() const {
  return {{"threads", backend::OptionSpec::Type::kInteger, "1",
           "intra-op threads; CpuRef is single-threaded and ignores it"}};
}

std::shared_ptr<backend::ILayerSupport> ReferenceBackend::GetLayerSupport() const {
  return std::make_shared<backend::OpTableLayerSupport<OpKernel>>(Ops());
}

std::unique_ptr<backend::IWorkloadFactory> ReferenceBackend::CreateWorkloadFactory(
    const std::shared_ptr<backend::IMemoryManager>& /*memory_manager*/, backend::IBackendContext* /*context*/) const {
  return std::make_unique<ReferenceWorkloadFactory>();
}

}  // namespace backplane::reference
