// Creates CpuOneDnn workloads for one loaded network: plain layers through the op table,
// PreCompiled layers through fusion/. Owns the network's oneDNN engine and settings
// (shared with its workloads). Not thread-safe (the runtime calls it from one thread).
#pragma once

#include "onednn_backend_context.hpp"

#include <backplane/backend/workload.hpp>

#include <memory>

namespace backplane::onednn {

class OneDnnWorkloadFactory final : public backend::IWorkloadFactory {
 public:
  // `gate`, `load`: the runtime's (from the backend context), which outlive this factory and
  // its workloads; null: the factory makes its own over all cores.
  OneDnnWorkloadFactory(Settings settings, ThreadGate* gate, CpuLoadMonitor* load);
  // Throws backplane::Exception: kUnsupported "CpuOneDnn cannot run layer '<name>': <why>" when
  // the op table (or, for a PreCompiled layer, fusion/) refuses it; what the op's create throws.
  std::unique_ptr<backend::IWorkload> CreateWorkload(const backend::ILayerView& layer) override;

 private:
  std::unique_ptr<backend::IWorkload> Create(const backend::ILayerView& layer,
                                             const std::shared_ptr<const ExecutionSettings>& execution);

  std::shared_ptr<ExecutionSettings> execution_;
  std::shared_ptr<ExecutionSettings> single_;  // the same with one thread (adaptive threads), or null
};

}  // namespace backplane::onednn
