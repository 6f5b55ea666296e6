#include "import_context.hpp"

#include <backplane/checked_size.hpp>
#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::onnx {

namespace {

[[noreturn]] void InvalidModel(const std::string& message) { throw Exception(ErrorCode::kInvalidArgument, message); }

const char* AttributeTypeName(int type) {
  using A = ::onnx::AttributeProto;
  switch (type) {
    case A::FLOAT: return "FLOAT";
    case A::INT: return "INT";
    case A::STRING: return "STRING";
    case A::TENSOR: return "TENSOR";
    case A::GRAPH: return "GRAPH";
    case A::FLOATS: return "FLOATS";
    case A::INTS: return "INTS";
    case A::STRINGS: return "STRINGS";
    default: return "another type";
  }
}

}  // namespace

// ---- ImportContext ------------------------------------------------------------------------

ImportContext::ImportContext(Network& network, std::uint64_t max_tensor_bytes, std::uint64_t budget_bytes,
                             ExternalDataFolder external, SharedTensors* shared)
    : network_(network), max_tensor_bytes_(max_tensor_bytes), budget_bytes_(budget_bytes),
      external_(std::move(external)), shared_(shared) {}

void ImportContext::CheckBudget(const TensorInfo& info) const {
  const std::uint64_t bytes = CheckedNumBytes(info.shape.Dims(), info.type, "the tensor");
  if (bytes > budget_bytes_ - std::min(budget_used_, budget_bytes_)) {
    InvalidModel("the tensor " + std::string(ToString(info.type)) + " " + ToString(info.shape) + " needs " +
                 std::to_string(bytes) + " bytes, but the import's memory budget of " + std::to_string(budget_bytes_) +
                 " bytes (ImportOptions::memory_budget_bytes) has " + std::to_string(budget_used_) +
                 " bytes of constants and activations in use already");
  }
}

void ImportContext::Charge(const TensorInfo& info, const void* buffer) {
  if (buffer && charged_buffers_.count(buffer)) return;
  CheckBudget(info);
  budget_used_ += CheckedNumBytes(info.shape.Dims(), info.type, "the tensor");
  if (buffer) charged_buffers_.insert(buffer);
}

ConstantTensor ImportContext::ReadTensor(const ::onnx::TensorProto& tensor) const {
  if (tensor.data_location() == ::onnx::TensorProto::EXTERNAL) CheckBudget(TensorProtoInfo(tensor, max_tensor_bytes_));
  if (!shared_) return ReadTensorProto(tensor, max_tensor_bytes_, external_);
  return shared_->Get(tensor, [&] { return ReadTensorProto(tensor, max_tensor_bytes_, external_); });
}

void ImportContext::ReserveName(const std::string& name) { names_.insert(name); }

std::string ImportContext::UniqueName(const std::string& wanted) {
  std::string name = wanted.empty() ? std::string("layer") : wanted;
  for (int i = 1; names_.count(name); ++i) name = wanted + "_" + std::to_string(i);
  names_.insert(name);
  return name;
}

const Value* ImportContext::Find(const std::string& name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? nullptr : it->second.get();
}

void ImportContext::Define(const std::string& name, Value value) {
  if (!values_.emplace(name, std::make_shared<Value>(std::move(value))).second) {
    InvalidModel("tensor '" + name + "' is defined more than once (ONNX graphs are single-assignment)");
  }
}

void ImportContext::DefineConstant(const std::string& name, ConstantTensor constant) {
  Charge(constant.info(), constant.bytes().get());
  Value value;
  value.info = constant.info();
  value.constant = std::make_shared<const ConstantTensor>(std::move(constant));
  Define(name, std::move(value));
}

void ImportContext::DefineSlot(const std::string& name, OutputSlot slot) {
  Value value;
  value.info = InferInfo(slot);
  Charge(value.info, nullptr);
  value.slot = slot;
  Define(name, std::move(value));
}

void ImportContext::DefineBoundedSlot(const std::string& name, OutputSlot slot, ValidExtent extent) {
  Value value;
  value.info = InferInfo(slot);
  Charge(value.info, nullptr);
  value.slot = slot;
  value.extent = std::move(extent);
  Define(name, std::move(value));
}

void ImportContext::DefineSkipped(const std::string& name) {
  Value value;
  value.state = Value::State::kSkipped;
  Define(name, std::move(value));
}

void ImportContext::DefineAlias(const std::string& name, const std::string& existing) {
  const auto it = values_.find(existing);
  if (it == values_.end()) throw Exception(ErrorCode::kInternal, "tensor '" + existing + "' is not defined");
  if (!values_.emplace(name, it->second).second) {
    InvalidModel("tensor '" + name + "' is defined more than once (ONNX graphs are single-assignment)");
  }
}

void ImportContext::DefineUnavailable(const std::string& name, const std::string& reason) {
  Value value;
  value.state = Value::State::kUnavailable;
  value.reason = reason;
  Define(name, std::move(value));
}

OutputSlot ImportContext::Materialize(const std::string& name) {
  const auto it = values_.find(name);
  if (it == values_.end() || it->second->state != Value::State::kDefined) {
    throw Exception(ErrorCode::kInternal, "tensor '" + name + "' is used before it is defined");
  }
  Value& value = *it->second;
  if (value.slot) return *value.slot;
  value.slot = network_.AddConstant(UniqueName(name), value.constant->info(), value.constant->bytes());
  return *value.slot;
}

TensorInfo ImportContext::InferInfo(OutputSlot slot) {
  TensorInfo info = network_.GetOutputInfo(slot);
  CheckedNumBytes(info.shape.Dims(), info.type, max_tensor_bytes_, "ImportOptions::max_model_bytes", "the tensor");
  return info;
}

// ---- NodeContext --------------------------------------------------------------------------

NodeContext::NodeContext(ImportContext& context, const ::onnx::NodeProto& node, std::string name, std::int64_t opset)
    : context_(context), node_(node), name_(std::move(name)), opset_(opset) {}

bool NodeContext::HasInput(std::size_t i) const {
  return i < NumInputs() && !node_.input(static_cast<int>(i)).empty();
}

const Value& NodeContext::Input(std::size_t i) const {
  if (!HasInput(i)) Invalid("input " + std::to_string(i) + " is required");
  const Value* value = context_.Find(node_.input(static_cast<int>(i)));
  if (!value) throw Exception(ErrorCode::kInternal, "input '" + node_.input(static_cast<int>(i)) + "' is not defined");
  return *value;
}

const ConstantTensor* NodeContext::ConstantInput(std::size_t i) const {
  if (!HasInput(i)) return nullptr;
  return Input(i).constant.get();
}

const ConstantTensor& NodeContext::RequireConstant(std::size_t i, const std::string& what) const {
  const ConstantTensor* constant = ConstantInput(i);
  if (!HasInput(i)) Invalid("input " + std::to_string(i) + " (" + what + ") is required");
  if (!constant) {
    const std::string& tensor = node_.input(static_cast<int>(i));
    throw ValueNeededAtImport("input " + std::to_string(i) + " (" + what + ", '" + tensor +
                                  "') is computed at run time; the importer needs its value",
                              tensor);
  }
  return *constant;
}

std::vector<std::int64_t> NodeContext::RequireInts(std::size_t i, const std::string& what) const {
  const ConstantTensor& constant = RequireConstant(i, what);
  if (constant.type() != DataType::kInt64 && constant.type() != DataType::kInt32) {
    Invalid("input " + std::to_string(i) + " (" + what + ") must be int64, is " + ToString(constant.type()));
  }
  return constant.ToInt64();
}

bool NodeContext::AllInputsConstant() const {
  for (std::size_t i = 0; i < NumInputs(); ++i) {
    if (HasInput(i) && !Input(i).IsConstant()) return false;
  }
  return true;
}

OutputSlot NodeContext::Slot(std::size_t i) {
  Input(i);  // checks presence
  return context_.Materialize(node_.input(static_cast<int>(i)));
}

const ::onnx::AttributeProto* NodeContext::Attribute(const std::string& name, int type) const {
  for (const auto& attribute : node_.attribute()) {
    if (attribute.name() != name) continue;
    if (!attribute.ref_attr_name().empty()) Unsupported("attribute '" + name + "' refers to a function attribute");
    if (attribute.type() != type) {
      Invalid("attribute '" + name + "' is " + AttributeTypeName(attribute.type()) + ", expected " +
              AttributeTypeName(type));
    }
    return &attribute;
  }
  return nullptr;
}

bool NodeContext::HasAttribute(const std::string& name) const {
  for (const auto& attribute : node_.attribute()) {
    if (attribute.name() == name) return true;
  }
  return false;
}

std::int64_t NodeContext::Int(const std::string& name, std::int64_t fallback) const {
  const auto* attribute = Attribute(name, ::onnx::AttributeProto::INT);
  return attribute ? attribute->i() : fallback;
}

float NodeContext::Float(const std::string& name, float fallback) const {
  const auto* attribute = Attribute(name, ::onnx::AttributeProto::FLOAT);
  return attribute ? attribute->f() : fallback;
}

std::string NodeContext::String(const std::string& name, const std::string& fallback) const {
  const auto* attribute = Attribute(name, ::onnx::AttributeProto::STRING);
  return attribute ? attribute->s() : fallback;
}

std::vector<std::int64_t> NodeContext::Ints(const std::string& name, const std::vector<std::int64_t>& fallback) const {
  const auto* attribute = Attribute(name, ::onnx::AttributeProto::INTS);
  if (!attribute) return fallback;
  return {attribute->ints().begin(), attribute->ints().end()};
}

std::vector<float> NodeContext::Floats(const std::string& name, const std::vector<float>& fallback) const {
  const auto* attribute = Attribute(name, ::onnx::AttributeProto::FLOATS);
  if (!attribute) return fallback;
  return {attribute->floats().begin(), attribute->floats().end()};
}

const ::onnx::TensorProto* NodeContext::Tensor(const std::string& name) const {
  const auto* attribute = Attribute(name, ::onnx::AttributeProto::TENSOR);
  return attribute ? &attribute->t() : nullptr;
}

void NodeContext::SetOutput(std::size_t i, OutputSlot slot) {
  if (HasOutput(i)) context_.DefineSlot(node_.output(static_cast<int>(i)), slot);
}

void NodeContext::SetBoundedOutput(std::size_t i, OutputSlot slot, OutputSlot count, std::size_t axis) {
  if (HasOutput(i)) {
    context_.DefineBoundedSlot(node_.output(static_cast<int>(i)), slot, {count, axis, node_.op_type() + " '" + name_ + "'"});
  }
}

bool NodeContext::FoldsInto(const TensorInfo& info) const {
  context_.CheckBudget(info);
  return CheckedNumBytes(info.shape.Dims(), info.type, "the result") <= kMaxAmplifyingFoldBytes;
}

OutputSlot NodeContext::AddConstant(const ConstantTensor& constant, const std::string& suffix) {
  return context_.network().AddConstant(LayerName(suffix), constant.info(), constant.bytes());
}

void NodeContext::SetOutput(std::size_t i, ConstantTensor constant) {
  if (!HasOutput(i)) return;
  CheckedNumBytes(constant.shape().Dims(), constant.type(), max_bytes(), "ImportOptions::max_model_bytes", "the result");
  context_.DefineConstant(node_.output(static_cast<int>(i)), std::move(constant));
}

void NodeContext::SetOutputAlias(std::size_t i, std::size_t input) {
  Input(input);  // checks presence
  if (HasOutput(i)) context_.DefineAlias(node_.output(static_cast<int>(i)), node_.input(static_cast<int>(input)));
}

void NodeContext::SetOutputUnavailable(std::size_t i, const std::string& reason) {
  if (HasOutput(i)) context_.DefineUnavailable(node_.output(static_cast<int>(i)), reason);
}

void NodeContext::SetRemainingOutputsUnavailable(std::size_t from, const std::string& what) {
  for (std::size_t i = from; i < NumOutputs(); ++i) {
    SetOutputUnavailable(i, node_.op_type() + " '" + name_ + "' output " + std::to_string(i) + " (" + what +
                                ") is not supported");
  }
}

std::string NodeContext::LayerName(const std::string& suffix) {
  return context_.UniqueName(suffix.empty() ? name_ : name_ + "/" + suffix);
}

void NodeContext::Unsupported(const std::string& reason) const { throw NodeUnsupported(reason); }

void NodeContext::Invalid(const std::string& reason) const { throw Exception(ErrorCode::kInvalidArgument, reason); }

}  // namespace backplane::onnx
