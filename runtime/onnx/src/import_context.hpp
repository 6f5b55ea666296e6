// The state of one import: what every ONNX tensor name stands for (a network tensor, a known
// constant, or something that cannot be used), and the per-node view converters work with.
#pragma once

#include "constant_tensor.hpp"
#include "shared_tensors.hpp"

#include <backplane/network.hpp>

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_set>
#include <string>
#include <vector>

namespace backplane::onnx {

// Thrown by a converter that cannot translate its node; the importer records the node with
// this reason, marks its outputs as skipped and goes on, so that one error lists them all.
class NodeUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A NodeUnsupported for an input the converter needs as a constant (a shape, axes, scales) that
// is computed at run time: names that tensor, so that the importer can say which graph inputs
// it depends on (UnsupportedNode::value_inputs).
class ValueNeededAtImport : public NodeUnsupported {
 public:
  ValueNeededAtImport(const std::string& message, std::string tensor)
      : NodeUnsupported(message), tensor_(std::move(tensor)) {}
  const std::string& tensor() const { return tensor_; }

 private:
  std::string tensor_;
};

// A network tensor of an upper-bound shape (an output of NonZero, Compress, Unique or
// NonMaxSuppression, whose extent depends on the input values): only its first `count` entries
// along `axis` are valid, `count` being the value of the layer output `count` (i64 [1]). Such a
// tensor may be a graph output (the importer lists it in ImportedModel::trimmed_outputs and
// onnx::Session trims it); a node that reads one is refused (ImportContext::ReadsValidExtent).
struct ValidExtent {
  OutputSlot count;
  std::size_t axis = 0;
  std::string producer;  // "NonZero 'n'", for messages
};

// What an ONNX tensor name stands for during the import.
struct Value {
  enum class State {
    kDefined,      // `info` is known; `constant` and/or `slot` hold it
    kSkipped,      // produced by an unsupported node (already reported): consumers are skipped
    kUnavailable,  // cannot be used (an unsupported optional output, an unsupported initializer
                   // type): a consumer is reported with `reason`
  };
  State state = State::kDefined;
  TensorInfo info;
  std::optional<OutputSlot> slot;                   // in the network; constants get one lazily
  std::shared_ptr<const ConstantTensor> constant;   // the value, when known at import time
  std::string reason;                               // kUnavailable: why
  std::optional<ValidExtent> extent;                // a bound-shaped tensor: its valid extent

  bool IsConstant() const { return constant != nullptr; }
};

// Results of Expand, Tile, ConstantOfShape and broadcasting binary ops on constants are
// folded at import up to this size; larger ones are computed by layers at run time, so a small
// model cannot make the importer allocate (and spend time filling) large tensors: their size
// only counts against the memory budget, from their inferred shapes.
constexpr std::uint64_t kMaxAmplifyingFoldBytes = 64ull << 20;

// Owns the name -> Value map, the naming of layers and the import's memory budget. Not
// thread-safe (one per import).
class ImportContext {
 public:
  // `max_tensor_bytes`: ImportOptions::max_model_bytes; `budget_bytes`:
  // ImportOptions::memory_budget_bytes; `external`: where tensors stored outside the model are;
  // `shared`: where the model's tensors are read once for all its imports (null: read here).
  ImportContext(Network& network, std::uint64_t max_tensor_bytes, std::uint64_t budget_bytes,
                ExternalDataFolder external, SharedTensors* shared = nullptr);

  Network& network() { return network_; }
  std::uint64_t max_tensor_bytes() const { return max_tensor_bytes_; }

  // The memory budget (constants plus activations, see ImportOptions::memory_budget_bytes).
  // CheckBudget throws Exception (kInvalidArgument) when a new tensor of `info` would not fit in
  // what is left, naming its bytes, the budget and what is in use; it also throws (through the
  // checked size helper) when the shape's size overflows. Charge checks the same and then
  // counts the tensor; `buffer` (a constant's bytes, null for an activation) is counted once
  // however many names share it.
  void CheckBudget(const TensorInfo& info) const;
  void Charge(const TensorInfo& info, const void* buffer);
  std::uint64_t budget_used() const { return budget_used_; }

  // ReadTensorProto with this import's limit and external data folder, through the shared
  // tensors when there are; a tensor stored outside the model is checked against the memory
  // budget (CheckBudget) before it is read. Throws as ReadTensorProto and CheckBudget.
  ConstantTensor ReadTensor(const ::onnx::TensorProto& tensor) const;

  // Marks a layer name as taken (network inputs and outputs take theirs first).
  void ReserveName(const std::string& name);
  // `wanted`, or `wanted` with "_1", "_2", ... appended when taken; reserved on return.
  std::string UniqueName(const std::string& wanted);

  // Null when `name` is not defined (yet).
  const Value* Find(const std::string& name) const;
  // Defines `name` (an ONNX tensor) once; throws Exception (kInvalidArgument) on redefinition.
  void Define(const std::string& name, Value value);
  void DefineConstant(const std::string& name, ConstantTensor constant);
  // A network tensor: its info is inferred (Network::GetOutputInfo) and size-checked.
  void DefineSlot(const std::string& name, OutputSlot slot);
  // DefineSlot of a bound-shaped tensor whose valid extent `extent` says.
  void DefineBoundedSlot(const std::string& name, OutputSlot slot, ValidExtent extent);
  void DefineSkipped(const std::string& name);
  // `name` stands for the same value as `existing` (Identity, Dropout): materializing either
  // materializes both.
  void DefineAlias(const std::string& name, const std::string& existing);
  void DefineUnavailable(const std::string& name, const std::string& reason);

  // The network tensor of a defined value; a constant becomes a Constant layer named after the
  // tensor the first time. Throws NodeUnsupported for constants of types backends do not take.
  OutputSlot Materialize(const std::string& name);

  // The inferred info of `slot`, size-checked against max_tensor_bytes. Throws Exception
  // (kInvalidArgument) when inference fails or the tensor is too large.
  TensorInfo InferInfo(OutputSlot slot);

 private:
  Network& network_;
  std::uint64_t max_tensor_bytes_;
  std::uint64_t budget_bytes_;
  std::uint64_t budget_used_ = 0;
  ExternalDataFolder external_;
  SharedTensors* shared_;  // not owned; may be null
  std::unordered_set<const void*> charged_buffers_;
  std::map<std::string, std::shared_ptr<Value>> values_;
  std::set<std::string> names_;
};

// One node as its converter sees it. Optional inputs and outputs that are missing or named ""
// are absent. Layers added through it are named after the node.
class NodeContext {
 public:
  NodeContext(ImportContext& context, const ::onnx::NodeProto& node, std::string name, std::int64_t opset);

  const ::onnx::NodeProto& node() const { return node_; }
  const std::string& name() const { return name_; }  // the node's name, or "#<index>"
  std::int64_t opset() const { return opset_; }
  ImportContext& context() { return context_; }
  std::uint64_t max_bytes() const { return context_.max_tensor_bytes(); }
  // Whether an amplifying op (Expand, Tile, ConstantOfShape, a broadcasting binary op) on
  // constants should fold into a result of `info`: true up to kMaxAmplifyingFoldBytes; false
  // above (the converter adds layers instead). Either way the result is checked against the
  // memory budget first, before anything is allocated (throws as ImportContext::CheckBudget).
  bool FoldsInto(const TensorInfo& info) const;
  // A Constant layer named after the node ("<node>/<suffix>") holding `constant`; throws
  // NodeUnsupported for types op set v1 layers do not take (f16, bf16).
  OutputSlot AddConstant(const ConstantTensor& constant, const std::string& suffix);

  // Inputs.
  std::size_t NumInputs() const { return static_cast<std::size_t>(node_.input_size()); }
  bool HasInput(std::size_t i) const;
  const Value& Input(std::size_t i) const;      // throws Exception (kInvalidArgument) when absent
  const TensorInfo& InputInfo(std::size_t i) const { return Input(i).info; }
  const std::vector<std::int64_t>& InputDims(std::size_t i) const { return Input(i).info.shape.Dims(); }
  std::size_t InputRank(std::size_t i) const { return InputDims(i).size(); }
  const ConstantTensor* ConstantInput(std::size_t i) const;  // null when absent or not constant
  // The constant value of input i; throws NodeUnsupported naming `what` when it is computed at
  // run time.
  const ConstantTensor& RequireConstant(std::size_t i, const std::string& what) const;
  std::vector<std::int64_t> RequireInts(std::size_t i, const std::string& what) const;
  // True when every present input is a known constant (then the node can be folded).
  bool AllInputsConstant() const;
  OutputSlot Slot(std::size_t i);  // the input's network tensor (materializes constants)

  // Attributes; a present attribute of the wrong type throws Exception (kInvalidArgument).
  bool HasAttribute(const std::string& name) const;
  std::int64_t Int(const std::string& name, std::int64_t fallback) const;
  float Float(const std::string& name, float fallback) const;
  std::string String(const std::string& name, const std::string& fallback) const;
  std::vector<std::int64_t> Ints(const std::string& name, const std::vector<std::int64_t>& fallback = {}) const;
  std::vector<float> Floats(const std::string& name, const std::vector<float>& fallback = {}) const;
  const ::onnx::TensorProto* Tensor(const std::string& name) const;  // null when absent
  // ImportContext::ReadTensor.
  ConstantTensor ReadTensor(const ::onnx::TensorProto& tensor) const { return context_.ReadTensor(tensor); }

  // Outputs.
  std::size_t NumOutputs() const { return static_cast<std::size_t>(node_.output_size()); }
  bool HasOutput(std::size_t i) const { return i < NumOutputs() && !node_.output(static_cast<int>(i)).empty(); }
  void SetOutput(std::size_t i, OutputSlot slot);
  void SetOutput(std::size_t i, ConstantTensor constant);
  // Output i is the bound-shaped `slot`, valid up to the value of `count` along `axis`.
  void SetBoundedOutput(std::size_t i, OutputSlot slot, OutputSlot count, std::size_t axis);
  // Output i is input `input` (Identity, Dropout, no-op reshapes).
  void SetOutputAlias(std::size_t i, std::size_t input);
  // For optional outputs the importer cannot produce (MaxPool's Indices, ...).
  void SetOutputUnavailable(std::size_t i, const std::string& reason);
  // Every present output from index `from` on is unavailable.
  void SetRemainingOutputsUnavailable(std::size_t from, const std::string& what);

  // Adds a layer named after the node (`suffix` tells apart the extra layers of one node:
  // "<node>/<suffix>").
  template <typename Descriptor>
  OutputSlot Add(const Descriptor& descriptor, const std::vector<OutputSlot>& inputs, const std::string& suffix = {}) {
    return {AddLayer(descriptor, inputs, 1, suffix), 0};
  }
  template <typename Descriptor>
  LayerId AddLayer(const Descriptor& descriptor, const std::vector<OutputSlot>& inputs, std::uint32_t num_outputs,
                   const std::string& suffix = {}) {
    return context_.network().AddLayer(descriptor, LayerName(suffix), inputs, num_outputs);
  }
  // The inferred info of a tensor this node added.
  TensorInfo Info(OutputSlot slot) { return context_.InferInfo(slot); }

  [[noreturn]] void Unsupported(const std::string& reason) const;
  // A model error: Exception (kInvalidArgument); the importer adds the file and node names.
  [[noreturn]] void Invalid(const std::string& reason) const;

 private:
  std::string LayerName(const std::string& suffix);
  const ::onnx::AttributeProto* Attribute(const std::string& name, int type) const;

  ImportContext& context_;
  const ::onnx::NodeProto& node_;
  std::string name_;
  std::int64_t opset_;
};

}  // namespace backplane::onnx
