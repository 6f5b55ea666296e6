// ArgMinMax (op set v2, ONNX ArgMax / ArgMin) on f32, i32 and i64: the i64 position of the
// largest or smallest value along the axis. Ties give the first position (the last with
// select_last_index); NaN beats every number, and the first NaN (last, with
// select_last_index) is picked, as numpy.argmax / argmin do.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

namespace backplane::reference {

namespace {

template <typename T>
class ArgMinMaxWorkload final : public backend::IWorkload {
 public:
  ArgMinMaxWorkload(const ArgMinMaxDescriptor& descriptor, backend::AxisExtents extents)
      : max_(descriptor.operation == ArgOperation::kMax), last_(descriptor.select_last_index), extents_(extents) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    auto* out = Output<std::int64_t>(args, 0);
    const std::int64_t inner = extents_.inner;
    for (std::int64_t o = 0; o < extents_.outer; ++o) {
      for (std::int64_t i = 0; i < inner; ++i) {
        const T* row = x + o * extents_.length * inner + i;
        out[o * inner + i] = Pick(row, inner);
      }
    }
  }

 private:
  // The position along the axis of the element to pick from row[0], row[step], ...
  std::int64_t Pick(const T* row, std::int64_t step) const {
    std::int64_t best = 0;
    for (std::int64_t j = 1; j < extents_.length; ++j) {
      if (Beats(row[j * step], row[best * step])) best = j;
    }
    return best;
  }

  // Whether `value`, later in the row, replaces `best`.
  bool Beats(T value, T best) const {
    if (IsNanElement(best)) return last_ && IsNanElement(value);
    if (IsNanElement(value)) return true;
    if (value == best) return last_;
    return max_ ? value > best : value < best;
  }

  bool max_, last_;
  backend::AxisExtents extents_;
};

}  // namespace

bool IsArgMinMaxSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType type = layer.GetInputInfo(0).type;
  if (type == DataType::kFloat32 || type == DataType::kInt32 || type == DataType::kInt64) return true;
  reason = std::string("CpuRef's ArgMax and ArgMin take f32, i32 and i64 tensors, not ") + ToString(type);
  return false;
}

std::unique_ptr<backend::IWorkload> CreateArgMinMaxWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<ArgMinMaxDescriptor>(layer);
  const TensorInfo& x = layer.GetInputInfo(0);
  std::size_t axis = 0;
  NormalizeAxis(descriptor.axis, x.shape.Rank(), axis);
  const backend::AxisExtents extents = backend::ExtentsAroundAxis(x.shape, axis);
  switch (x.type) {
    case DataType::kInt32: return std::make_unique<ArgMinMaxWorkload<std::int32_t>>(descriptor, extents);
    case DataType::kInt64: return std::make_unique<ArgMinMaxWorkload<std::int64_t>>(descriptor, extents);
    default: return std::make_unique<ArgMinMaxWorkload<float>>(descriptor, extents);
  }
}

}  // namespace backplane::reference
