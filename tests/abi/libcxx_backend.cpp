// A backend written in C++ against the SDK's author API and built with another standard library
// than the runtime's: clang++ -stdlib=libc++ (tests/abi/CMakeLists.txt), with the backend kit's
// sources compiled in (it links neither libbackplane_sdk nor libstdc++). Its std::string,
// std::vector and exceptions never meet the runtime's, because everything between them crosses
// as the C tables of backend_c_api.h (the adapter behind BACKPLANE_BACKEND_PLUGIN).
//
// It runs ElementwiseBinary Add of two f32 tensors of one shape and Activation Relu on host
// memory, and throws (a std::runtime_error from libc++) for an Add whose first input starts with
// 42, so the test sees that exception arrive as a backplane::Exception in the runtime.
#include <backplane/backend/backend.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>
#include <backplane/plugin.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace libcxx_backend {

using namespace backplane;
using namespace backplane::backend;

bool Supported(const ILayerView& layer, std::string* reason) {
  if (layer.GetType() == LayerType::kElementwiseBinary) {
    const auto* descriptor = static_cast<const ElementwiseBinaryDescriptor*>(layer.GetDescriptor());
    if (!descriptor || descriptor->operation != BinaryOperation::kAdd) {
      *reason = "only Add is supported (layer '" + layer.GetName() + "')";
      return false;
    }
    if (layer.GetInputInfo(0) != layer.GetInputInfo(1)) {
      *reason = "inputs of '" + layer.GetName() + "' differ in shape: " + ToString(layer.GetInputInfo(0).shape) +
                " and " + ToString(layer.GetInputInfo(1).shape);
      return false;
    }
  } else if (layer.GetType() == LayerType::kActivation) {
    const auto* descriptor = static_cast<const ActivationDescriptor*>(layer.GetDescriptor());
    if (!descriptor || descriptor->function != ActivationFunction::kRelu) {
      *reason = "only Relu is supported (layer '" + layer.GetName() + "')";
      return false;
    }
  } else {
    *reason = std::string(ToString(layer.GetType())) + " is not supported";
    return false;
  }
  if (layer.GetInputInfo(0).type != DataType::kFloat32) {
    *reason = "only f32 is supported";
    return false;
  }
  return true;
}

class LayerSupport final : public ILayerSupport {
 public:
  bool IsLayerSupported(const ILayerView& layer, std::string* reason) const override {
    return Supported(layer, reason);
  }
};

class Workload final : public IWorkload {
 public:
  Workload(LayerType type, std::size_t count) : type_(type), count_(count) {}
  void Execute(const WorkloadArgs& args) const override {
    std::vector<const float*> in;  // libc++'s vector, on purpose
    for (ITensorHandle* handle : args.inputs) in.push_back(static_cast<const float*>(handle->Map()));
    auto* out = static_cast<float*>(args.outputs.at(0)->Map());
    if (type_ == LayerType::kElementwiseBinary && count_ > 0 && in[0][0] == 42.0f) {
      for (ITensorHandle* handle : args.inputs) handle->Unmap();
      args.outputs[0]->Unmap();
      throw std::runtime_error("libc++ backend: an input starting with 42 is refused");
    }
    for (std::size_t i = 0; i < count_; ++i) {
      out[i] = type_ == LayerType::kElementwiseBinary ? in[0][i] + in[1][i] : (in[0][i] > 0.0f ? in[0][i] : 0.0f);
    }
    for (ITensorHandle* handle : args.inputs) handle->Unmap();
    args.outputs[0]->Unmap();
  }

 private:
  LayerType type_;
  std::size_t count_;
};

class WorkloadFactory final : public IWorkloadFactory {
 public:
  std::unique_ptr<IWorkload> CreateWorkload(const ILayerView& layer) override {
    std::string reason;
    if (!Supported(layer, &reason)) throw Exception(ErrorCode::kUnsupported, reason);
    return std::make_unique<Workload>(layer.GetType(),
                                      static_cast<std::size_t>(layer.GetOutputInfo(0).shape.NumElements()));
  }
};

class Backend final : public IBackend {
 public:
  BackendId GetId() const override { return BackendId(BACKPLANE_DETAIL_STRINGIFY(LIBCXX_BACKEND_ID)); }
  BackendCapabilities GetCapabilities() const override {
    BackendCapabilities capabilities;
    capabilities.data_types = {DataType::kFloat32};
    capabilities.layer_types = {LayerType::kElementwiseBinary, LayerType::kActivation};
#if defined(_LIBCPP_VERSION)
    capabilities.values["BuiltWithLibcxx"] = true;
#endif
    return capabilities;
  }
  std::vector<DeviceInfo> GetDevices() const override { return {{"libc++ host loop", DeviceKind::kCpu, true, ""}}; }
  std::shared_ptr<ILayerSupport> GetLayerSupport() const override { return std::make_shared<LayerSupport>(); }
  std::unique_ptr<IWorkloadFactory> CreateWorkloadFactory(const std::shared_ptr<IMemoryManager>&,
                                                          IBackendContext*) const override {
    return std::make_unique<WorkloadFactory>();
  }
};

}  // namespace libcxx_backend

BACKPLANE_BACKEND_PLUGIN(LIBCXX_BACKEND_ID, "Test", "1.0.0", libcxx_backend::Backend)
