// CumSum (op set v2, ONNX CumSum) on every number type but f16/bf16, summed in the element type
// as ONNX's reference (numpy.cumsum) does; integers wrap. The axis is the descriptor's, or input
// 1's value (checked in every run) when the layer has it.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cstdint>
#include <string>

namespace backplane::reference {

namespace {

template <typename T>
class CumSumWorkload final : public backend::IWorkload {
 public:
  CumSumWorkload(TensorInfo x, std::int64_t axis, bool exclusive, bool reverse)
      : x_(std::move(x)), axis_(axis), exclusive_(exclusive), reverse_(reverse) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* out = Output<T>(args, 0);
    const backend::AxisExtents extents = backend::ExtentsAroundAxis(x_.shape, Axis(args));
    const std::int64_t n = extents.length, inner = extents.inner;
    for (std::int64_t o = 0; o < extents.outer; ++o) {
      for (std::int64_t i = 0; i < inner; ++i) {
        T sum{0};
        for (std::int64_t step = 0; step < n; ++step) {
          const std::int64_t j = reverse_ ? n - 1 - step : step;
          const std::int64_t at = (o * n + j) * inner + i;
          const T value = x[at];  // read first: the output may be the input's buffer
          if (!exclusive_) sum = AddElements(sum, value);
          out[at] = sum;
          if (exclusive_) sum = AddElements(sum, value);
        }
      }
    }
  }

 private:
  // The normalized axis: the descriptor's, or input 1's (i32 or i64).
  std::size_t Axis(const backend::WorkloadArgs& args) const {
    std::int64_t axis = axis_;
    if (args.inputs.size() > 1) {
      const TensorInfo& info = args.inputs[1]->GetInfo();
      axis = info.type == DataType::kInt32 ? *Input<std::int32_t>(args, 1) : *Input<std::int64_t>(args, 1);
    }
    std::size_t normalized = 0;
    if (!NormalizeAxis(axis, x_.shape.Rank(), normalized)) {
      throw Exception(ErrorCode::kInvalidArgument, "CumSum axis " + std::to_string(axis) + " is out of range for " +
                                                       ToString(x_.shape));
    }
    return normalized;
  }

  TensorInfo x_;
  std::int64_t axis_;
  bool exclusive_, reverse_;
};

}  // namespace

bool IsCumSumSupported(const backend::ILayerView& layer, std::string& reason) {
  return TakesNumbers("CumSum", layer.GetInputInfo(0).type, reason);
}

std::unique_ptr<backend::IWorkload> CreateCumSumWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<CumSumDescriptor>(layer);
  const TensorInfo& x = layer.GetInputInfo(0);
  return MakeForNumberType<CumSumWorkload>(x.type, x, d.axis, d.exclusive, d.reverse);
}

}  // namespace backplane::reference
