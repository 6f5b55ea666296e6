// Concat along one axis. When each input is a contiguous slice of the output (every axis before
// the concat axis has size 1, and for a channel-blocked layout every input's channels are whole
// blocks), the inputs' producers write straight into their slices from the second run on
// (OneDnnTensorHandle::WriteInto) and the concat copies nothing; otherwise, and for inputs
// that are not where the output needs them, it copies each into its slice - of a dense output in
// the user's or another backend's memory too (a detector's last Concat of its heads: oneDNN's
// primitive wrote it through scratch and a reorder, 6x slower). Anything else runs
// oneDNN's concat primitive: inputs in the layout activations arrive in (InputLayouts), output as
// oneDNN picks.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <cstring>

namespace backplane::onednn {

namespace {
using dnnl::memory;

// Thread-safe: Execute changes only the tensor handles of its run (and the reorder cache,
// which locks).
class SliceConcatWorkload final : public backend::IWorkload {
 public:
  struct Part {
    std::size_t index = 0;     // WorkloadArgs input, when not constant
    memory constant;           // packed in `layout` at load, when constant
    memory::desc layout;       // how the input's slice of the output is laid out
    std::size_t offset = 0;    // where the slice starts in the output, in bytes
  };
  SliceConcatWorkload(ExecutionSettingsPtr execution, memory::desc output, std::vector<Part> parts,
                      std::unique_ptr<backend::IWorkload> primitive)
      : execution_(std::move(execution)), output_(output), parts_(std::move(parts)), primitive_(std::move(primitive)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    auto* out = dynamic_cast<OneDnnTensorHandle*>(args.outputs.at(0));
    // The user's or another backend's memory holds the output dense: slices of it when they are.
    const bool dense = output_ == PlainDesc(DimsOf(args.outputs.at(0)->GetInfo()));
    if (!out && !dense) return primitive_->Execute(args);
    const ExecuteThreads threads(*execution_);
    try {
      const dnnl::engine& engine = execution_->engine;
      dnnl::stream stream(engine);
      auto* base = static_cast<std::uint8_t*>(out ? out->PrepareWrite(output_) : args.outputs.at(0)->Map());
      for (const Part& part : parts_) {
        void* slice = base + part.offset;
        if (part.constant) {
          std::memcpy(slice, part.constant.get_data_handle(), part.layout.get_size());
          continue;
        }
        backend::ITensorHandle* handle = args.inputs.at(part.index);
        auto* in = dynamic_cast<OneDnnTensorHandle*>(handle);
        if (in && in->Data() == slice && in->Desc() == part.layout) continue;  // its producer wrote it there
        const bool blocked = in && !in->IsPlain();
        const memory::desc from_desc = blocked ? in->Desc() : PlainDesc(DimsOf(handle->GetInfo()));
        void* from_data = blocked ? in->Data() : handle->Map();
        if (from_desc == part.layout) {
          std::memcpy(slice, from_data, part.layout.get_size());
        } else {
          memory from(from_desc, engine, from_data), to(part.layout, engine, slice);
          reorders_.Get(engine, from_desc, part.layout).execute(stream, from, to);
        }
        if (in && out) in->WriteInto(*out, output_, part.offset, part.layout);  // for the next run
      }
      stream.wait();
    } catch (const dnnl::error& error) {
      throw Exception(ErrorCode::kBackendFailure, std::string("CpuOneDnn concat: oneDNN failed: ") + error.what());
    }
  }
  std::size_t GetScratchSize() const override { return primitive_->GetScratchSize(); }
  backend::WorkloadInfo GetInfo() const override { return DescribeImplementation("backplane:slices"); }

 private:
  ExecutionSettingsPtr execution_;
  memory::desc output_;
  std::vector<Part> parts_;
  std::unique_ptr<backend::IWorkload> primitive_;
  mutable ReorderCache reorders_;
};

// The layouts a concat reads its inputs in: the activation layout when it is channel-blocked
// for every input and the output and each input is whole blocks of channels (googlenet's
// branches), else all dense. oneDNN concatenates blocks that do not line up (ShuffleNet's
// 58 + 58 channels in 16-channel blocks) or a blocked input beside a dense one (Swin's cyclic
// shift: 53 + 3 channels) only in its reference kernel.
std::vector<memory::desc> InputLayouts(const OpSpec& spec, const ExecutionSettings& execution, std::size_t axis) {
  std::vector<memory::desc> layouts;
  const memory::dim block = ChannelBlock(execution.activation_tag);
  bool blocked = axis == 1 && block > 0 &&
                 ActivationLayout(execution, DimsOf(spec.output)) != PlainDesc(DimsOf(spec.output));
  for (const auto& input : spec.inputs) {
    const auto dims = DimsOf(input.info);
    layouts.push_back(ActivationLayout(execution, dims));
    blocked = blocked && layouts.back() != PlainDesc(dims) && dims[1] % block == 0;
  }
  if (!blocked) {
    for (std::size_t i = 0; i < layouts.size(); ++i) layouts[i] = PlainDesc(DimsOf(spec.inputs[i].info));
  }
  return layouts;
}

// The parts of a concat whose inputs (in `layouts`) are contiguous slices of its output; empty
// when they are not.
std::vector<SliceConcatWorkload::Part> Slices(const OpSpec& spec, const ExecutionSettingsPtr& execution,
                                              std::size_t axis, const std::vector<memory::desc>& layouts,
                                              memory::desc& output) {
  const auto dims = DimsOf(spec.output);
  for (std::size_t i = 0; i < axis; ++i) {
    if (dims[i] != 1) return {};
  }
  const bool plain = layouts.front() == PlainDesc(DimsOf(spec.inputs.front().info));
  output = plain ? PlainDesc(dims) : ActivationLayout(*execution, dims);
  std::vector<SliceConcatWorkload::Part> parts;
  std::size_t offset = 0;
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    const TensorRef& input = spec.inputs[i];
    const auto input_dims = DimsOf(input.info);
    SliceConcatWorkload::Part part;
    part.layout = layouts[i];
    part.index = input.index;
    part.offset = offset;
    if (input.constant) {
      part.constant = PackConstant(execution->engine, input.constant, PlainDesc(input_dims), part.layout);
    }
    offset += part.layout.get_size();
    parts.push_back(std::move(part));
  }
  if (offset != output.get_size()) return {};
  return parts;
}
}  // namespace

bool IsConcatSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason) || !FitsOneDnnRank(layer.GetOutputInfo(0).shape, reason)) return false;
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (layer.GetInputInfo(i).shape.NumElements() == 0) {
      reason = "empty input " + std::to_string(i);
      return false;
    }
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateConcatWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const auto dims = DimsOf(spec.output);
  std::size_t axis = 0;
  NormalizeAxis(static_cast<const ConcatDescriptor&>(*spec.descriptor).axis, dims.size(), axis);
  try {
    const std::vector<memory::desc> sources = InputLayouts(spec, *execution, axis);
    const memory::desc dst(dims, memory::data_type::f32, memory::format_tag::any);
    auto pd = compat::Concat(execution->engine, dst, static_cast<int>(axis), sources, execution->Attr());
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::concat(pd), pd.scratchpad_desc());
    for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
      const TensorRef& input = spec.inputs[i];
      const auto view = PlainDesc(DimsOf(input.info));
      const int arg = DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i);
      if (input.constant) {
        workload->AddConstant(arg, PackConstant(execution->engine, input.constant, view, sources[i]));
      } else {
        workload->AddInput(arg, input.index, input.info, view, sources[i]);
      }
    }
    workload->SetOutput(DNNL_ARG_DST, 0, spec.output, PlainDesc(dims), pd.dst_desc());
    memory::desc output;
    auto parts = Slices(spec, execution, axis, sources, output);
    if (parts.empty()) return workload;
    return std::make_unique<SliceConcatWorkload>(execution, output, std::move(parts), std::move(workload));
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("concat: ") + error.what());
  }
}

}  // namespace backplane::onednn
