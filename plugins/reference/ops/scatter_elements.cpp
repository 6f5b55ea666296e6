// ScatterElements (op set v2, ONNX ScatterElements): a copy of data in which, for every position p
// of indices in row-major order, the element at p with `axis` replaced by indices[p] becomes
// updates[p] (none: any type; the last of duplicate positions wins) or is combined with it (add,
// mul, max, min: numbers other than f16/bf16). Indices are run-time data: all are checked in every
// run before anything is written.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cstdint>
#include <cstring>
#include <string>

namespace backplane::reference {

namespace {

// Where the updates go: walks (updates, indices, output with the axis' stride 0).
struct ScatterPlan {
  StridedLoop<3> loop;
  std::int64_t count = 0, axis_length = 0, axis_stride = 0;
  std::size_t bytes = 0;  // of data
  std::string where;      // "axis 1 of data [3,4] (layer 's')", for the error message
};

template <typename Index>
void CheckIndices(const ScatterPlan& plan, const Index* indices) {
  for (std::int64_t i = 0; i < plan.count; ++i) {
    CheckIndex("ScatterElements", static_cast<std::int64_t>(indices[i]), i, plan.axis_length, plan.where);
  }
}

// out = data, then combine(out[target], update) at every target, T the element type.
template <typename T, typename Index, typename Combine>
void Scatter(const ScatterPlan& plan, const backend::WorkloadArgs& args, Combine combine) {
  const Index* indices = Input<Index>(args, 1);
  CheckIndices(plan, indices);
  T* out = Output<T>(args, 0);
  const void* data = Input<void>(args, 0);
  if (data != out && plan.bytes > 0) std::memcpy(out, data, plan.bytes);
  const T* updates = Input<T>(args, 2);
  plan.loop.ForEachRow([&](const StridedLoop<3>::Offsets& at, std::int64_t n, const StridedLoop<3>::Offsets& step) {
    for (std::int64_t i = 0; i < n; ++i) {
      auto index = static_cast<std::int64_t>(indices[at[1] + i * step[1]]);
      if (index < 0) index += plan.axis_length;
      T& target = out[at[2] + i * step[2] + index * plan.axis_stride];
      target = combine(target, updates[at[0] + i * step[0]]);
    }
  });
}

template <typename T>
class ScatterElementsWorkload final : public backend::IWorkload {
 public:
  ScatterElementsWorkload(ScatterPlan plan, ScatterReduction reduction, DataType index_type)
      : plan_(std::move(plan)), reduction_(reduction), index_type_(index_type) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    if (index_type_ == DataType::kInt32) {
      Run<std::int32_t>(args);
    } else {
      Run<std::int64_t>(args);
    }
  }

 private:
  template <typename Index>
  void Run(const backend::WorkloadArgs& args) const {
    switch (reduction_) {
      case ScatterReduction::kNone: return Scatter<T, Index>(plan_, args, [](T, T u) { return u; });
      case ScatterReduction::kAdd: return Scatter<T, Index>(plan_, args, AddElements<T>);
      case ScatterReduction::kMul: return Scatter<T, Index>(plan_, args, MultiplyElements<T>);
      case ScatterReduction::kMax: return Scatter<T, Index>(plan_, args, [](T t, T u) { return u > t ? u : t; });
      case ScatterReduction::kMin: return Scatter<T, Index>(plan_, args, [](T t, T u) { return u < t ? u : t; });
    }
  }

  ScatterPlan plan_;
  ScatterReduction reduction_;
  DataType index_type_;
};

}  // namespace

bool IsScatterElementsSupported(const backend::ILayerView& layer, std::string& reason) {
  if (DescriptorOf<ScatterElementsDescriptor>(layer).reduction == ScatterReduction::kNone) return true;
  return TakesNumbers("ScatterElements with a reduction", layer.GetInputInfo(0).type, reason);
}

std::unique_ptr<backend::IWorkload> CreateScatterElementsWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<ScatterElementsDescriptor>(layer);
  const TensorInfo& data = layer.GetInputInfo(0);
  const TensorInfo& indices = layer.GetInputInfo(1);
  std::size_t axis = 0;
  NormalizeAxis(d.axis, data.shape.Rank(), axis);
  std::vector<std::int64_t> out_strides = DenseStrides(data.shape);
  ScatterPlan plan;
  plan.axis_stride = out_strides[axis];
  out_strides[axis] = 0;  // the index picks the position along the axis
  const std::vector<std::int64_t> index_strides = DenseStrides(indices.shape);
  plan.loop = StridedLoop<3>(indices.shape.Dims(), {index_strides, index_strides, out_strides});
  plan.count = indices.shape.NumElements();
  plan.axis_length = data.shape.Dims()[axis];
  plan.bytes = data.NumBytes();
  plan.where = "axis " + std::to_string(axis) + " of data " + ToString(data.shape) + " (layer '" + layer.GetName() + "')";
  // `none` moves elements (one kernel per element size); the reductions compute on numbers.
  if (d.reduction == ScatterReduction::kNone) {
    return MakeForElementSize<ScatterElementsWorkload>(SizeOf(data.type), std::move(plan), d.reduction, indices.type);
  }
  return MakeForNumberType<ScatterElementsWorkload>(data.type, std::move(plan), d.reduction, indices.type);
}

}  // namespace backplane::reference
