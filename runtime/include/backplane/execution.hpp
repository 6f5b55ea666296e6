// Running a loaded network: execution contexts, bindings, profiling (spec 004).
//
// A loaded (compiled) network is immutable and shared; everything one run changes lives in an
// ExecutionContext. Any number of contexts may run the same network at once, one run per
// context at a time.
#pragma once

#include <backplane/backend_id.hpp>
#include <backplane/runtime_export.hpp>
#include <backplane/types.hpp>

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace backplane {

using NetworkId = std::uint64_t;

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
  bool profiling = false;  // record a ProfileEvent per workload of every run
};

// One workload's run. Times are microseconds from the start of the run.
struct ProfileEvent {
  std::string layer;
  BackendId backend;
  double start_us = 0;
  double duration_us = 0;
};

// Writes `events` (of one or more runs, each given by the run's start offset) as a Chrome
// trace ("chrome://tracing", Perfetto): {"traceEvents": [...]} with one complete event each.
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

  // The events of the last run (empty unless ExecutionOptions::profiling).
  virtual const std::vector<ProfileEvent>& GetProfile() const = 0;
  virtual NetworkId GetNetworkId() const = 0;
};

}  // namespace backplane
