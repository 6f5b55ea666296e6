#include "onednn_workload_factory.hpp"

#include "fusion.hpp"
#include "ops/onednn_ops.hpp"

#include <algorithm>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace backplane::onednn {

namespace {
// Primitives size their work split by the thread count at creation: create them with the
// count they will run with, then restore the caller's.
class CreationThreads {
 public:
  explicit CreationThreads(int threads) {
#if defined(_OPENMP)
    previous_ = omp_get_max_threads();
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
  }
  ~CreationThreads() {
#if defined(_OPENMP)
    omp_set_num_threads(previous_);
#endif
  }

 private:
  int previous_ = 1;
};

// Runs `multi` (created for several threads) or, while the cores are busy with other work (or
// always, by option), `single` (the same layer created for one thread): see CpuLoadMonitor.
// Immutable; thread-safe as its two workloads are. The tensors' layouts may differ between the
// two; consumers reorder where they do.
class AdaptiveWorkload final : public backend::IWorkload {
 public:
  AdaptiveWorkload(std::unique_ptr<backend::IWorkload> multi, std::unique_ptr<backend::IWorkload> single,
                   ExecutionPtr execution)
      : multi_(std::move(multi)), single_(std::move(single)), execution_(std::move(execution)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const int threads = execution_->settings.threads;
    const bool one = execution_->settings.adaptive == AdaptiveThreads::kAlways || execution_->load->Busy(threads);
    (one ? single_ : multi_)->Execute(args);
  }
  std::size_t GetScratchSize() const override {
    return std::max(multi_->GetScratchSize(), single_->GetScratchSize());
  }
  // The multi-threaded form's, naming the one-thread form's implementation when it differs.
  backend::WorkloadInfo GetInfo() const override {
    backend::WorkloadInfo info = multi_->GetInfo();
    const backend::WorkloadInfo single = single_->GetInfo();
    if (single.implementation != info.implementation) {
      info.implementation += " (1 thread: " + single.implementation + ")";
    }
    if (info.slow_path.empty()) info.slow_path = single.slow_path;
    return info;
  }

 private:
  std::unique_ptr<backend::IWorkload> multi_;
  std::unique_ptr<backend::IWorkload> single_;
  ExecutionPtr execution_;
};

}  // namespace

OneDnnWorkloadFactory::OneDnnWorkloadFactory(Settings settings, ThreadGate* gate, CpuLoadMonitor* load)
    : execution_(std::make_shared<Execution>()) {
  execution_->engine = dnnl::engine(dnnl::engine::kind::cpu, 0);
  execution_->settings = settings;
  if (gate) {
    execution_->gate = gate;
  } else {
    execution_->owned_gate = std::make_shared<ThreadGate>(CoreCount());
    execution_->gate = execution_->owned_gate.get();
  }
  if (load) {
    execution_->load = load;
  } else {
    execution_->owned_load = std::make_shared<CpuLoadMonitor>(CoreCount());
    execution_->load = execution_->owned_load.get();
  }
  execution_->settings.threads = std::min(execution_->settings.threads, execution_->gate->Capacity());
  if (execution_->settings.fast_math && FastMathAvailable(nullptr)) {
    execution_->compute_type = dnnl::memory::data_type::bf16;
  }
  execution_->activation_tag = ProbeActivationTag(*execution_);
  if (execution_->settings.threads > 1 && execution_->settings.adaptive != AdaptiveThreads::kOff) {
    single_ = std::make_shared<Execution>(*execution_);
    single_->settings.threads = 1;
  }
}

std::unique_ptr<backend::IWorkload> OneDnnWorkloadFactory::Create(const backend::ILayerView& layer,
                                                                  const ExecutionPtr& execution) {
  CreationThreads threads(execution->settings.threads);
  if (layer.GetType() == backend::LayerType::kPreCompiled) return CreateFusedWorkload(layer, execution);
  return Ops().SupportingOrThrow(layer).create(SpecOf(layer), execution);
}

std::unique_ptr<backend::IWorkload> OneDnnWorkloadFactory::CreateWorkload(const backend::ILayerView& layer) {
  auto multi = Create(layer, execution_);
  if (!single_) return multi;
  return std::make_unique<AdaptiveWorkload>(std::move(multi), Create(layer, single_), execution_);
}

}  // namespace backplane::onednn
