// onnx::Session: specializations of one parsed model per set of input shapes (and the values
// of the inputs that decide shapes), kept in a bounded least-recently-used cache.
#include <backplane/onnx_session.hpp>

#include "constant_tensor.hpp"
#include "import_parsed.hpp"
#include "model_file.hpp"
#include "shared_tensors.hpp"

#include <backplane/runtime.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <chrono>
#include <list>
#include <map>
#include <mutex>
#include <set>

namespace backplane::onnx {

namespace {

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

// A graph input as the model declares it: its type and, per dimension, a fixed size (> 0) or
// a symbol ("batch"; empty for an unnamed dynamic dimension).
struct DeclaredInput {
  std::string name;
  DataType type = DataType::kFloat32;
  bool has_shape = false;
  std::vector<std::int64_t> fixed;   // 0 where dynamic
  std::vector<std::string> symbols;  // "" where fixed or unnamed
};

std::vector<DeclaredInput> DeclaredInputs(const ::onnx::GraphProto& graph, const std::string& path) {
  std::set<std::string> initializers;
  for (const auto& tensor : graph.initializer()) initializers.insert(tensor.name());
  std::vector<DeclaredInput> inputs;
  for (const auto& input : graph.input()) {
    if (initializers.count(input.name())) continue;
    DeclaredInput declared;
    declared.name = input.name();
    const auto& tensor_type = input.type().tensor_type();
    if (!input.type().has_tensor_type() || !DataTypeFromOnnx(tensor_type.elem_type(), declared.type)) {
      throw Exception(ErrorCode::kUnsupported, path + ": input " + Quoted(input.name()) +
                                                   " is not a tensor of a type networks take (numbers and BOOL)");
    }
    declared.has_shape = tensor_type.has_shape();
    for (const auto& dim : tensor_type.shape().dim()) {
      declared.fixed.push_back(dim.has_dim_value() ? dim.dim_value() : 0);
      declared.symbols.push_back(dim.has_dim_param() ? dim.dim_param() : std::string());
    }
    inputs.push_back(std::move(declared));
  }
  return inputs;
}

// A loaded network for one specialization, with a pool of execution contexts. Unloads the
// network when the last holder lets go (evicted and no run in progress). Thread-safe.
class Specialization {
 public:
  Specialization(Runtime& runtime, NetworkId id, ExecutionOptions execution, std::vector<std::string> network_inputs,
                 std::vector<TrimmedOutput> trimmed)
      : runtime_(runtime), id_(id), execution_(execution), network_inputs_(std::move(network_inputs)),
        trimmed_(std::move(trimmed)) {
    for (const auto& output : runtime.GetNetworkSignature(id).outputs) output_infos_[output.name] = output.info;
  }
  ~Specialization() {
    idle_.clear();
    try {
      runtime_.UnloadNetwork(id_);
    } catch (...) {  // nothing to report to at destruction; the runtime keeps its invariants
    }
  }
  Specialization(const Specialization&) = delete;
  Specialization& operator=(const Specialization&) = delete;

  NetworkId id() const { return id_; }

  // Runs once; returns `outputs` (graph outputs) in that order, each bound-shaped one trimmed to
  // its valid extent (the counts are bound as further outputs and dropped).
  std::vector<SessionOutput> Run(const std::vector<InputBinding>& inputs, const std::vector<std::string>& graph_outputs) {
    std::vector<std::string> outputs = graph_outputs;
    for (const auto& trimmed : trimmed_) {
      if (!std::count(outputs.begin(), outputs.end(), trimmed.count)) outputs.push_back(trimmed.count);
    }
    // `inputs` binds every model input once (checked); the value inputs are constants of the
    // network, so it takes only the others.
    std::vector<InputBinding> bound;
    if (network_inputs_.size() < inputs.size()) {
      for (const auto& input : inputs) {
        if (std::count(network_inputs_.begin(), network_inputs_.end(), input.name)) bound.push_back(input);
      }
    }
    std::vector<SessionOutput> results;
    std::vector<OutputBinding> bindings;
    results.reserve(outputs.size());
    static std::uint8_t empty_output;  // where an output of no elements points: never written
    for (const auto& name : outputs) {
      const TensorInfo& info = output_infos_.at(name);
      results.push_back({name, info, std::vector<std::uint8_t>(info.NumBytes())});
      bindings.push_back({name, TensorView{info, info.NumBytes() ? results.back().data.data() : &empty_output}});
    }
    std::unique_ptr<ExecutionContext> context = Borrow();
    context->Run(network_inputs_.size() < inputs.size() ? bound : inputs, bindings);
    Return(std::move(context));
    for (const auto& trimmed : trimmed_) {
      const auto at = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(outputs.begin(), outputs.end(), name) - outputs.begin());
      };
      SessionOutput& output = results[at(trimmed.output)];
      TrimOutput(trimmed, output.info, output.data, results[at(trimmed.count)].data);
    }
    results.resize(graph_outputs.size());
    return results;
  }

 private:
  std::unique_ptr<ExecutionContext> Borrow() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        auto context = std::move(idle_.back());
        idle_.pop_back();
        return context;
      }
    }
    return runtime_.CreateExecutionContext(id_, execution_);
  }
  void Return(std::unique_ptr<ExecutionContext> context) {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.push_back(std::move(context));
  }

  Runtime& runtime_;
  const NetworkId id_;
  const ExecutionOptions execution_;
  const std::vector<std::string> network_inputs_;
  const std::vector<TrimmedOutput> trimmed_;  // graph outputs of an upper-bound shape
  std::map<std::string, TensorInfo> output_infos_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<ExecutionContext>> idle_;
};

// One cache entry: made by the first run of its key, under `build` (runs of other keys go on).
struct Entry {
  std::mutex build;
  std::shared_ptr<Specialization> ready;
  std::list<std::string>::iterator recency;
};

}  // namespace

struct Session::Impl {
  Impl(Runtime& runtime, std::string path, SessionOptions options, ::onnx::ModelProto model)
      : runtime(runtime), path(std::move(path)), options(std::move(options)), model(std::move(model)) {}

  Runtime& runtime;
  std::string path;
  SessionOptions options;
  ::onnx::ModelProto model;
  // The model's weights, read once for every specialization (mutable: reading is not a change).
  mutable SharedTensors tensors;
  std::vector<DeclaredInput> declared;
  std::vector<std::string> input_names, output_names;

  mutable std::mutex mutex;  // guards what follows
  std::set<std::string> value_inputs;  // learned: inputs specialized on by value
  std::map<std::string, std::shared_ptr<Entry>> entries;
  std::list<std::string> recency;  // most recently used first
  SessionStats stats;

  // The binding of `name` among `inputs`, or null.
  static const InputBinding* Find(const std::vector<InputBinding>& inputs, const std::string& name);
  // See Session::CheckInputs.
  void CheckBindings(const std::vector<InputBinding>& inputs, bool all) const;
  std::string KeyOf(const std::vector<InputBinding>& inputs) const;  // under `mutex`
  std::shared_ptr<Entry> Acquire(const std::string& key);
  void Forget(const std::string& key);
  ImportedModel Import(const std::vector<InputBinding>& inputs, std::set<std::string>& values) const;
  bool LearnValueInputs(const UnsupportedModelError& error, const std::vector<InputBinding>& inputs,
                        std::set<std::string>& values) const;
  std::set<std::string> ValueInputs() const;
  bool AddValueInputs(const std::set<std::string>& values);  // true when one was new
  std::shared_ptr<Specialization> Load(const ImportedModel& imported, std::chrono::steady_clock::time_point start);
  std::shared_ptr<Specialization> Get(const std::vector<InputBinding>& inputs);
};

const InputBinding* Session::Impl::Find(const std::vector<InputBinding>& inputs, const std::string& name) {
  for (const auto& input : inputs) {
    if (input.name == name) return &input;
  }
  return nullptr;
}

void Session::Impl::CheckBindings(const std::vector<InputBinding>& inputs, bool all) const {
  auto fail = [](const std::string& why) { throw Exception(ErrorCode::kInvalidArgument, why); };
  std::set<std::string> seen;
  for (const auto& input : inputs) {
    if (!std::count(input_names.begin(), input_names.end(), input.name)) {
      std::string names;
      for (const auto& name : input_names) names += (names.empty() ? "" : ", ") + Quoted(name);
      fail("input " + Quoted(input.name) + " is not an input of the model (its inputs: " + names + ")");
    }
    if (!seen.insert(input.name).second) fail("input " + Quoted(input.name) + " is bound twice");
    if (!input.tensor.data && input.tensor.info.NumBytes()) fail("input " + Quoted(input.name) + " has no data");
  }
  // symbol -> where it was first seen and its value; a message is only built on a failure
  struct Seen {
    const std::string* input;
    std::size_t dimension;
    std::int64_t value;
  };
  std::map<std::string, Seen> symbols;
  auto dimension = [](const std::string& input, std::size_t i) {
    return "input " + Quoted(input) + " dimension " + std::to_string(i);
  };
  for (const auto& declared : declared) {
    const InputBinding* input = Find(inputs, declared.name);
    if (!input) {
      if (all) fail("input " + Quoted(declared.name) + " is not bound");
      continue;
    }
    const TensorInfo& info = input->tensor.info;
    const auto what = [&] { return "input " + Quoted(declared.name); };  // built on a failure only
    if (info.type != declared.type) {
      fail(what() + " is " + ToString(info.type) + "; the model's input is " + ToString(declared.type));
    }
    const auto& dims = info.shape.Dims();
    const auto given = options.import.input_shapes.find(declared.name);
    if (given != options.import.input_shapes.end() && given->second != dims) {
      fail(what() + " has the shape " + ToString(info.shape) +
           "; SessionOptions::import.input_shapes fixes it to " + ToString(TensorShape(given->second)));
    }
    if (!declared.has_shape) continue;
    if (dims.size() != declared.fixed.size()) {
      fail(what() + " has rank " + std::to_string(dims.size()) + " (" +
           ToString(info.shape) + "); the model's has rank " + std::to_string(declared.fixed.size()));
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
      if (declared.fixed[i] > 0 && dims[i] != declared.fixed[i]) {
        fail(dimension(declared.name, i) + " is " + std::to_string(dims[i]) + "; the model fixes it to " +
             std::to_string(declared.fixed[i]));
      }
      if (declared.symbols[i].empty()) continue;
      const auto [it, first] = symbols.emplace(declared.symbols[i], Seen{&declared.name, i, dims[i]});
      if (!first && it->second.value != dims[i]) {
        fail(dimension(declared.name, i) + " (" + Quoted(declared.symbols[i]) + ") is " + std::to_string(dims[i]) +
             ", but " + dimension(*it->second.input, it->second.dimension) +
             " (the same dimension in the model) is " + std::to_string(it->second.value));
      }
    }
  }
}

std::string Session::Impl::KeyOf(const std::vector<InputBinding>& inputs) const {
  std::string key;
  for (const auto& name : input_names) {
    const ConstTensorView& tensor = Find(inputs, name)->tensor;
    const auto& dims = tensor.info.shape.Dims();  // rank, then the dimensions, as bytes
    const std::uint64_t rank = dims.size();
    key.append(reinterpret_cast<const char*>(&rank), sizeof rank);
    key.append(reinterpret_cast<const char*>(dims.data()), dims.size() * sizeof(std::int64_t));
    if (value_inputs.count(name)) {  // (an empty input has one value: its shape says it)
      key.append(static_cast<const char*>(tensor.data), tensor.info.NumBytes());
    }
  }
  return key;
}

std::shared_ptr<Entry> Session::Impl::Acquire(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex);
  auto found = entries.find(key);
  if (found != entries.end()) {
    recency.splice(recency.begin(), recency, found->second->recency);
    return found->second;
  }
  auto entry = std::make_shared<Entry>();
  recency.push_front(key);
  entry->recency = recency.begin();
  entries.emplace(key, entry);
  while (entries.size() > options.max_specializations) {  // runs in progress keep theirs alive
    entries.erase(recency.back());
    recency.pop_back();
    ++stats.specializations_unloaded;
  }
  return entry;
}

void Session::Impl::Forget(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex);
  const auto found = entries.find(key);
  if (found == entries.end()) return;
  recency.erase(found->second->recency);
  entries.erase(found);
}

// Imports with each bound input fixed: by value when it is in `values` or has no elements, else
// by shape. When the import fails only on nodes that need the values of bound inputs, learns
// them into `values` and imports again (each round adds one at least, so this ends).
ImportedModel Session::Impl::Import(const std::vector<InputBinding>& inputs, std::set<std::string>& values) const {
  for (;;) {
    ImportOptions import = options.import;
    for (const auto& input : inputs) {
      if (values.count(input.name) || input.tensor.info.shape.NumElements() == 0) {
        import.input_values[input.name] = input.tensor;
      } else {
        import.input_shapes[input.name] = input.tensor.info.shape.Dims();
      }
    }
    try {
      return ImportParsedModel(model, path, import, ExternalDataFolder::OfModel(path), &tensors);
    } catch (const UnsupportedModelError& error) {
      if (!LearnValueInputs(error, inputs, values)) throw;
    }
  }
}

// True when every unsupported node of `error` needs only the values of bound inputs of at most
// max_value_input_elements elements, and one of them was not in `values` yet (added).
bool Session::Impl::LearnValueInputs(const UnsupportedModelError& error, const std::vector<InputBinding>& inputs,
                                     std::set<std::string>& values) const {
  std::set<std::string> wanted;
  for (const auto& node : error.nodes()) {
    if (node.value_inputs.empty()) return false;
    wanted.insert(node.value_inputs.begin(), node.value_inputs.end());
  }
  for (const auto& name : wanted) {
    const InputBinding* input = Find(inputs, name);
    if (!input || static_cast<std::uint64_t>(input->tensor.info.shape.NumElements()) > options.max_value_input_elements) {
      return false;
    }
  }
  const std::size_t before = values.size();
  values.insert(wanted.begin(), wanted.end());
  return values.size() > before;
}

std::set<std::string> Session::Impl::ValueInputs() const {
  std::lock_guard<std::mutex> lock(mutex);
  return value_inputs;
}

bool Session::Impl::AddValueInputs(const std::set<std::string>& values) {
  std::lock_guard<std::mutex> lock(mutex);
  const std::size_t before = value_inputs.size();
  value_inputs.insert(values.begin(), values.end());
  return value_inputs.size() > before;
}

std::shared_ptr<Specialization> Session::Impl::Load(const ImportedModel& imported,
                                                    std::chrono::steady_clock::time_point start) {
  const NetworkId id = runtime.LoadNetwork(runtime.Optimize(imported.network, options.optimize));
  auto made = std::make_shared<Specialization>(runtime, id, options.execution, imported.inputs, imported.trimmed_outputs);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::lock_guard<std::mutex> lock(mutex);
  ++stats.specializations_made;
  stats.last_specialization_ms = ms;
  return made;
}

// The specialization for `inputs`: cached, or imported and loaded now under its entry's lock
// (runs of other keys go on meanwhile). When the import learned a new value input, the key
// (which now includes its value) changes: the specialization is filed under the new one.
std::shared_ptr<Specialization> Session::Impl::Get(const std::vector<InputBinding>& inputs) {
  CheckBindings(inputs, true);
  std::string key;
  {
    std::lock_guard<std::mutex> lock(mutex);
    key = KeyOf(inputs);
  }
  std::shared_ptr<Entry> entry = Acquire(key);
  std::unique_lock<std::mutex> build(entry->build);
  if (entry->ready) return entry->ready;
  std::set<std::string> values = ValueInputs();
  std::shared_ptr<Specialization> made;
  try {
    const auto start = std::chrono::steady_clock::now();
    made = Load(Import(inputs, values), start);
  } catch (...) {
    Forget(key);
    throw;
  }
  if (AddValueInputs(values)) {
    Forget(key);
    build.unlock();
    {
      std::lock_guard<std::mutex> lock(mutex);
      key = KeyOf(inputs);
    }
    entry = Acquire(key);
    build = std::unique_lock<std::mutex>(entry->build);
  }
  if (!entry->ready) entry->ready = made;
  return entry->ready;
}

Session::Session(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Session::~Session() = default;

std::unique_ptr<Session> Session::Open(Runtime& runtime, const std::string& path, SessionOptions options) {
  if (!options.import.input_values.empty()) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "SessionOptions::import.input_values must be empty: the session takes values from each run");
  }
  if (options.max_specializations == 0) {
    throw Exception(ErrorCode::kInvalidArgument, "SessionOptions::max_specializations must be at least 1");
  }
  const std::uint64_t max_bytes = options.import.max_model_bytes;
  auto impl = std::make_unique<Impl>(runtime, path, std::move(options), ParseModelFile(path, max_bytes));
  CheckModel(impl->model, path);
  impl->declared = DeclaredInputs(impl->model.graph(), path);
  for (const auto& input : impl->declared) impl->input_names.push_back(input.name);
  for (const auto& output : impl->model.graph().output()) impl->output_names.push_back(output.name());
  return std::unique_ptr<Session>(new Session(std::move(impl)));
}

const std::vector<std::string>& Session::InputNames() const { return impl_->input_names; }
const std::vector<std::string>& Session::OutputNames() const { return impl_->output_names; }

std::vector<SessionOutput> Session::Run(const std::vector<InputBinding>& inputs) {
  const std::shared_ptr<Specialization> specialization = impl_->Get(inputs);
  std::vector<SessionOutput> outputs = specialization->Run(inputs, impl_->output_names);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  ++impl_->stats.runs;
  return outputs;
}

NetworkId Session::Specialize(const std::vector<InputBinding>& inputs) { return impl_->Get(inputs)->id(); }

void Session::CheckInputs(const std::vector<InputBinding>& inputs, bool all) const { impl_->CheckBindings(inputs, all); }

ImportedModel Session::Import(const std::vector<InputBinding>& inputs) {
  impl_->CheckBindings(inputs, false);
  std::set<std::string> values = impl_->ValueInputs();
  ImportedModel imported = impl_->Import(inputs, values);
  impl_->AddValueInputs(values);
  return imported;
}

SessionStats Session::GetStats() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  SessionStats stats = impl_->stats;
  stats.specializations_loaded = impl_->entries.size();
  return stats;
}

}  // namespace backplane::onnx
