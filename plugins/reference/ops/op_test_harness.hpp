// Test-only: runs one reference op outside the runtime. Builds a layer view from a descriptor
// and tensors, checks support, creates the workload through the op table and executes it on
// host buffers. Used by the ops' *_test.cpp files, which compare against values computed
// independently (naive loops written in the test, or numbers worked out by hand).
#pragma once

#include "reference_ops.hpp"

#include <backplane/backend/host_tensor_handle.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace backplane::reference::testing {

// A tensor given to or produced by an op: info plus its bytes.
struct HostTensor {
  TensorInfo info;
  std::vector<std::uint8_t> bytes;
  bool constant = false;  // passed to the op as a constant input (GetConstantInput)

  template <typename T>
  static HostTensor From(const TensorShape& shape, const std::vector<T>& values, DataType type,
                         bool constant = false) {
    HostTensor tensor{{shape, type}, std::vector<std::uint8_t>(values.size() * sizeof(T)), constant};
    if (!values.empty()) std::memcpy(tensor.bytes.data(), values.data(), tensor.bytes.size());
    return tensor;
  }
  static HostTensor F32(const TensorShape& shape, const std::vector<float>& values, bool constant = false) {
    return From(shape, values, DataType::kFloat32, constant);
  }
  static HostTensor I64(const TensorShape& shape, const std::vector<std::int64_t>& values, bool constant = false) {
    return From(shape, values, DataType::kInt64, constant);
  }
  static HostTensor I32(const TensorShape& shape, const std::vector<std::int32_t>& values, bool constant = false) {
    return From(shape, values, DataType::kInt32, constant);
  }
  template <typename T>
  std::vector<T> As() const {
    std::vector<T> values(bytes.size() / sizeof(T));
    if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
    return values;
  }
};

class TestLayer final : public backend::ILayerView {
 public:
  TestLayer(backend::LayerType type, const LayerDescriptor* descriptor, const std::vector<HostTensor>& inputs,
            std::vector<TensorInfo> outputs)
      : type_(type), descriptor_(descriptor), inputs_(inputs), outputs_(std::move(outputs)) {}
  backend::LayerType GetType() const override { return type_; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumInputs() const override { return inputs_.size(); }
  std::size_t GetNumOutputs() const override { return outputs_.size(); }
  const TensorInfo& GetInputInfo(std::size_t i) const override { return inputs_[i].info; }
  const TensorInfo& GetOutputInfo(std::size_t i) const override { return outputs_[i]; }
  const LayerDescriptor* GetDescriptor() const override { return descriptor_; }
  const void* GetConstantInput(std::size_t i) const override {
    return inputs_[i].constant ? inputs_[i].bytes.data() : nullptr;
  }

 private:
  backend::LayerType type_;
  const LayerDescriptor* descriptor_;
  const std::vector<HostTensor>& inputs_;
  std::vector<TensorInfo> outputs_;
  std::string name_ = "test_layer";
};

using backend::HostTensorHandle;

// Whether the op accepts the layer; `reason` gets why not.
template <typename Descriptor>
bool IsSupported(const Descriptor& descriptor, const std::vector<HostTensor>& inputs,
                 const std::vector<TensorInfo>& outputs, std::string& reason) {
  TestLayer layer(Descriptor::kType, &descriptor, inputs, outputs);
  return Ops().Supporting(layer, reason) != nullptr;
}

// Checks support (throws with the reason if unsupported), creates the workload and runs it
// once; returns the outputs (of the given infos).
template <typename Descriptor>
std::vector<HostTensor> RunOp(const Descriptor& descriptor, const std::vector<HostTensor>& inputs,
                              const std::vector<TensorInfo>& outputs) {
  TestLayer layer(Descriptor::kType, &descriptor, inputs, outputs);
  const auto workload = Ops().SupportingOrThrow(layer).create(layer);

  std::vector<HostTensor> results;
  for (const auto& info : outputs) results.push_back({info, std::vector<std::uint8_t>(info.NumBytes())});
  std::vector<HostTensorHandle> input_handles, output_handles;
  for (const auto& input : inputs) {
    input_handles.emplace_back(input.info, const_cast<std::uint8_t*>(input.bytes.data()));
  }
  for (auto& output : results) output_handles.emplace_back(output.info, output.bytes.data());
  std::vector<backend::ITensorHandle*> in, out;
  for (auto& handle : input_handles) in.push_back(&handle);
  for (auto& handle : output_handles) out.push_back(&handle);
  std::vector<std::uint8_t> scratch(workload->GetScratchSize() + 64);
  void* aligned = scratch.data() + (64 - reinterpret_cast<std::uintptr_t>(scratch.data()) % 64) % 64;
  backend::WorkloadArgs args{in, out, workload->GetScratchSize() ? aligned : nullptr};
  workload->Execute(args);
  return results;
}

}  // namespace backplane::reference::testing
