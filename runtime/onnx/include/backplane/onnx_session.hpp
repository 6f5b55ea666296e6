// onnx::Session (library Backplane::onnx): one ONNX model, opened once, run with any input
// shapes the model allows (symbolic batch and sequence axes, any image size).
//
// How: the network is specialized per distinct set of input shapes. The first run of a shape
// imports the parsed model with those shapes fixed (shape subgraphs fold), optimizes, places and
// loads it; later runs of that shape reuse the loaded network. Inputs whose values decide shapes
// (Reshape's shape, Resize's scales, TopK's K, ... given as graph inputs) are found by the
// importer (UnsupportedNode::value_inputs) and become part of the specialization: their values
// are constants of it, like TensorRT's shape tensors; so is an input with no elements (a
// network input has at least one). A new shape costs a fresh import and load
// of that shape; a cached one costs what a network loaded with that shape fixed costs
// (docs/onnx-import.md, "Shapes from the inputs", has the numbers).
#pragma once

#include <backplane/execution.hpp>
#include <backplane/onnx_export.hpp>
#include <backplane/onnx_importer.hpp>
#include <backplane/optimized_network.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace backplane {
class Runtime;
}

namespace backplane::onnx {

struct SessionOptions {
  // Import limits (max_model_bytes, memory_budget_bytes) for every specialization. input_shapes
  // fixes inputs for every run (a run with another shape is refused); input_values must be
  // empty (the session takes values from each run).
  ImportOptions import;
  OptimizeOptions optimize;
  ExecutionOptions execution;
  // Loaded specializations kept at most; the least recently used one is unloaded (once its
  // runs in progress end) when a new one would exceed this. At least 1.
  std::size_t max_specializations = 8;
  // An input is specialized on by value only up to this many elements (a shape or a list of
  // scales is small); a larger one that a node needs as a constant refuses the run.
  std::size_t max_value_input_elements = 1024;
};

// One output of a run, owned by the caller. Value type.
struct SessionOutput {
  std::string name;
  TensorInfo info;
  std::vector<std::uint8_t> data;  // info.NumBytes() bytes, dense, C order
};

// Counters since Open. Value type.
struct SessionStats {
  std::uint64_t runs = 0;
  std::uint64_t specializations_made = 0;     // runs that imported and loaded a new one
  std::uint64_t specializations_unloaded = 0;  // least recently used ones let go
  std::size_t specializations_loaded = 0;      // kept now
  double last_specialization_ms = 0;           // import + optimize + load of the newest one
};

// Thread-safe: any number of threads may Run at once; runs of one shape share its loaded
// network, each on an execution context of its own (contexts are pooled per specialization,
// so a specialization holds the working memory of as many runs as ever ran on it at once).
// The runtime must outlive the session; destroy the session while no Run is in progress.
class BACKPLANE_ONNX_API Session {
 public:
  // Reads, parses and checks the model at `path` (its external data is read from its folder
  // per specialization). Imports nothing yet. Throws as ImportModel for a file that cannot be
  // read or is malformed, Exception (kInvalidArgument) for bad options.
  static std::unique_ptr<Session> Open(Runtime& runtime, const std::string& path, SessionOptions options = {});
  ~Session();

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // The graph inputs a run binds (initializers excluded), and the outputs it returns, in
  // model order.
  const std::vector<std::string>& InputNames() const;
  const std::vector<std::string>& OutputNames() const;

  // Runs once: every input bound once by name, of the model's type, with a shape the model
  // allows. Returns the outputs in model order, each with the shape ONNX defines: an output
  // whose extent depends on the input values (NonZero, Compress, Unique, NonMaxSuppression),
  // which the network computes in an upper-bound shape, is trimmed to its valid part
  // (ImportedModel::trimmed_outputs; it may have no elements). Throws Exception (kInvalidArgument) naming the
  // input, the dimension and both values for a binding the model contradicts (a fixed
  // dimension, a rank, a type, one symbolic dimension given two values), having loaded
  // nothing; as ImportModel and Runtime::Optimize/LoadNetwork when a new shape cannot be
  // imported or placed (nothing already loaded is lost); and as ExecutionContext::Run.
  std::vector<SessionOutput> Run(const std::vector<InputBinding>& inputs);

  // The loaded network the given inputs run on, specialized first if new (for profiling and
  // placement reports: Runtime::GetNetworkSignature, CreateExecutionContext). Valid until it
  // is unloaded (max_specializations) or the session is destroyed. Throws as Run.
  NetworkId Specialize(const std::vector<InputBinding>& inputs);

  // Checks `inputs` against the model as Run does, running nothing: each bound input exists,
  // once, with the model's type and a shape it allows; with `all`, every input is bound.
  // Throws Exception (kInvalidArgument) as Run.
  void CheckInputs(const std::vector<InputBinding>& inputs, bool all = true) const;

  // What a new specialization imports for `inputs`, without optimizing or loading it, for tools
  // that place and load the network themselves (sdk-run): each bound input fixed by its shape
  // (or value, as Run decides), unbound ones as the model or import.input_shapes fix them.
  // Throws as CheckInputs(inputs, false), then as ImportModel.
  ImportedModel Import(const std::vector<InputBinding>& inputs);

  SessionStats GetStats() const;

  struct Impl;

 private:
  explicit Session(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace backplane::onnx
