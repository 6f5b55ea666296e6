// ImportModel: parse, validate, then translate the graph node by node into a Network.
#include <backplane/onnx_importer.hpp>

#include "converters.hpp"
#include "import_context.hpp"
#include "import_parsed.hpp"
#include "model_file.hpp"

#include <backplane/checked_size.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace backplane::onnx {

UnsupportedModelError::UnsupportedModelError(const std::string& message, std::vector<UnsupportedNode> nodes)
    : Exception(ErrorCode::kUnsupported, message), nodes_(std::move(nodes)) {}

UnsupportedModelError::~UnsupportedModelError() = default;

namespace {

using ::onnx::GraphProto;
using ::onnx::ModelProto;
using ::onnx::NodeProto;

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

// "the value of input 'a'" / "the values of inputs 'a', 'b'": what ImportOptions::input_values
// (or onnx::Session, from each run) would give.
std::string ValueInputsText(const std::vector<std::string>& names) {
  std::string text = names.size() == 1 ? "the value of input " : "the values of inputs ";
  for (std::size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + Quoted(names[i]);
  return text;
}

std::string JoinDims(const std::vector<std::int64_t>& dims) {
  std::string text;
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text;
}

class Importer {
 public:
  Importer(const ModelProto& model, std::string name, const ImportOptions& options, std::int64_t opset,
           ExternalDataFolder external, SharedTensors* shared)
      : model_(model), graph_(model.graph()), name_(std::move(name)), options_(options), opset_(opset),
        context_(network_, options.max_model_bytes, options.memory_budget_bytes, std::move(external), shared) {}

  ImportedModel Run() {
    ReserveNames();
    AddInitializers();
    AddInputs();
    for (const int index : NodeOrder()) ConvertNode(index);
    AddOutputs();
    if (!unsupported_.empty()) ThrowUnsupported();

    ImportedModel result;
    result.network = std::move(network_);
    result.inputs = inputs_;
    result.value_inputs.assign(value_inputs_.begin(), value_inputs_.end());
    for (const auto& output : graph_.output()) result.outputs.push_back(output.name());
    result.trimmed_outputs = trimmed_;
    result.opset = opset_;
    result.producer = model_.producer_name();
    if (!model_.producer_version().empty()) result.producer += " " + model_.producer_version();
    return result;
  }

 private:
  [[noreturn]] void Fail(const std::string& why) const {
    throw Exception(ErrorCode::kInvalidArgument, name_ + ": " + why);
  }

  std::string NodeName(int index) const {
    const NodeProto& node = graph_.node(index);
    return node.name().empty() ? "#" + std::to_string(index) : node.name();
  }

  // Graph input and output names are the network's; layers take other names.
  void ReserveNames() {
    std::set<std::string> outputs;
    if (graph_.output_size() == 0) Fail("the graph has no outputs");
    for (const auto& output : graph_.output()) {
      if (output.name().empty()) Fail("a graph output has no name");
      if (!outputs.insert(output.name()).second) Fail("graph output " + Quoted(output.name()) + " is listed twice");
      context_.ReserveName(output.name());
    }
    for (const auto& input : graph_.input()) context_.ReserveName(input.name());
  }

  void AddInitializers() {
    for (const auto& tensor : graph_.initializer()) {
      const std::string& name = tensor.name();
      if (name.empty()) Fail("an initializer has no name");
      if (context_.Find(name)) Fail("initializer " + Quoted(name) + " is defined twice");
      try {
        context_.DefineConstant(name, context_.ReadTensor(tensor));
      } catch (const Exception& error) {
        const std::string what = "initializer " + Quoted(name) + ": " + error.what();
        if (error.code() == ErrorCode::kNotFound) throw Exception(error.code(), name_ + ": " + what);
        if (error.code() != ErrorCode::kUnsupported) Fail(what);
        context_.DefineUnavailable(name, what);
      }
    }
    for (const auto& sparse : graph_.sparse_initializer()) {
      const std::string& name = sparse.values().name();
      if (!name.empty() && !context_.Find(name)) {
        context_.DefineUnavailable(name, "sparse initializer " + Quoted(name) + " is not supported");
      }
    }
  }

  void AddInputs() {
    std::set<std::string> known;
    std::vector<std::string> missing;
    for (const auto& input : graph_.input()) {
      const std::string& name = input.name();
      if (name.empty()) Fail("a graph input has no name");
      if (!known.insert(name).second) Fail("graph input " + Quoted(name) + " is listed twice");
      if (context_.Find(name)) continue;  // an initializer: a constant (IR < 4 lists them as inputs)
      if (!input.type().has_tensor_type()) Fail("input " + Quoted(name) + " is not a tensor");
      const auto& tensor_type = input.type().tensor_type();
      DataType type;
      if (!DataTypeFromOnnx(tensor_type.elem_type(), type)) {
        throw Exception(ErrorCode::kUnsupported, name_ + ": input " + Quoted(name) + " is " +
                                                     OnnxTypeName(tensor_type.elem_type()) +
                                                     "; networks take numeric and BOOL inputs");
      }
      if (const auto value = options_.input_values.find(name); value != options_.input_values.end()) {
        DefineValueInput(name, type, tensor_type, value->second);
        continue;
      }
      const auto given = options_.input_shapes.find(name);
      std::vector<std::int64_t> dims;
      if (given != options_.input_shapes.end()) {
        dims = given->second;
        if (tensor_type.has_shape()) CheckGivenShape("input_shapes", name, tensor_type.shape(), dims);
        for (const auto dim : dims) {
          if (dim <= 0) Fail("ImportOptions::input_shapes gives input " + Quoted(name) + " the shape [" + JoinDims(dims) + "]; every dimension must be positive");
        }
      } else if (!tensor_type.has_shape()) {
        missing.push_back("input " + Quoted(name) + " has no shape in the model");
        continue;
      } else {
        const auto& shape = tensor_type.shape();
        for (int i = 0; i < shape.dim_size(); ++i) {
          const auto& dim = shape.dim(i);
          if (dim.has_dim_value() && dim.dim_value() > 0) {
            dims.push_back(dim.dim_value());
          } else if (dim.has_dim_value() && dim.dim_value() == 0) {
            Fail("input " + Quoted(name) + " dimension " + std::to_string(i) + " is 0 (empty tensors are not supported)");
          } else if (dim.has_dim_value()) {
            Fail("input " + Quoted(name) + " dimension " + std::to_string(i) + " is " + std::to_string(dim.dim_value()) +
                 " (dimensions must be positive)");
          } else {
            missing.push_back("input " + Quoted(name) + " dimension " + std::to_string(i) +
                              (dim.has_dim_param() && !dim.dim_param().empty() ? " (" + Quoted(dim.dim_param()) + ")" : std::string()) +
                              " is dynamic");
          }
        }
        if (dims.size() != static_cast<std::size_t>(shape.dim_size())) continue;
      }
      try {
        CheckedNumBytes(dims, type, options_.max_model_bytes, "ImportOptions::max_model_bytes", "input " + Quoted(name));
        context_.DefineSlot(name, network_.AddInput(name, TensorInfo{TensorShape(dims), type}));
      } catch (const Exception& error) {
        Fail(error.what());
      }
      inputs_.push_back(name);
    }
    for (const auto& entry : options_.input_shapes) CheckOptionNamesInput("input_shapes", entry.first, known);
    for (const auto& entry : options_.input_values) CheckOptionNamesInput("input_values", entry.first, known);
    if (!missing.empty()) {
      std::string message = "the input shapes are not all fixed: ";
      for (std::size_t i = 0; i < missing.size(); ++i) message += (i ? "; " : "") + missing[i];
      Fail(message + ". Give the full shape of each such input with ImportOptions::input_shapes "
                     "(sdk-run: --input-shape NAME=D0,D1,...)");
    }
  }

  // `option` (ImportOptions::input_shapes or ::input_values) names `name`: it must be a graph
  // input (`known`) that is not an initializer.
  void CheckOptionNamesInput(const std::string& option, const std::string& name, const std::set<std::string>& known) {
    if (known.count(name) && (std::count(inputs_.begin(), inputs_.end(), name) || value_inputs_.count(name))) return;
    const Value* value = context_.Find(name);
    if (value && value->IsConstant()) {
      Fail("ImportOptions::" + option + " names " + Quoted(name) + ", which is an initializer, not an input");
    }
    if (!known.count(name)) {
      std::string names;
      for (const auto& input : graph_.input()) {
        const Value* defined = context_.Find(input.name());
        if (!defined || !defined->IsConstant() || value_inputs_.count(input.name())) {
          names += (names.empty() ? "" : ", ") + input.name();
        }
      }
      Fail("ImportOptions::" + option + " names " + Quoted(name) + ", which is not an input of the model (its inputs: " +
           names + ")");
    }
  }

  // An input given in ImportOptions::input_values: a constant of its value, checked against the
  // model's type and shape (and ImportOptions::input_shapes, if it gives one too).
  void DefineValueInput(const std::string& name, DataType type, const ::onnx::TypeProto::Tensor& tensor_type,
                        const ConstTensorView& value) {
    const std::string what = "ImportOptions::input_values gives input " + Quoted(name);
    if (value.info.type != type) {
      Fail(what + " as " + ToString(value.info.type) + "; the model's input is " + ToString(type));
    }
    const std::vector<std::int64_t>& dims = value.info.shape.Dims();
    for (const auto dim : dims) {
      if (dim < 0) Fail(what + " the shape [" + JoinDims(dims) + "]; dimensions cannot be negative");
    }
    if (tensor_type.has_shape()) CheckGivenShape("input_values", name, tensor_type.shape(), dims);
    const auto shape = options_.input_shapes.find(name);
    if (shape != options_.input_shapes.end() && shape->second != dims) {
      Fail(what + " the shape [" + JoinDims(dims) + "], but ImportOptions::input_shapes gives [" +
           JoinDims(shape->second) + "]");
    }
    try {
      const std::size_t bytes =
          CheckedNumBytes(dims, type, options_.max_model_bytes, "ImportOptions::max_model_bytes", "input " + Quoted(name));
      if (bytes && !value.data) Fail(what + " with no data");
      const auto* begin = static_cast<const std::uint8_t*>(value.data);
      context_.DefineConstant(name, ConstantTensor(value.info, std::make_shared<const std::vector<std::uint8_t>>(
                                                                   begin, begin + bytes)));
    } catch (const Exception& error) {
      Fail(error.what());
    }
    value_inputs_.insert(name);
  }

  void CheckGivenShape(const std::string& option, const std::string& name, const ::onnx::TensorShapeProto& shape,
                       const std::vector<std::int64_t>& dims) {
    if (static_cast<std::size_t>(shape.dim_size()) != dims.size()) {
      Fail("ImportOptions::" + option + " gives input " + Quoted(name) + " rank " + std::to_string(dims.size()) +
           " ([" + JoinDims(dims) + "]), but the model's input has rank " + std::to_string(shape.dim_size()));
    }
    for (int i = 0; i < shape.dim_size(); ++i) {
      const auto& dim = shape.dim(i);
      if (dim.has_dim_value() && dim.dim_value() > 0 && dim.dim_value() != dims[static_cast<std::size_t>(i)]) {
        Fail("ImportOptions::" + option + " gives input " + Quoted(name) + " dimension " + std::to_string(i) + " = " +
             std::to_string(dims[static_cast<std::size_t>(i)]) + ", but the model fixes it to " +
             std::to_string(dim.dim_value()));
      }
    }
  }

  // The nodes in an order where each input is defined before use: the model's order when it is
  // already topologically sorted (as ONNX requires), else a stable topological sort.
  std::vector<int> NodeOrder() {
    const int count = graph_.node_size();
    std::set<std::string> defined{""};
    for (const auto& tensor : graph_.initializer()) defined.insert(tensor.name());
    for (const auto& input : graph_.input()) defined.insert(input.name());
    for (const auto& sparse : graph_.sparse_initializer()) defined.insert(sparse.values().name());

    std::map<std::string, int>& producer = producer_;
    for (int i = 0; i < count; ++i) {
      for (const auto& output : graph_.node(i).output()) {
        if (output.empty()) continue;
        if (defined.count(output) || !producer.emplace(output, i).second) {
          Fail("tensor " + Quoted(output) + " (output of node " + Quoted(NodeName(i)) + ", " + graph_.node(i).op_type() +
               ") is defined more than once");
        }
      }
    }
    std::vector<std::vector<int>> consumers(static_cast<std::size_t>(count));
    std::vector<int> pending(static_cast<std::size_t>(count), 0);
    for (int i = 0; i < count; ++i) {
      std::set<int> deps;
      for (const auto& input : graph_.node(i).input()) {
        if (defined.count(input)) continue;
        const auto it = producer.find(input);
        if (it == producer.end()) {
          Fail("node " + Quoted(NodeName(i)) + " (" + graph_.node(i).op_type() + ") reads " + Quoted(input) +
               ", which no node, initializer or graph input defines");
        }
        deps.insert(it->second);
      }
      for (const int dep : deps) consumers[static_cast<std::size_t>(dep)].push_back(i);
      pending[static_cast<std::size_t>(i)] = static_cast<int>(deps.size());
    }
    // Kahn's algorithm, lowest index first: the identity for a sorted graph.
    std::set<int> ready;
    for (int i = 0; i < count; ++i) {
      if (pending[static_cast<std::size_t>(i)] == 0) ready.insert(i);
    }
    std::vector<int> order;
    while (!ready.empty()) {
      const int i = *ready.begin();
      ready.erase(ready.begin());
      order.push_back(i);
      for (const int consumer : consumers[static_cast<std::size_t>(i)]) {
        if (--pending[static_cast<std::size_t>(consumer)] == 0) ready.insert(consumer);
      }
    }
    if (order.size() != static_cast<std::size_t>(count)) {
      std::string cycle;
      for (int i = 0; i < count; ++i) {
        if (pending[static_cast<std::size_t>(i)] > 0) cycle += (cycle.empty() ? "" : ", ") + Quoted(NodeName(i));
      }
      Fail("the graph has a cycle through the nodes " + cycle);
    }
    return order;
  }

  std::int64_t DomainOpset(const std::string& domain) const {
    for (const auto& entry : model_.opset_import()) {
      if (entry.domain() == domain) return entry.version();
    }
    return 0;
  }

  void Record(const NodeProto& node, const std::string& name, std::int64_t opset, const std::string& reason,
              std::vector<std::string> value_inputs = {}) {
    unsupported_.push_back({node.op_type(), name, opset, reason, std::move(value_inputs)});
  }

  // The graph inputs (fed at run time) that `tensor`'s value is computed from. The walk stops
  // at Shape and Size, whose results depend on shapes only (fixed at import).
  std::vector<std::string> GraphInputsBehind(const std::string& tensor) const {
    const std::set<std::string> fed(inputs_.begin(), inputs_.end());
    std::set<std::string> seen{tensor}, found;
    std::vector<std::string> pending{tensor};
    while (!pending.empty()) {
      const std::string name = pending.back();
      pending.pop_back();
      if (fed.count(name)) found.insert(name);
      const auto producer = producer_.find(name);
      if (producer == producer_.end()) continue;
      const NodeProto& node = graph_.node(producer->second);
      if (node.op_type() == "Shape" || node.op_type() == "Size") continue;
      for (const auto& input : node.input()) {
        if (!input.empty() && seen.insert(input).second) pending.push_back(input);
      }
    }
    return {found.begin(), found.end()};
  }

  void SkipOutputs(const NodeProto& node) {
    for (const auto& output : node.output()) {
      if (!output.empty() && !context_.Find(output)) context_.DefineSkipped(output);
    }
  }

  // The node's inputs and outputs against what its op allows (a malformed node is a model error).
  void CheckArity(const NodeProto& node, const std::string& name, const OpConverter& op) const {
    const auto inputs = static_cast<std::size_t>(node.input_size());
    const auto outputs = static_cast<std::size_t>(node.output_size());
    auto fail = [&](const std::string& why) {
      Fail("node " + Quoted(name) + " (" + node.op_type() + "): " + why);
    };
    auto range = [](std::size_t low, std::size_t high) {
      return high == kVariadic ? std::to_string(low) + " or more"
             : low == high    ? std::to_string(low)
                              : std::to_string(low) + " to " + std::to_string(high);
    };
    if (inputs < op.min_inputs || inputs > op.max_inputs) {
      fail("has " + std::to_string(inputs) + " inputs; the op takes " + range(op.min_inputs, op.max_inputs));
    }
    for (std::size_t i = 0; i < inputs; ++i) {
      if ((i < op.min_inputs || op.max_inputs == kVariadic) && node.input(static_cast<int>(i)).empty()) {
        fail("input " + std::to_string(i) + " is required but empty");
      }
    }
    if (outputs == 0 || outputs > op.max_outputs) {
      fail("has " + std::to_string(outputs) + " outputs; the op has " + range(1, op.max_outputs));
    }
  }

  void ConvertNode(int index) {
    const NodeProto& node = graph_.node(index);
    const std::string name = NodeName(index);
    const bool default_domain = IsDefaultDomain(node.domain());
    const std::int64_t opset = default_domain ? opset_ : DomainOpset(node.domain());

    // What can be said without the inputs: an unknown domain or op is reported even downstream
    // of another unsupported node, so that one error lists every such node.
    std::string reason;
    const OpConverter* op = nullptr;
    if (!default_domain) {
      reason = "domain " + Quoted(node.domain()) + " is not supported (only the default ONNX domain)";
    } else if (!(op = FindConverter(node.op_type()))) {
      reason = "not in op set v2";
    } else if (opset < op->min_opset) {
      reason = "its opset-" + std::to_string(opset) + " form is not read (the importer reads " + node.op_type() +
               " from opset " + std::to_string(op->min_opset) + ")";
    } else {
      CheckArity(node, name, *op);
    }
    for (const auto& input : node.input()) {
      if (input.empty()) continue;
      const Value* value = context_.Find(input);
      if (value->state == Value::State::kUnavailable && reason.empty()) {
        reason = "reads " + Quoted(input) + ": " + value->reason;
      }
      if (value->state != Value::State::kDefined) {  // downstream of an unsupported node
        if (!reason.empty()) Record(node, name, opset, reason);
        SkipOutputs(node);
        return;
      }
    }
    if (reason.empty()) reason = ReadsValidExtent(node);
    if (!reason.empty()) {
      Record(node, name, opset, reason);
      SkipOutputs(node);
      return;
    }
    NodeContext context(context_, node, name, opset);
    try {
      op->convert(context);
    } catch (const ValueNeededAtImport& error) {
      Record(node, name, opset, error.what(), GraphInputsBehind(error.tensor()));
      SkipOutputs(node);
      return;
    } catch (const NodeUnsupported& error) {
      Record(node, name, opset, error.what());
      SkipOutputs(node);
      return;
    } catch (const Exception& error) {
      if (error.code() == ErrorCode::kUnsupported) {
        Record(node, name, opset, error.what());
        SkipOutputs(node);
        return;
      }
      const bool keep = error.code() == ErrorCode::kInternal || error.code() == ErrorCode::kNotFound;
      throw Exception(keep ? error.code() : ErrorCode::kInvalidArgument,
                      name_ + ": node " + Quoted(name) + " (" + node.op_type() + "): " + error.what());
    }
    for (int i = 0; i < node.output_size(); ++i) {
      const std::string& output = node.output(i);
      if (output.empty()) continue;
      const Value* value = context_.Find(output);
      if (!value) {
        throw Exception(ErrorCode::kInternal, name_ + ": node " + Quoted(name) + " (" + node.op_type() +
                                                  "): the importer did not define its output " + Quoted(output));
      }
      if (value->state == Value::State::kUnavailable) unavailable_producer_[output] = {node.op_type(), name};
    }
  }

  // Why `node` cannot read its inputs when one is bound-shaped (ValidExtent), else empty. The one
  // rule for data-dependent shapes inside the graph: they reach graph outputs only.
  std::string ReadsValidExtent(const NodeProto& node) const {
    for (const auto& input : node.input()) {
      const Value* value = input.empty() ? nullptr : context_.Find(input);
      if (value && value->extent) {
        return "reads " + Quoted(input) + ", whose shape " + value->extent->producer +
               " computes from the input values at run time: data-dependent shapes that feed other nodes are not "
               "supported (only as graph outputs)";
      }
    }
    return {};
  }

  // A bound-shaped graph output: the network output `name`, and its count as a network output
  // of its own (one per count tensor, however many outputs it trims), recorded in `trimmed_`.
  void AddTrimmedOutput(const std::string& name, const Value& value) {
    network_.AddOutput(name, *value.slot);
    const ValidExtent& extent = *value.extent;
    const auto key = std::make_pair(extent.count.layer, extent.count.index);
    auto found = count_outputs_.find(key);
    if (found == count_outputs_.end()) {
      const std::string count = context_.UniqueName(name + "/count");
      network_.AddOutput(count, extent.count);
      found = count_outputs_.emplace(key, count).first;
    }
    trimmed_.push_back({name, found->second, extent.axis});
  }

  void AddOutputs() {
    std::set<std::string> inputs(inputs_.begin(), inputs_.end());
    for (const auto& output : graph_.output()) {
      const std::string& name = output.name();
      const Value* value = context_.Find(name);
      if (!value) Fail("graph output " + Quoted(name) + " is not produced by any node");
      if (value->state == Value::State::kSkipped) continue;
      if (value->state == Value::State::kUnavailable) {
        const auto producer = unavailable_producer_.find(name);
        const std::string op = producer != unavailable_producer_.end() ? producer->second.first : "Output";
        const std::string node = producer != unavailable_producer_.end() ? producer->second.second : name;
        unsupported_.push_back({op, node, opset_, "graph output " + Quoted(name) + ": " + value->reason, {}});
        continue;
      }
      if (inputs.count(name)) {
        throw Exception(ErrorCode::kUnsupported, name_ + ": graph output " + Quoted(name) +
                                                     " is also a graph input; a network's inputs and outputs need distinct names");
      }
      DataType declared;
      if (output.type().has_tensor_type() && DataTypeFromOnnx(output.type().tensor_type().elem_type(), declared) &&
          declared != value->info.type) {
        Fail("graph output " + Quoted(name) + " is " + ToString(value->info.type) + " " + ToString(value->info.shape) +
             ", but the model declares " + OnnxTypeName(output.type().tensor_type().elem_type()));
      }
      if (value->extent) {
        AddTrimmedOutput(name, *value);
        continue;
      }
      try {
        network_.AddOutput(name, context_.Materialize(name));
      } catch (const NodeUnsupported& error) {
        unsupported_.push_back({"Output", name, opset_, error.what(), {}});
      }
    }
  }

  [[noreturn]] void ThrowUnsupported() const {
    std::string message = name_ + ": the model has " + std::to_string(unsupported_.size()) + " unsupported node" +
                          (unsupported_.size() == 1 ? "" : "s") + ":";
    for (const auto& node : unsupported_) {
      message += "\n  " + node.op_type + " " + Quoted(node.node_name) + " (opset " + std::to_string(node.opset) +
                 "): " + node.reason;
      if (!node.value_inputs.empty()) message += " (from " + ValueInputsText(node.value_inputs) + ")";
    }
    throw UnsupportedModelError(message, unsupported_);
  }

  const ModelProto& model_;
  const GraphProto& graph_;
  std::string name_;
  const ImportOptions& options_;
  std::int64_t opset_;
  Network network_;
  ImportContext context_;
  std::vector<std::string> inputs_;
  std::set<std::string> value_inputs_;   // inputs given by ImportOptions::input_values (constants)
  std::map<std::string, int> producer_;  // tensor -> the index of the node that computes it
  std::vector<UnsupportedNode> unsupported_;
  std::map<std::string, std::pair<std::string, std::string>> unavailable_producer_;  // output -> (op, node)
  std::vector<TrimmedOutput> trimmed_;                                     // AddTrimmedOutput
  std::map<std::pair<LayerId, std::uint32_t>, std::string> count_outputs_;  // count slot -> its output
};

}  // namespace

ImportedModel ImportParsedModel(const ModelProto& model, const std::string& name, const ImportOptions& options,
                                ExternalDataFolder external, SharedTensors* shared) {
  const std::int64_t opset = CheckModel(model, name);
  return Importer(model, name, options, opset, std::move(external), shared).Run();
}

ImportedModel ImportModelFromMemory(const void* data, std::size_t size, const std::string& name,
                                    const ImportOptions& options) {
  return ImportParsedModel(ParseModel(data, size, name, options.max_model_bytes), name, options, ExternalDataFolder());
}

ImportedModel ImportModel(const std::string& path, const ImportOptions& options) {
  return ImportParsedModel(ParseModelFile(path, options.max_model_bytes), path, options,
                           ExternalDataFolder::OfModel(path));
}

}  // namespace backplane::onnx
