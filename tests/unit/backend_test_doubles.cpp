#include "backend_test_doubles.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cstring>

namespace backplane::unit {

std::shared_ptr<const backend::LayerDescriptor> DefaultDescriptor(backend::LayerType type) {
  switch (type) {
    case backend::LayerType::kActivation: return std::make_shared<ActivationDescriptor>();
    case backend::LayerType::kElementwiseBinary: return std::make_shared<ElementwiseBinaryDescriptor>();
    case backend::LayerType::kElementwiseUnary: return std::make_shared<ElementwiseUnaryDescriptor>();
    case backend::LayerType::kSoftmax: return std::make_shared<SoftmaxDescriptor>();
    case backend::LayerType::kConvolution2d: return std::make_shared<Convolution2dDescriptor>();
    case backend::LayerType::kFullyConnected: return std::make_shared<FullyConnectedDescriptor>();
    case backend::LayerType::kPooling2d: return std::make_shared<Pooling2dDescriptor>();
    default: return nullptr;
  }
}

void RecordingFactoryRegistry::RegisterFactory(std::unique_ptr<backend::ITensorHandleFactory> factory) {
  if (!factory) throw Exception(ErrorCode::kInvalidArgument, "null tensor handle factory");
  const backend::FactoryId id = factory->GetId();
  if (!factories_.emplace(id, std::move(factory)).second) {
    throw Exception(ErrorCode::kInvalidArgument, "tensor handle factory " + id + " registered twice");
  }
}

backend::ITensorHandleFactory* RecordingFactoryRegistry::Find(const backend::FactoryId& id) const {
  const auto it = factories_.find(id);
  return it == factories_.end() ? nullptr : it->second.get();
}

void WriteTensor(backend::ITensorHandle& handle, const std::vector<float>& values) {
  if (values.size() * sizeof(float) != handle.GetInfo().NumBytes()) {
    throw Exception(ErrorCode::kInvalidArgument, "WriteTensor: size differs from the handle's");
  }
  void* data = handle.Map();
  std::memcpy(data, values.data(), values.size() * sizeof(float));
  handle.Unmap();
}

std::vector<float> ReadTensor(backend::ITensorHandle& handle) {
  std::vector<float> values(handle.GetInfo().NumBytes() / sizeof(float));
  const void* data = handle.Map();
  std::memcpy(values.data(), data, values.size() * sizeof(float));
  handle.Unmap();
  return values;
}

}  // namespace backplane::unit
