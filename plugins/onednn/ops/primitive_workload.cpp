#include "primitive_workload.hpp"

#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <backplane/exception.hpp>

#include <cstring>
#include <new>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace backplane::onednn {

namespace {

std::size_t Align(std::size_t bytes) { return (bytes + 63) / 64 * 64; }

// Sets this thread's OpenMP team size for the primitives it runs (OpenMP keeps it per thread).
void UseThreads(int threads) {
#if defined(_OPENMP)
  if (omp_get_max_threads() != threads) omp_set_num_threads(threads);
#else
  (void)threads;
#endif
}

}  // namespace

ExecuteThreads::ExecuteThreads(const ExecutionSettings& execution)
    : units_(*execution.gate, execution.Threads()) {
  UseThreads(units_.Units());
}

[[noreturn]] void ThrowCreateError(const std::string& name, const std::string& what) {
  throw Exception(ErrorCode::kUnsupported, "CpuOneDnn cannot create layer '" + name + "': " + what);
}

dnnl::memory PackConstant(const dnnl::engine& engine, const void* data, const dnnl::memory::desc& source,
                          const dnnl::memory::desc& target, const dnnl::memory::desc* written_as) {
  dnnl::memory packed(target, engine);
  dnnl::memory written = written_as ? dnnl::memory(*written_as, engine, packed.get_data_handle()) : packed;
  dnnl::memory plain(source, engine, const_cast<void*>(data));
  dnnl::stream stream(engine);
  dnnl::reorder(plain, written).execute(stream, plain, written);
  stream.wait();
  return packed;
}

dnnl::reorder ReorderCache::Get(const dnnl::engine& engine, const dnnl::memory::desc& from,
                                const dnnl::memory::desc& to) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const Entry& entry : entries_) {
    if (entry.from == from && entry.to == to) return entry.reorder;
  }
  dnnl::reorder reorder(dnnl::reorder::primitive_desc(engine, from, engine, to));
  entries_.push_back({from, to, reorder});
  return reorder;
}

PrimitiveWorkload::PrimitiveWorkload(std::string name, std::shared_ptr<const ExecutionSettings> execution)
    : name_(std::move(name)), execution_(std::move(execution)) {}

std::size_t PrimitiveWorkload::Reserve(std::size_t bytes) {
  const std::size_t offset = scratch_size_;
  scratch_size_ += Align(bytes);
  return offset;
}

backend::WorkloadInfo DescribePrimitive(const dnnl::primitive& primitive) {
  const char* name = nullptr;
  const bool known =
      dnnl_primitive_desc_query(primitive.get_primitive_desc(), dnnl_query_impl_info_str, 0, &name) == dnnl_success;
  return DescribeImplementation(known && name != nullptr ? name : "");
}

PrimitiveWorkload::Rare& PrimitiveWorkload::MutableRare() {
  if (!rare_) rare_ = std::make_unique<Rare>();
  return *rare_;
}

void PrimitiveWorkload::SetPrimitive(dnnl::primitive primitive, const dnnl::memory::desc& scratchpad) {
  info_ = DescribePrimitive(primitive);
  primitive_ = std::move(primitive);
  scratchpad_ = Intern(scratchpad);
  has_scratchpad_ = scratchpad.get_size() > 0;
  if (has_scratchpad_) scratchpad_offset_ = Reserve(scratchpad.get_size());
}

PrimitiveWorkload::Input PrimitiveWorkload::MakeInput(int arg, std::size_t index, const TensorInfo& info,
                                                      const dnnl::memory::desc& view,
                                                      const dnnl::memory::desc& expected,
                                                      const dnnl::memory::desc& layout, std::int64_t view_offset) {
  Input input{arg,          index, info, Intern(PlainDesc(DimsOf(info))), Intern(view), Intern(expected),
              Intern(layout), std::nullopt, 0, 0};
  input.view_bytes = static_cast<std::size_t>(view_offset) * sizeof(float);
  input.as_is = view_offset == 0 && view == *input.tensor_plain;
  if (view != layout) input.from_view = dnnl::reorder(dnnl::reorder::primitive_desc(
      execution_->engine, view, execution_->engine, layout));
  input.plain_offset = Reserve(info.NumBytes());
  input.expected_offset = Reserve(expected.get_size());
  return input;
}

void PrimitiveWorkload::AddInput(int arg, std::size_t index, const TensorInfo& info, const dnnl::memory::desc& view,
                                 const dnnl::memory::desc& expected, std::int64_t view_offset) {
  inputs_.push_back(MakeInput(arg, index, info, view, expected, expected, view_offset));
}

void PrimitiveWorkload::AddPaddedInput(int arg, std::size_t index, const TensorInfo& info,
                                       const dnnl::memory::desc& layout, const dnnl::memory::desc& padded) {
  inputs_.push_back(MakeInput(arg, index, info, PlainDesc(DimsOf(info)), padded, layout, 0));
}

void PrimitiveWorkload::AddChannelScaledWeights(int arg, const void* plain, const dnnl::memory::desc& plain_desc,
                                                const dnnl::memory::desc& packed, std::size_t scale_index,
                                                const TensorInfo& scale_info) {
  const auto scale_plain = PlainDesc(DimsOf(scale_info));
  Rare& rare = MutableRare();
  rare.channel_scale = MakeInput(0, scale_index, scale_info, scale_plain, scale_plain, scale_plain, 0);
  // Which input channel each packed element multiplies: 1 + the channel, packed like the
  // weights (exact in f32 below 2^24 channels); the layout's padding reads 0.
  auto dims = compat::Dims(plain_desc);
  if (dims.size() == 4) dims.insert(dims.begin(), 1);  // [G, C_out / G, C_in / G, kernel...]
  std::int64_t kernel = 1;
  for (std::size_t k = 3; k < dims.size(); ++k) kernel *= dims[k];
  std::vector<float> channel_of_plain;
  channel_of_plain.reserve(static_cast<std::size_t>(dims[0] * dims[1] * dims[2] * kernel));
  for (std::int64_t g = 0; g < dims[0]; ++g) {
    for (std::int64_t o = 0; o < dims[1]; ++o) {
      for (std::int64_t i = 0; i < dims[2]; ++i) {
        channel_of_plain.insert(channel_of_plain.end(), static_cast<std::size_t>(kernel),
                                static_cast<float>(1 + g * dims[2] + i));
      }
    }
  }
  const dnnl::memory channel_of = PackConstant(execution_->engine, channel_of_plain.data(), plain_desc, packed);
  const auto* packed_channel = static_cast<const float*>(channel_of.get_data_handle());
  ScaledWeights scaled{arg, Intern(packed), PackConstant(execution_->engine, plain, plain_desc, packed), {}, 0};
  scaled.channel.assign(packed_channel, packed_channel + packed.get_size() / sizeof(float));
  scaled.offset = Reserve(packed.get_size());
  rare.scaled = std::move(scaled);
}

dnnl::memory PrimitiveWorkload::ScaleWeights(const backend::WorkloadArgs& args, std::uint8_t* scratch,
                                             RunObjects& run) const {
  // The scale's C values in channel order: a [1, C, 1, 1] tensor is, dense or channel-blocked.
  const float* scale = nullptr;
  const Rare& rare = *rare_;
  auto* ours = dynamic_cast<OneDnnTensorHandle*>(args.inputs.at(rare.channel_scale->index));
  if (ours && !ours->IsPlain() && IsChannelOrdered(ours->Desc())) {
    scale = static_cast<const float*>(ours->Data());
  } else {
    scale = static_cast<const float*>(
        InputMemory(*rare.channel_scale, args, scratch, run).get_data_handle());
  }
  const auto* weights = static_cast<const float*>(rare.scaled->packed.get_data_handle());
  auto* scaled = reinterpret_cast<float*>(scratch + rare.scaled->offset);
  for (std::size_t j = 0; j < rare.scaled->channel.size(); ++j) {
    const std::uint32_t channel = rare.scaled->channel[j];
    scaled[j] = channel == 0 ? 0.0f : weights[j] * scale[channel - 1];
  }
  return run.Memory(rare.scaled->desc, scaled);
}

void PrimitiveWorkload::AddConstant(int arg, dnnl::memory memory) { constants_.emplace_back(arg, std::move(memory)); }

void PrimitiveWorkload::SetOutput(int arg, std::size_t index, const TensorInfo& info, const dnnl::memory::desc& view,
                                  const dnnl::memory::desc& produced) {
  output_arg_ = arg;
  output_index_ = index;
  output_info_ = info;
  output_plain_ = Intern(PlainDesc(DimsOf(info)));
  output_view_ = Intern(view);
  produced_ = Intern(produced);
  produced_layout_ = produced_;
  output_as_is_ = view == *output_plain_ && compat::Dims(produced) == compat::Dims(*output_plain_);
  if (produced != view) {
    to_view_ = dnnl::reorder(dnnl::reorder::primitive_desc(execution_->engine, produced, execution_->engine, view));
  }
  output_offset_ = Reserve(produced.get_size());
}

void PrimitiveWorkload::SetPaddedOutput(int arg, std::size_t index, const TensorInfo& info,
                                        const dnnl::memory::desc& layout, const dnnl::memory::desc& padded) {
  SetOutput(arg, index, info, PlainDesc(DimsOf(info)), layout);
  produced_ = Intern(padded);
}

void PrimitiveWorkload::SetSumInput(std::size_t index, const TensorInfo& info) {
  // Read as the destination is laid out; InputMemory reorders into scratch when it is not.
  const Desc plain = Intern(PlainDesc(DimsOf(info)));
  Input input{DNNL_ARG_DST, index, info, plain, plain, produced_, produced_layout_, std::nullopt, 0, 0};
  if (*plain != *produced_layout_) input.from_view = dnnl::reorder(dnnl::reorder::primitive_desc(
      execution_->engine, *plain, execution_->engine, *produced_layout_));
  input.plain_offset = Reserve(info.NumBytes());
  input.expected_offset = Reserve(produced_->get_size());
  MutableRare().sum = std::move(input);
}

void PrimitiveWorkload::LoadSum(const backend::WorkloadArgs& args, std::uint8_t* scratch, RunObjects& run,
                                const dnnl::memory& destination) const {
  const dnnl::memory source = InputMemory(*rare_->sum, args, scratch, run);
  std::memcpy(destination.get_data_handle(), source.get_data_handle(), produced_->get_size());
}

dnnl::memory PrimitiveWorkload::InputMemory(const Input& input, const backend::WorkloadArgs& args,
                                            std::uint8_t* scratch, RunObjects& run) const {
  const dnnl::engine& engine = execution_->engine;
  dnnl::stream& stream = run.stream;
  // Where a reordered input is left, laid out as input.layout: read there as input.expected.
  void* reordered = scratch + input.expected_offset;
  backend::ITensorHandle* handle = args.inputs.at(input.index);
  auto* ours = dynamic_cast<OneDnnTensorHandle*>(handle);
  if (ours && !ours->IsPlain()) {
    const dnnl::memory::desc& current = ours->Desc();
    if (input.as_is && current == *input.layout) return run.Memory(input.expected, ours->Data());
    dnnl::memory from(current, engine, ours->Data());
    if (input.as_is && compat::Dims(current) == compat::Dims(*input.layout)) {
      // A layout or type this primitive was not created for (f32 into a bf16 primitive).
      dnnl::memory to(*input.layout, engine, reordered);
      reorders_.Get(engine, current, *input.layout).execute(stream, from, to);
      return run.Memory(input.expected, reordered);
    }
    // Read through a view (a flattening consumer, folded data movement): plain first, then
    // as the primitive reads it. The producer's dims may differ from the ones this layer reads
    // the tensor in (a matmul reading [N, H, W, C] as [N*H*W, C]): a dense row-major buffer is
    // the same bytes in either, so it is made plain in the producer's dims.
    const auto& plain_desc = compat::Dims(current) == compat::Dims(*input.tensor_plain)
                                 ? *input.tensor_plain
                                 : PlainDesc(compat::Dims(current));
    dnnl::memory plain(plain_desc, engine, scratch + input.plain_offset);
    reorders_.Get(engine, current, plain_desc).execute(stream, from, plain);
    dnnl::memory viewed(*input.view, engine, scratch + input.plain_offset + input.view_bytes);
    if (!input.from_view) return viewed;
    dnnl::memory to(*input.layout, engine, reordered);
    input.from_view->execute(stream, viewed, to);
    return run.Memory(input.expected, reordered);
  }
  void* data = static_cast<std::uint8_t*>(handle->Map()) + input.view_bytes;
  if (!input.from_view) return run.Memory(input.view, data);
  dnnl::memory viewed(*input.view, engine, data);
  dnnl::memory to(*input.layout, engine, reordered);
  input.from_view->execute(stream, viewed, to);
  return run.Memory(input.expected, reordered);
}

void PrimitiveWorkload::RunPrimitive(RunObjects& run) const {
  run.exec_args.clear();
  for (const auto& [arg, memory] : run.bound) run.exec_args.push_back({arg, memory.get()});
  dnnl::error::wrap_c_api(dnnl_primitive_execute(primitive_.get(), run.stream.get(),
                                                 static_cast<int>(run.exec_args.size()), run.exec_args.data()),
                          "could not execute a primitive");
}

void PrimitiveWorkload::Execute(const backend::WorkloadArgs& args) const {
  auto* scratch = static_cast<std::uint8_t*>(args.scratch);
  if (scratch_size_ > 0 && !scratch) {
    throw Exception(ErrorCode::kInvalidArgument, "CpuOneDnn layer '" + name_ + "': no scratch memory was given");
  }
  const ExecuteThreads threads(*execution_);
  const RunPool::Lease lease(*execution_->runs, execution_->engine);
  RunObjects& run = *lease;
  try {
    const dnnl::engine& engine = execution_->engine;
    run.bound.clear();
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      run.bound.emplace_back(inputs_[i].arg, InputMemory(inputs_[i], args, scratch, run));
    }
    for (const auto& constant : constants_) run.bound.push_back(constant);
    if (rare_ && rare_->scaled) run.bound.emplace_back(rare_->scaled->arg, ScaleWeights(args, scratch, run));
    if (has_scratchpad_) {
      run.bound.emplace_back(DNNL_ARG_SCRATCHPAD,
                             run.Memory(scratchpad_, scratch + scratchpad_offset_));
    }

    backend::ITensorHandle* handle = args.outputs.at(output_index_);
    auto* ours = dynamic_cast<OneDnnTensorHandle*>(handle);
    void* direct = nullptr;   // where the primitive writes when no reorder follows
    if (ours && output_as_is_) {
      direct = ours->PrepareWrite(*produced_layout_);
    } else if (!to_view_) {
      direct = ours ? ours->PrepareWrite(*output_plain_) : handle->Map();
    }
    const dnnl::memory produced = run.Memory(produced_, direct ? direct : scratch + output_offset_);
    if (rare_ && rare_->sum) LoadSum(args, scratch, run, produced);
    run.bound.emplace_back(output_arg_, produced);
    RunPrimitive(run);
    if (!direct) {
      void* target = ours ? ours->PrepareWrite(*output_plain_) : handle->Map();
      dnnl::memory laid_out(*produced_layout_, engine, produced.get_data_handle());
      dnnl::memory viewed(*output_view_, engine, target);
      to_view_->execute(run.stream, laid_out, viewed);
    }
    run.stream.wait();
  } catch (const dnnl::error& error) {
    throw Exception(ErrorCode::kBackendFailure, "CpuOneDnn layer '" + name_ + "': oneDNN failed: " + error.what());
  }
}

}  // namespace backplane::onednn
