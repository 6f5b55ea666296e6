// Transpose, Reshape, Flatten, Slice (positive steps) and Split (one reorder per part: attention's
// Split of the fused QKV projection) as oneDNN reorders into the dense output: they let tensors
// that oneDNN layers hold in blocked layouts be rearranged without leaving the backend. Reshape, Flatten and
// a Transpose that moves only size-1 axes keep the bytes where they are: their output shares the input's
// content (OneDnnTensorHandle::Alias) whenever the handles allow, and is copied otherwise.
#include "onednn_ops.hpp"

#include "primitive_workload.hpp"
#include "../dnnl_compat.hpp"
#include "../onednn_tensor_handle.hpp"

#include <backplane/backend/broadcast.hpp>
#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::onednn {

namespace {
using dnnl::memory;

std::vector<std::uint32_t> Permutation(const TransposeDescriptor& d, std::size_t rank) {
  std::vector<std::uint32_t> permutation = d.permutation;
  if (permutation.empty()) {
    for (std::size_t i = 0; i < rank; ++i) permutation.push_back(static_cast<std::uint32_t>(rank - 1 - i));
  }
  return permutation;
}

// A reshape that keeps the bytes in place: the output shares the input's content when both are
// CpuOneDnn handles that allow it (see Alias). Input content in another layout (blocked, or
// relabelled by a transpose) is reordered once, straight into the output's dense bytes read in
// the input's dims; anything else runs `copy`. Thread-safe as `copy` and the reorder cache are.
class SharedReshapeWorkload final : public backend::IWorkload {
 public:
  SharedReshapeWorkload(ExecutionSettingsPtr execution, std::unique_ptr<backend::IWorkload> copy)
      : execution_(std::move(execution)), copy_(std::move(copy)) {}
  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* input = dynamic_cast<const OneDnnTensorHandle*>(args.inputs.at(0));
    auto* output = dynamic_cast<OneDnnTensorHandle*>(args.outputs.at(0));
    if (input && output && output->Alias(*input)) return;
    // A [1, C, 1, 1] tensor channel-blocked without padding (Alias checks the size) is its dense
    // bytes: a pooled head's Flatten.
    if (input && output && !input->IsPlain() && IsChannelOrdered(input->Desc()) &&
        output->Alias(*input, PlainDesc(DimsOf(output->GetInfo())))) {
      return;
    }
    if (!input || input->IsPlain()) return copy_->Execute(args);
    const ExecuteThreads threads(*execution_);
    try {
      const dnnl::engine& engine = execution_->engine;
      const memory::desc dense = PlainDesc(DimsOf(input->GetInfo()));
      void* target = output ? output->PrepareWrite(PlainDesc(DimsOf(output->GetInfo()))) : args.outputs.at(0)->Map();
      memory from(input->Desc(), engine, input->Data()), to(dense, engine, target);
      dnnl::stream stream(engine);
      reorders_.Get(engine, input->Desc(), dense).execute(stream, from, to);
      stream.wait();
    } catch (const dnnl::error& error) {
      throw Exception(ErrorCode::kBackendFailure, std::string("CpuOneDnn reshape: oneDNN failed: ") + error.what());
    }
  }
  std::size_t GetScratchSize() const override { return copy_->GetScratchSize(); }
  backend::WorkloadInfo GetInfo() const override { return copy_->GetInfo(); }  // when it cannot alias

 private:
  ExecutionSettingsPtr execution_;
  std::unique_ptr<backend::IWorkload> copy_;
  mutable ReorderCache reorders_;
};

// A transpose that relabels: the output shares the input's content read with its axes
// permuted (Alias), whatever layout the producer wrote, when that leaves it plain (a
// channels-last tensor made NHWC) or its one reader reorders it anyway; else `copy` runs.
// Thread-safe as `copy` is.
class RelabelWorkload final : public backend::IWorkload {
 public:
  RelabelWorkload(std::vector<int> axis_moves, bool single_reader, std::unique_ptr<backend::IWorkload> copy)
      : axis_moves_(std::move(axis_moves)), single_reader_(single_reader), copy_(std::move(copy)) {}
  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* input = dynamic_cast<const OneDnnTensorHandle*>(args.inputs.at(0));
    auto* output = dynamic_cast<OneDnnTensorHandle*>(args.outputs.at(0));
    if (input && output) {
      const memory::desc relabelled = input->Desc().permute_axes(axis_moves_);
      const bool plain = relabelled == PlainDesc(DimsOf(output->GetInfo()));
      if ((plain || single_reader_) && output->Alias(*input, relabelled)) return;
    }
    copy_->Execute(args);
  }
  std::size_t GetScratchSize() const override { return copy_->GetScratchSize(); }
  backend::WorkloadInfo GetInfo() const override { return copy_->GetInfo(); }  // when it copies

 private:
  std::vector<int> axis_moves_;  // oneDNN's permute_axes: input axis i becomes output axis [i]
  bool single_reader_;
  std::unique_ptr<backend::IWorkload> copy_;
};

// A reorder of the input, read through `view` starting `view_offset` elements into its dense
// bytes, into the dense output (output `output` of the layer: spec.outputs[output]).
std::unique_ptr<backend::IWorkload> Reorder(const OpSpec& spec, const ExecutionSettingsPtr& execution,
                                            const memory::desc& view, std::int64_t view_offset = 0,
                                            std::size_t output = 0) {
  const TensorInfo& info = output == 0 ? spec.output : spec.outputs.at(output);
  const memory::desc dst = PlainDesc(DimsOf(info));
  try {
    dnnl::primitive_attr attr = execution->Attr();
    dnnl::reorder::primitive_desc pd(execution->engine, view, execution->engine, dst, attr);
    auto workload = std::make_unique<PrimitiveWorkload>(spec.name, execution);
    workload->SetPrimitive(dnnl::reorder(pd), pd.scratchpad_desc());
    workload->AddInput(DNNL_ARG_FROM, spec.inputs[0].index, spec.inputs[0].info, view, view, view_offset);
    workload->SetOutput(DNNL_ARG_TO, output, info, dst, dst);
    return workload;
  } catch (const dnnl::error& error) {
    ThrowCreateError(spec.name, std::string("reorder: ") + error.what());
  }
}
}  // namespace

bool IsTransposeSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  if (in.Rank() == 0) {
    reason = "a rank-0 input (CpuOneDnn transposes ranks 1 to " + std::to_string(kMaxOneDnnRank) + ")";
    return false;
  }
  return FitsOneDnnRank(in, reason);
}

std::unique_ptr<backend::IWorkload> CreateTransposeWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const auto in_dims = DimsOf(spec.inputs[0].info);
  const auto permutation = Permutation(static_cast<const TransposeDescriptor&>(*spec.descriptor), in_dims.size());
  const memory::dims in_strides = backend::DenseStrides(TensorShape(in_dims));
  memory::dims out_dims, out_strides;
  for (auto p : permutation) {
    out_dims.push_back(in_dims[p]);
    out_strides.push_back(in_strides[p]);
  }
  // The input's bytes read in the output's dims: a strided view.
  auto copy = Reorder(spec, execution, memory::desc(out_dims, memory::data_type::f32, out_strides));
  // Moving only size-1 axes keeps the order of the bytes.
  std::vector<std::uint32_t> moved;
  for (auto p : permutation) {
    if (in_dims[p] != 1) moved.push_back(p);
  }
  if (std::is_sorted(moved.begin(), moved.end())) {
    return std::make_unique<SharedReshapeWorkload>(execution, std::move(copy));
  }
  std::vector<int> axis_moves(permutation.size());
  for (std::size_t i = 0; i < permutation.size(); ++i) axis_moves[permutation[i]] = static_cast<int>(i);
  return std::make_unique<RelabelWorkload>(std::move(axis_moves), spec.output_readers == 1, std::move(copy));
}

std::unique_ptr<backend::IWorkload> CreateReshapeWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  return std::make_unique<SharedReshapeWorkload>(execution, Reorder(spec, execution, PlainDesc(DimsOf(spec.output))));
}

namespace {
// The view a Slice reads its input through: the output's dims over the input's dense bytes,
// every step-th element along each axis from the first one taken (ONNX clamping), and that
// first element's offset. False with a reason for a step below 1, or a view oneDNN cannot
// describe (its strides check counts a stepped axis's full extent, e.g. 9 steps of 2 over 17).
// The op schema has checked the axes and the output's shape.
bool SliceView(const SliceDescriptor& d, const TensorShape& in, const TensorShape& out, memory::desc& view,
               std::int64_t& offset, std::string& reason) {
  const std::size_t rank = in.Rank();
  const memory::dims dense = backend::DenseStrides(in);
  memory::dims strides = dense;
  offset = 0;
  for (std::size_t i = 0; i < d.starts.size(); ++i) {
    const std::int64_t step = i < d.steps.size() ? d.steps[i] : 1;
    if (step < 1) {
      reason = "steps below 1";
      return false;
    }
    std::size_t axis = i;
    if (i < d.axes.size()) NormalizeAxis(d.axes[i], rank, axis);
    const std::int64_t dim = in[axis];
    std::int64_t start = d.starts[i];
    if (start < 0) start += dim;
    offset += std::clamp<std::int64_t>(start, 0, dim) * dense[axis];
    strides[axis] = dense[axis] * step;
  }
  try {
    view = memory::desc(DimsOf(TensorInfo{out, DataType::kFloat32}), memory::data_type::f32, strides);
  } catch (const dnnl::error&) {
    reason = "a stepped view oneDNN cannot describe (the last step runs past the next axis)";
    return false;
  }
  return true;
}
}  // namespace

bool IsSliceSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const auto& in = layer.GetInputInfo(0).shape;
  if (in.Rank() == 0 || layer.GetOutputInfo(0).shape.NumElements() == 0) {
    reason = "a rank-0 input or an empty result";
    return false;
  }
  if (!FitsOneDnnRank(in, reason)) return false;
  memory::desc view;
  std::int64_t offset = 0;
  return SliceView(static_cast<const SliceDescriptor&>(*layer.GetDescriptor()), in, layer.GetOutputInfo(0).shape, view,
                   offset, reason);
}

std::unique_ptr<backend::IWorkload> CreateSliceWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  memory::desc view;
  std::int64_t offset = 0;
  std::string reason;
  if (!SliceView(static_cast<const SliceDescriptor&>(*spec.descriptor), spec.inputs[0].info.shape, spec.output.shape,
                 view, offset, reason)) {
    ThrowCreateError(spec.name, reason);
  }
  return Reorder(spec, execution, view, offset);
}

namespace {
// A Split: one reorder per output, run in order. Immutable; thread-safe as its reorders are.
class SplitWorkload final : public backend::IWorkload {
 public:
  explicit SplitWorkload(std::vector<std::unique_ptr<backend::IWorkload>> parts) : parts_(std::move(parts)) {}
  void Execute(const backend::WorkloadArgs& args) const override {
    for (const auto& part : parts_) part->Execute(args);
  }
  std::size_t GetScratchSize() const override {
    std::size_t size = 0;
    for (const auto& part : parts_) size = std::max(size, part->GetScratchSize());
    return size;
  }
  backend::WorkloadInfo GetInfo() const override { return parts_.front()->GetInfo(); }

 private:
  std::vector<std::unique_ptr<backend::IWorkload>> parts_;
};
}  // namespace

bool IsSplitSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  if (in.Rank() == 0 || !FitsOneDnnRank(in, reason)) {
    if (in.Rank() == 0) reason = "a rank-0 input";
    return false;
  }
  for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) {
    if (layer.GetOutputInfo(i).shape.NumElements() == 0) {
      reason = "an empty part (output " + std::to_string(i) + ")";
      return false;
    }
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateSplitWorkload(const OpSpec& spec, const ExecutionSettingsPtr& execution) {
  const TensorShape& in = spec.inputs[0].info.shape;
  std::size_t axis = 0;
  if (spec.outputs.empty() ||
      !NormalizeAxis(static_cast<const SplitDescriptor&>(*spec.descriptor).axis, in.Rank(), axis)) {
    ThrowCreateError(spec.name, "a Split needs its outputs and an axis within the input's rank");
  }
  // Part i reads the input's dense bytes in its own dims with the input's strides, from the
  // first element of its range along the axis (the op schema checked that the parts tile it).
  const memory::dims strides = backend::DenseStrides(in);
  std::vector<std::unique_ptr<backend::IWorkload>> parts;
  std::int64_t start = 0;
  for (std::size_t i = 0; i < spec.outputs.size(); ++i) {
    const memory::dims dims = DimsOf(spec.outputs[i]);
    parts.push_back(Reorder(spec, execution, memory::desc(dims, memory::data_type::f32, strides),
                            start * strides[axis], i));
    start += dims[axis];
  }
  return std::make_unique<SplitWorkload>(std::move(parts));
}

}  // namespace backplane::onednn
