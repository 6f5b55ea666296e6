// The runtime's side of the backend API, played by the test: a layer view and a tensor-handle
// factory registry. Used to call every method of a loaded backend
// (spec 000 unit test 9) without the graph and execution code of later issues.
#pragma once

#include <backplane/backend/backend.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace backplane::unit {

// The descriptor Network::AddLayer would get from a default-constructed descriptor of `type`
// (ActivationDescriptor{}: Relu, ElementwiseBinaryDescriptor{}: Add, ...); null for types
// without parameters and for those the fakes do not need.
std::shared_ptr<const backend::LayerDescriptor> DefaultDescriptor(backend::LayerType type);

// A layer with fixed type, name and tensor infos, and the type's default descriptor unless one
// is given.
class FakeLayer final : public backend::ILayerView {
 public:
  FakeLayer(backend::LayerType type, std::string name, std::vector<TensorInfo> inputs,
            std::vector<TensorInfo> outputs,
            std::shared_ptr<const backend::LayerDescriptor> descriptor = nullptr)
      : type_(type),
        name_(std::move(name)),
        inputs_(std::move(inputs)),
        outputs_(std::move(outputs)),
        descriptor_(descriptor ? std::move(descriptor) : DefaultDescriptor(type)) {}

  backend::LayerType GetType() const override { return type_; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumInputs() const override { return inputs_.size(); }
  std::size_t GetNumOutputs() const override { return outputs_.size(); }
  const TensorInfo& GetInputInfo(std::size_t index) const override { return inputs_.at(index); }
  const TensorInfo& GetOutputInfo(std::size_t index) const override { return outputs_.at(index); }
  const backend::LayerDescriptor* GetDescriptor() const override { return descriptor_.get(); }
  const void* GetConstantInput(std::size_t) const override { return nullptr; }

 private:
  backend::LayerType type_;
  std::string name_;
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
  std::shared_ptr<const backend::LayerDescriptor> descriptor_;
};

// Keeps what a backend registers. RegisterFactory throws on a duplicate id, as the contract
// says the runtime's registry does.
class RecordingFactoryRegistry final : public backend::ITensorHandleFactoryRegistry {
 public:
  void RegisterFactory(std::unique_ptr<backend::ITensorHandleFactory> factory) override;

  // Null when no factory has this id.
  backend::ITensorHandleFactory* Find(const backend::FactoryId& id) const;
  std::size_t FactoryCount() const { return factories_.size(); }

 private:
  std::map<backend::FactoryId, std::unique_ptr<backend::ITensorHandleFactory>> factories_;
};

// Fills a tensor handle from `values` / reads it back, through Map and Unmap.
void WriteTensor(backend::ITensorHandle& handle, const std::vector<float>& values);
std::vector<float> ReadTensor(backend::ITensorHandle& handle);

}  // namespace backplane::unit
