// PrimitiveWorkload: one oneDNN primitive, created once at load, run by Execute on the tensors
// of one execution context. Every op of the backend builds one (ops/*.cpp): it names the
// primitive's runtime inputs (with the layout the primitive expects), its constant memories
// (weights reordered once at load) and its output (with the layout it produces).
//
// Layouts at Execute: an input already in the expected layout (a CpuOneDnn handle written by a
// producer that chose the same layout, or a plain host tensor where plain is expected) is read
// in place; anything else is reordered into per-run scratch. The output is written in the
// primitive's layout into a CpuOneDnn handle (which records it), or - for a host handle, whose
// content must be dense - through scratch and a reorder.
#pragma once

#include "../onednn_backend_context.hpp"
#include "../run_objects.hpp"
#include "implementation.hpp"

#include <backplane/backend/workload.hpp>
#include <backplane/types.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace backplane::onednn {

// Reorders between layouts only known at run time (what a producer wrote), made on first use
// and kept: producers write the same layout every run, and making a reorder means a primitive
// descriptor search each time. Thread-safe (a mutex around the lookup).
class ReorderCache {
 public:
  dnnl::reorder Get(const dnnl::engine& engine, const dnnl::memory::desc& from, const dnnl::memory::desc& to);

 private:
  struct Entry {
    dnnl::memory::desc from, to;
    dnnl::reorder reorder;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;
};

// For one Execute: holds the execution's thread units of the gate (waiting while other contexts
// hold the cores) and sets this thread's OpenMP team size to them.
class ExecuteThreads {
 public:
  explicit ExecuteThreads(const ExecutionSettings& execution);
  int Units() const { return units_.Units(); }

 private:
  GateUnits units_;
};

// Immutable after construction (Add*/Set* are for the creating op only) apart from its
// thread-safe ReorderCache, so Execute is thread-safe: each Execute leases RunObjects (oneDNN
// stream and memory objects) from the network's RunPool (ExecutionSettings::runs) while it runs.
// Its memory descriptors are shared through the network's DescPool (ExecutionSettings::descs): a
// workload of one input is about 0.5 KB besides oneDNN's primitive.
class PrimitiveWorkload final : public backend::IWorkload {
 public:
  // `name` is the layer's, for messages; `execution` is shared with the factory.
  PrimitiveWorkload(std::string name, std::shared_ptr<const ExecutionSettings> execution);

  // The primitive and its scratchpad descriptor (pd.scratchpad_desc(); user scratchpad mode).
  void SetPrimitive(dnnl::primitive primitive, const dnnl::memory::desc& scratchpad);
  // Runtime input `index` of WorkloadArgs as primitive argument `arg`. `view` says how the
  // tensor's dense bytes read in the primitive's dims (PlainDesc of them, or a strided view
  // for a transposed operand), from element `view_offset` on; `expected` is the layout the
  // primitive was created for.
  void AddInput(int arg, std::size_t index, const TensorInfo& info, const dnnl::memory::desc& view,
                const dnnl::memory::desc& expected, std::int64_t view_offset = 0);
  // A memory that lives as long as the workload (weights, bias, statistics).
  void AddConstant(int arg, dnnl::memory memory);
  // Output `index` as argument `arg`, produced in `produced` layout; `view` is the plain
  // layout of the output tensor's bytes in the primitive's dims.
  void SetOutput(int arg, std::size_t index, const TensorInfo& info, const dnnl::memory::desc& view,
                 const dnnl::memory::desc& produced);

  // A primitive over more channels than its tensors have: channel-blocked tensors whose last
  // block's padding (zero in every blocked tensor) it reads and writes as channels. `layout`
  // is the tensor's layout, `padded` the same bytes in the primitive's dims. The primitive
  // must write zero into the padding channels (zero weights and bias there, post-ops that
  // keep zero). Input `index` as argument `arg`:
  void AddPaddedInput(int arg, std::size_t index, const TensorInfo& info, const dnnl::memory::desc& layout,
                      const dnnl::memory::desc& padded);
  // and the output:
  void SetPaddedOutput(int arg, std::size_t index, const TensorInfo& info, const dnnl::memory::desc& layout,
                       const dnnl::memory::desc& padded);

  // Constant weights (argument `arg`) multiplied each run, along their input channels, by the
  // run-time input `scale_index` ([1, C_in, 1, 1]; OpSpec::input_channel_scale) before the
  // primitive reads them. `plain` holds them dense as [G, C_out / G, C_in / G, ...]
  // (`plain_desc`; read during the call); `packed` is the f32 layout the primitive reads, a
  // blocked one (one weight per element: not Winograd's transformed weights).
  void AddChannelScaledWeights(int arg, const void* plain, const dnnl::memory::desc& plain_desc,
                               const dnnl::memory::desc& packed, std::size_t scale_index,
                               const TensorInfo& scale_info);

  // Runtime input `index` (shaped like the output) is the operand of the primitive's sum
  // post-op: copied (or reordered) into the destination before the primitive runs. Call after
  // SetOutput.
  void SetSumInput(std::size_t index, const TensorInfo& info);

  void Execute(const backend::WorkloadArgs& args) const override;
  std::size_t GetScratchSize() const override { return scratch_size_; }
  backend::WorkloadInfo GetInfo() const override { return info_; }  // DescribePrimitive of the primitive

  const dnnl::engine& Engine() const { return execution_->engine; }

 private:
  // Descs are the pool's (ExecutionSettings::descs), so an Input is small whatever oneDNN's desc size.
  using Desc = SharedDesc;
  struct Input {
    int arg;
    std::size_t index;
    TensorInfo info;
    Desc tensor_plain;  // the tensor's own dims, dense
    Desc view;
    Desc expected;
    Desc layout;                             // expected's bytes in the tensor's dims (AddPaddedInput), else expected
    std::optional<dnnl::reorder> from_view;  // view -> layout, when they differ
    std::size_t plain_offset;                // scratch for blocked -> plain (other dims)
    std::size_t expected_offset;             // scratch for anything -> expected
    std::size_t view_bytes = 0;              // where the view starts in the dense bytes
    bool as_is = true;                       // view is the tensor's own dense layout
  };
  // Weights scaled per run by input channel (AddChannelScaledWeights).
  struct ScaledWeights {
    int arg;
    Desc desc;                            // the primitive's f32 layout of them
    dnnl::memory packed;                  // the constant weights, laid out as `desc`
    std::vector<std::uint32_t> channel;   // per packed element: 1 + its input channel, 0 for padding
    std::size_t offset;                   // scratch for the scaled copy
  };
  std::size_t Reserve(std::size_t bytes);
  Input MakeInput(int arg, std::size_t index, const TensorInfo& info, const dnnl::memory::desc& view,
                  const dnnl::memory::desc& expected, const dnnl::memory::desc& layout, std::int64_t view_offset);
  // What few workloads use, out of line: null when none of it is set.
  struct Rare {
    std::optional<Input> sum;
    std::optional<ScaledWeights> scaled;
    std::optional<Input> channel_scale;  // the scale `scaled` is multiplied by
  };
  Rare& MutableRare();
  // `desc`'s copy in the pool.
  Desc Intern(const dnnl::memory::desc& desc) const { return execution_->descs->Intern(desc); }
  // The weights of rare_->scaled multiplied by this run's scale input, in scratch.
  dnnl::memory ScaleWeights(const backend::WorkloadArgs& args, std::uint8_t* scratch, RunObjects& run) const;
  // Input `input` as the primitive reads it.
  dnnl::memory InputMemory(const Input& input, const backend::WorkloadArgs& args, std::uint8_t* scratch,
                           RunObjects& run) const;
  // Writes the sum operand into `destination` (laid out as produced_).
  void LoadSum(const backend::WorkloadArgs& args, std::uint8_t* scratch, RunObjects& run,
               const dnnl::memory& destination) const;
  // Runs primitive_ on run.bound.
  void RunPrimitive(RunObjects& run) const;

  std::string name_;
  std::shared_ptr<const ExecutionSettings> execution_;
  dnnl::primitive primitive_;
  backend::WorkloadInfo info_;
  std::vector<Input> inputs_;
  std::vector<std::pair<int, dnnl::memory>> constants_;
  int output_arg_ = DNNL_ARG_DST;
  std::size_t output_index_ = 0;
  TensorInfo output_info_;
  Desc output_plain_ = nullptr;  // the output tensor's dims, dense
  Desc output_view_ = nullptr;
  Desc produced_ = nullptr;
  Desc produced_layout_ = nullptr;        // produced_'s bytes in the tensor's dims (SetPaddedOutput), else produced_
  std::optional<dnnl::reorder> to_view_;  // produced_layout_ -> view, when they differ
  bool output_as_is_ = true;              // the primitive's dims and elements are the tensor's
  std::size_t output_offset_ = 0;
  std::unique_ptr<Rare> rare_;
  mutable ReorderCache reorders_;
  Desc scratchpad_ = nullptr;
  std::size_t scratchpad_offset_ = 0;
  bool has_scratchpad_ = false;
  std::size_t scratch_size_ = 0;
};

// DescribeImplementation of `primitive`'s implementation name (empty when oneDNN does not say).
backend::WorkloadInfo DescribePrimitive(const dnnl::primitive& primitive);

// A dnnl::memory owning a copy of `data` laid out as `target`, reordered from the dense
// layout `source` (same dims). For weights and other constants, at load. With `written_as`,
// the copy is written as that desc (source's dims; `target`'s bytes in other dims, e.g. a
// row-major [N, K] written as [K, N] with strides {1, K}) and returned as `target`.
dnnl::memory PackConstant(const dnnl::engine& engine, const void* data, const dnnl::memory::desc& source,
                          const dnnl::memory::desc& target, const dnnl::memory::desc* written_as = nullptr);

// Rethrows a dnnl::error (or anything else) from creating layer `name`'s primitive as
// backplane::Exception naming the layer.
[[noreturn]] void ThrowCreateError(const std::string& name, const std::string& what);

}  // namespace backplane::onednn
