// Workloads: the compiled, immutable form of a layer on one backend (spec 004).
//
// A workload is created once, when a network is loaded, and may then be executed by many
// execution contexts at once: everything that changes per run (tensor memory, scratch space)
// comes in through WorkloadArgs, never from the workload's own members.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend/memory.hpp>
#include <backplane/backend/tensor_handle.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace backplane::backend {

// Per-run bindings. Handles and scratch are owned by the execution context and valid for the
// duration of Execute.
struct WorkloadArgs {
  const std::vector<ITensorHandle*>& inputs;
  const std::vector<ITensorHandle*>& outputs;
  void* scratch = nullptr;          // GetScratchSize() bytes, 64-byte aligned, or null if 0
};

// What runs a workload, for profiles (sdk-run --per-layer, --profile; Backend API 2.1). Value type.
struct WorkloadInfo {
  std::string implementation;  // the kernel or library path that runs it, e.g. oneDNN's "jit:avx2"; may be empty
  std::string slow_path;       // why it runs a path the backend knows to be slow (a reference kernel, a
                               // fallback for an unusual layout), or empty
};

class IWorkload {
 public:
  virtual ~IWorkload();
  // Thread-safe: may run concurrently with other Execute calls on other WorkloadArgs.
  // Throws backplane::Exception on failure.
  virtual void Execute(const WorkloadArgs& args) const = 0;
  // Per-run working memory this workload needs. Default 0.
  virtual std::size_t GetScratchSize() const;
  // What runs this workload. Read once, after creation; must not change afterwards. Default:
  // nothing said (both empty).
  virtual WorkloadInfo GetInfo() const;
};

// Creates the workloads of one loaded network on one backend. Owned by the compiled network;
// lives as long as it. Not required to be thread-safe: the runtime calls it from one thread.
class IWorkloadFactory {
 public:
  virtual ~IWorkloadFactory();
  // Throws backplane::Exception (code kUnsupported) for a layer it cannot create, naming it.
  // Constant inputs (weights) are read here (ILayerView::GetConstantInput) and may be repacked
  // or uploaded to a device. At run time a constant input arrives as a host tensor handle over
  // the constant's data, whatever factories the backend prefers (the runtime never copies
  // constants per run); a device backend uses what it uploaded here instead.
  virtual std::unique_ptr<IWorkload> CreateWorkload(const ILayerView& layer) = 0;
};

}  // namespace backplane::backend
