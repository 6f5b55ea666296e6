#include "model_builder.hpp"

namespace backplane::onnx::testing {

void AddInts(::onnx::NodeProto& node, const std::string& name, std::vector<std::int64_t> values) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::INTS);
  for (const auto value : values) attribute->add_ints(value);
}

void AddInt(::onnx::NodeProto& node, const std::string& name, std::int64_t value) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::INT);
  attribute->set_i(value);
}

void AddString(::onnx::NodeProto& node, const std::string& name, const std::string& value) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::STRING);
  attribute->set_s(value);
}

ImportedModel ImportProto(const ::onnx::ModelProto& model) {
  const std::string bytes = model.SerializeAsString();
  return ImportModelFromMemory(bytes.data(), bytes.size(), "m.onnx");
}

void SetTensorType(::onnx::ValueInfoProto& value, const std::string& name, int elem_type,
                   const std::vector<std::int64_t>& dims) {
  value.set_name(name);
  auto* type = value.mutable_type()->mutable_tensor_type();
  type->set_elem_type(elem_type);
  auto* shape = type->mutable_shape();  // present, also for a scalar
  for (const auto d : dims) shape->add_dim()->set_dim_value(d);
}

::onnx::ModelProto OneNode(std::int64_t opset, const std::string& op_type, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs, ::onnx::NodeProto*& node) {
  ::onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(opset);
  auto* graph = model.mutable_graph();
  node = graph->add_node();
  node->set_op_type(op_type);
  node->set_name(op_type);
  for (const auto& name : inputs) node->add_input(name);
  for (const auto& name : outputs) {
    node->add_output(name);
    if (!name.empty()) graph->add_output()->set_name(name);
  }
  return model;
}

void AddFloatInitializer(::onnx::GraphProto& graph, const std::string& name, const std::vector<std::int64_t>& dims,
                         const std::vector<float>& values) {
  auto* tensor = graph.add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(::onnx::TensorProto::FLOAT);
  for (const auto d : dims) tensor->add_dims(d);
  for (const auto v : values) tensor->add_float_data(v);
}

void AddInt64Initializer(::onnx::GraphProto& graph, const std::string& name, std::int64_t value) {
  auto* tensor = graph.add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(::onnx::TensorProto::INT64);
  tensor->add_int64_data(value);
}

std::map<std::string, NpyArray> Run(const ::onnx::ModelProto& model, const std::map<std::string, NpyArray>& inputs) {
  return RunImportedOnCpuRef(ImportProto(model), inputs).outputs;
}

}  // namespace backplane::onnx::testing
