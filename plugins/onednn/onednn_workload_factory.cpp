#include "onednn_workload_factory.hpp"

#include "fusion/fusion.hpp"
#include "onednn_tensor_handle.hpp"
#include "ops/onednn_ops.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

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
// always, by option), `single` (the same layer created for one thread; null: `multi` run in a
// OneThreadScope): see CpuLoadMonitor. Immutable; thread-safe as its workloads are. The
// tensors' layouts may differ between the two; consumers reorder where they do.
class AdaptiveWorkload final : public backend::IWorkload {
 public:
  AdaptiveWorkload(std::unique_ptr<backend::IWorkload> multi, std::unique_ptr<backend::IWorkload> single,
                   ExecutionSettingsPtr execution)
      : multi_(std::move(multi)), single_(std::move(single)), execution_(std::move(execution)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const int threads = execution_->settings.threads;
    const bool one = execution_->settings.adaptive == AdaptiveThreads::kAlways || execution_->load->Busy(threads);
    if (!one) {
      multi_->Execute(args);
    } else if (single_) {
      single_->Execute(args);
    } else {
      const OneThreadScope scope;
      multi_->Execute(args);
    }
  }
  std::size_t GetScratchSize() const override {
    return single_ ? std::max(multi_->GetScratchSize(), single_->GetScratchSize()) : multi_->GetScratchSize();
  }
  // The multi-threaded form's, naming the one-thread form's implementation when it differs.
  backend::WorkloadInfo GetInfo() const override {
    backend::WorkloadInfo info = multi_->GetInfo();
    if (!single_) return info;
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
  ExecutionSettingsPtr execution_;
};

// Reports to the layer's tensor handles when their content is produced and read
// (OneDnnTensorHandle::Produced, ReadDone), so that a tensor's block goes back to the pool once
// its last reader has run. Every workload of the factory is wrapped in one: a reader on this
// backend always reports. Immutable; thread-safe as the wrapped workload is.
class TensorLifetimeWorkload final : public backend::IWorkload {
 public:
  TensorLifetimeWorkload(std::unique_ptr<backend::IWorkload> workload, const backend::ILayerView& layer)
      : workload_(std::move(workload)) {
    for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) {
      const std::size_t readers = layer.GetOutputConsumerCount(i);
      readers_.push_back(readers == SIZE_MAX ? 0 : readers);  // unknown: kept
    }
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    workload_->Execute(args);
    for (std::size_t i = 0; i < args.outputs.size() && i < readers_.size(); ++i) {
      if (auto* output = dynamic_cast<OneDnnTensorHandle*>(args.outputs[i])) output->Produced(readers_[i]);
    }
    for (backend::ITensorHandle* input : args.inputs) {
      if (auto* ours = dynamic_cast<OneDnnTensorHandle*>(input)) ours->ReadDone();
    }
  }
  std::size_t GetScratchSize() const override { return workload_->GetScratchSize(); }
  backend::WorkloadInfo GetInfo() const override { return workload_->GetInfo(); }

 private:
  std::unique_ptr<backend::IWorkload> workload_;
  std::vector<std::size_t> readers_;  // per output: the layer inputs that read it (0: not counted)
};

}  // namespace

OneDnnWorkloadFactory::OneDnnWorkloadFactory(Settings settings, ThreadGate* gate, CpuLoadMonitor* load)
    : execution_(std::make_shared<ExecutionSettings>()) {
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
    single_ = std::make_shared<ExecutionSettings>(*execution_);
    single_->settings.threads = 1;
  }
}

std::unique_ptr<backend::IWorkload> OneDnnWorkloadFactory::Create(const backend::ILayerView& layer,
                                                                  const ExecutionSettingsPtr& execution) {
  CreationThreads threads(execution->settings.threads);
  if (layer.GetType() == backend::LayerType::kPreCompiled) return CreateFusedWorkload(layer, execution);
  return Ops().SupportingOrThrow(layer).create(SpecOf(layer), execution);
}

std::unique_ptr<backend::IWorkload> OneDnnWorkloadFactory::CreateWorkload(const backend::ILayerView& layer) {
  auto workload = Create(layer, execution_);
  if (single_) {
    // Fused layers are convolution or matrix-product chains: their thread count is fixed.
    const OpKernel* op = layer.GetType() == backend::LayerType::kPreCompiled ? nullptr : Ops().Find(layer.GetType());
    auto single = !op || op->threads_fixed_at_creation ? Create(layer, single_) : nullptr;
    workload = std::make_unique<AdaptiveWorkload>(std::move(workload), std::move(single), execution_);
  }
  return std::make_unique<TensorLifetimeWorkload>(std::move(workload), layer);
}

}  // namespace backplane::onednn
