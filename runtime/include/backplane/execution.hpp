// Running a loaded network: execution contexts, bindings, profiling (spec 004).
//
// A loaded (compiled) network is immutable and shared; everything one run changes lives in an
// ExecutionContext. Any number of contexts may run the same network at once, one run per
// context at a time.
#pragma once

#include <backplane/backend_id.hpp>
#include <backplane/runtime_export.hpp>
#include <backplane/types.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace backplane {

struct InputBinding {
  std::string name;
  ConstTensorView tensor;
};

struct OutputBinding {
  std::string name;
  TensorView tensor;
};

// A network input or output as the loaded network expects it.
struct TensorSignature {
  std::string name;
  TensorInfo info;
};

struct NetworkSignature {
  std::vector<TensorSignature> inputs;
  std::vector<TensorSignature> outputs;
};

struct ExecutionOptions {
  // Record a ProfileEvent per step of every run. Costs two steady-clock reads and one event
  // (reused from run to run, no allocation once the names fit) per step and run.
  bool profiling = false;
};

// One step's run (a workload, or a copy or import between backends). Times are microseconds
// from the start of the run.
struct ProfileEvent {
  std::string layer;
  BackendId backend;
  double start_us = 0;
  double duration_us = 0;
  std::size_t step = 0;  // index into ExecutionContext::GetProfiledSteps()
};

// What one step of a run does, for reading its ProfileEvents: the same for every run of a
// loaded network. Value type.
struct ProfiledStep {
  std::string layer;                 // the layer's name; "a->b" or "output 'y'" for a copy/import
  BackendId backend;                 // empty for the copy into the user's output
  std::string op;                    // the layer type ("Convolution2d", "PreCompiled"), "Copy" or "Import"
  std::vector<TensorInfo> inputs;    // every input tensor, weights and bias included, in slot order
  std::vector<TensorInfo> outputs;
};

// More of what one step does: its arithmetic and what its backend says runs it. A list of its
// own, indexed like the steps, so that ProfiledStep keeps the layout programs were built with.
// Value type.
struct ProfiledStepDetail {
  // Floating-point operations per run (a multiply-add counts 2), from the shapes: convolutions,
  // MatMul and FullyConnected; for a fused (PreCompiled) layer, the sum over the layers it
  // replaced. 0 for other ops, copies and shapes that do not say.
  double flops = 0;
  std::string implementation;  // what runs it, as its backend says (e.g. oneDNN's "jit:avx2"); may be empty
  std::string slow_path;       // why its backend says it runs a slow path; empty when it does not
  // Milliseconds its backend took to create the step's workload when the network was loaded
  // (weights prepacked, primitives or kernels made): where a load's time goes. 0 for copies.
  double load_ms = 0;
};

// Writes `events` (of one or more runs, each given by the run's start offset) as a Chrome
// trace ("chrome://tracing", Perfetto): {"traceEvents": [...]} with one complete event each.
// Always valid JSON: bytes of a name that are not UTF-8 are written as U+FFFD.
BACKPLANE_RUNTIME_API void WriteChromeTrace(const std::vector<ProfileEvent>& events, std::ostream& out);

// Owns the working memory of one run at a time. Not thread-safe: use one context per thread.
// Keeps the loaded network's code and constants alive; once the network is unloaded, Run
// throws. Destroy contexts before the runtime for an orderly shutdown (they stay safe if not).
class BACKPLANE_RUNTIME_API ExecutionContext {
 public:
  virtual ~ExecutionContext();

  // Runs the network once. Every input and output of the network must be bound exactly once,
  // by name, with the expected type and shape and a non-null pointer; otherwise throws
  // Exception (kInvalidArgument) naming the binding and both shapes or types, having run
  // nothing. Outputs are written in place. Throws Exception (kNotFound) when the network was
  // unloaded, and whatever a backend threw (kBackendFailure) on failure.
  virtual void Run(const std::vector<InputBinding>& inputs,
                   const std::vector<OutputBinding>& outputs) = 0;

  // The events of the last run (empty unless ExecutionOptions::profiling). The reference is
  // valid until the next Run or the context's destruction.
  virtual const std::vector<ProfileEvent>& GetProfile() const = 0;
  // Every step a run goes through, in order (ProfileEvent::step indexes it); empty unless
  // ExecutionOptions::profiling. Valid as long as the context.
  virtual const std::vector<ProfiledStep>& GetProfiledSteps() const = 0;
  virtual NetworkId GetNetworkId() const = 0;
  // GetProfiledSteps()'s details, in the same order; empty unless ExecutionOptions::profiling.
  // Valid as long as the context. (Last, so that earlier virtual functions keep their slots.)
  virtual const std::vector<ProfiledStepDetail>& GetProfiledStepDetails() const = 0;
};

}  // namespace backplane
