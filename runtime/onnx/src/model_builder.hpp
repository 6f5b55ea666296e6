// For the importer's tests: small ONNX models built in code (one node, typed graph inputs,
// initializers, attributes), imported from memory and run on CpuRef.
#pragma once

#include "model_check.hpp"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace backplane::onnx::testing {

void AddInts(::onnx::NodeProto& node, const std::string& name, std::vector<std::int64_t> values);
void AddInt(::onnx::NodeProto& node, const std::string& name, std::int64_t value);
void AddString(::onnx::NodeProto& node, const std::string& name, const std::string& value);

// ImportModelFromMemory of the serialized model, named "m.onnx".
ImportedModel ImportProto(const ::onnx::ModelProto& model);

// A graph input or initializer's type and shape.
void SetTensorType(::onnx::ValueInfoProto& value, const std::string& name, int elem_type,
                   const std::vector<std::int64_t>& dims);

// A model at `opset` with one node `op_type` (named after it) from `inputs` to `outputs`; every
// output but "" (an absent optional one) is a graph output, the caller adds graph inputs, initializers and attributes.
::onnx::ModelProto OneNode(std::int64_t opset, const std::string& op_type, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs, ::onnx::NodeProto*& node);

void AddFloatInitializer(::onnx::GraphProto& graph, const std::string& name, const std::vector<std::int64_t>& dims,
                         const std::vector<float>& values);
// A rank-0 INT64 initializer.
void AddInt64Initializer(::onnx::GraphProto& graph, const std::string& name, std::int64_t value);

template <typename T>
NpyArray Array(DataType type, const TensorShape& shape, const std::vector<T>& values) {
  NpyArray array{type, shape, std::vector<std::uint8_t>(values.size() * sizeof(T))};
  std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

// `model` imported and run on CpuRef with `inputs`; the outputs by name.
std::map<std::string, NpyArray> Run(const ::onnx::ModelProto& model, const std::map<std::string, NpyArray>& inputs);

}  // namespace backplane::onnx::testing
