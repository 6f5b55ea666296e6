// The CpuOneDnn backend context (one per runtime) and the execution settings every workload of
// a network uses: thread count, fast math, the oneDNN engine, the runtime's thread gate and
// CPU load monitor.
#pragma once

#include "cpu_load.hpp"
#include "desc_pool.hpp"
#include "run_objects.hpp"
#include "thread_gate.hpp"

#include <backplane/backend/backend.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <string>

namespace backplane::onednn {

// Backend options (RuntimeOptions::backend_options["CpuOneDnn"], sdk-run --threads N; declared
// by OneDnnBackend::GetOptionSpecs):
//   "threads"   = N >= 1: oneDNN threads per running workload (default: all cores)
//   "fast_math" = "0" | "1" | "false" | "true": on CPUs with native bf16 (AVX512-BF16, AMX) convolutions and
//                 pooling read and write their activations in bf16, and matmuls with
//                 constant weights read weights and inputs in bf16 (f32 accumulation; their
//                 outputs f32); default "0". See FastMathAvailable.
//   "adaptive_threads" = "1" | "0" | "always": with threads > 1, run each primitive on one
//                 thread while other work keeps the cores busy (CpuLoadMonitor; default "1"),
//                 never ("0"), or always ("always", to check the single-thread variants)
//   "winograd"  = "1" | "0" | "true" | "false": 3x3 stride-1 convolutions may use Winograd
//                 F(2x2,3x3) where oneDNN has it (default "1": faster runs); "0" trades that for
//                 faster loads (its weight transform is most of a load: resnet50 loads in half
//                 the time and runs ~10 % slower)
enum class AdaptiveThreads { kAuto, kOff, kAlways };
struct Settings {
  int threads = 1;
  bool fast_math = false;
  AdaptiveThreads adaptive = AdaptiveThreads::kAuto;
  bool winograd = true;
};

// The number of cores oneDNN may use on this machine (at least 1), as online when first asked.
// Thread-safe.
int CoreCount();
// Defaults: every core, no fast math.
Settings DefaultSettings();
// Parses the options; throws backplane::Exception (kInvalidArgument) naming a bad value
// ("CpuOneDnn option threads='x' is not a positive integer") or a key that is not one of the
// four above.
Settings ParseSettings(const backend::BackendOptions& options);
// Whether fast_math takes effect here: oneDNN has a non-reference bf16 matmul on this CPU
// (AVX512-BF16 or AMX). If not, why (fast_math=1 then computes in f32). Probed once.
bool FastMathAvailable(std::string* reason);

// The settings the workloads of one loaded network execute with (engine, options, thread gate,
// layouts, compute type). Immutable after construction except the gate and the load monitor,
// which are thread-safe. Owned jointly by the workload factory and its workloads.
struct ExecutionSettings {
  dnnl::engine engine;
  Settings settings;
  ThreadGate* gate = nullptr;               // the runtime's (context) or owned_gate
  std::shared_ptr<ThreadGate> owned_gate;   // set when there is no backend context
  CpuLoadMonitor* load = nullptr;           // the runtime's (context) or owned_load
  std::shared_ptr<CpuLoadMonitor> owned_load;
  // The 4-D activation layout of this CPU's convolutions (in f32: nChw16c on AVX-512 cores,
  // nChw8c on AVX2, else what oneDNN picks; in bf16 what oneDNN picks, nhwc with AMX);
  // convolutions are created for it, and so are elementwise,
  // pooling and normalization primitives, so tensors pass between them without reorders.
  dnnl::memory::format_tag activation_tag = dnnl::memory::format_tag::nChw16c;
  // bf16 with fast_math where FastMathAvailable, else f32: what convolutions and pooling keep
  // activations in (ActivationTypes) and what constant-weight matmuls read their inputs and
  // weights as. Everything else computes in f32, converting what it reads.
  dnnl::memory::data_type compute_type = dnnl::memory::data_type::f32;
  // The memory descriptors the workloads keep (PrimitiveWorkload), one copy of each, and the
  // stream and memory objects their Executes use; shared by copies of these settings (the
  // one-thread variant).
  std::shared_ptr<DescPool> descs = std::make_shared<DescPool>();
  std::shared_ptr<RunPool> runs = std::make_shared<RunPool>();

  // An attribute with a user-provided scratchpad (so one primitive can run concurrently on
  // several contexts) and, with fast_math on oneDNN >= 2.7, the bf16 fpmath mode (for the
  // primitives that keep f32 types).
  dnnl::primitive_attr Attr() const;
  // The threads a workload of these settings runs on now, on this thread: settings.threads, or 1
  // while a OneThreadScope is open here.
  int Threads() const;
};

// While it lives, workloads executed on this thread run on one thread (ExecutionSettings::Threads):
// the one-thread variant of a workload whose primitives do not fix their thread count at
// creation (onednn_workload_factory.cpp). Nestable; not to be moved across threads.
class OneThreadScope {
 public:
  OneThreadScope();
  ~OneThreadScope();
  OneThreadScope(const OneThreadScope&) = delete;
  OneThreadScope& operator=(const OneThreadScope&) = delete;
};

// The first channel-blocked layout oneDNN has a non-reference 3x3 convolution for, else the
// layout it picks by itself (ExecutionSettings::activation_tag).
dnnl::memory::format_tag ProbeActivationTag(const ExecutionSettings& execution);

// Whether oneDNN implements `pd` with a reference (plain C++, slow) kernel.
bool IsReference(const dnnl::primitive_desc_base& pd);

// Per runtime: the parsed options, and the gate and load monitor all networks of the runtime
// share. Created by OneDnnBackend::CreateBackendContext, held by the runtime for its lifetime.
// Thread-safe.
class OneDnnBackendContext final : public backend::IBackendContext {
 public:
  explicit OneDnnBackendContext(Settings settings)
      : settings_(settings), gate_(CoreCount()), load_(CoreCount()) {}
  bool BeforeLoadNetwork(backend::NetworkId) override { return true; }
  bool AfterLoadNetwork(backend::NetworkId) override { return true; }
  bool BeforeUnloadNetwork(backend::NetworkId) override { return true; }
  bool AfterUnloadNetwork(backend::NetworkId) override { return true; }

  const Settings& GetSettings() const { return settings_; }
  ThreadGate& Gate() { return gate_; }
  CpuLoadMonitor& Load() { return load_; }

 private:
  Settings settings_;
  ThreadGate gate_;
  CpuLoadMonitor load_;
};

}  // namespace backplane::onednn
