// Reduce over a set of axes, on f32, f64, f16 and bf16: every ReduceOperation, as
// backend::reduction computes it (the one owner of the formulas), each output rounded once to
// the input's type (ConvertElement). The input is walked in memory order against per-output
// accumulators (stride 0 along reduced axes), accumulated in double in the run's scratch
// memory; kLogSumExp walks it twice (each output's largest value first).
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/reduction.hpp>
#include <backplane/descriptors.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace backplane::reference {

namespace {

namespace reduction = backend::reduction;

template <typename T>
class ReduceWorkload final : public backend::IWorkload {
 public:
  ReduceWorkload(StridedLoop<2> loop, std::int64_t outputs, std::int64_t count, ReduceOperation operation)
      : loop_(std::move(loop)), outputs_(outputs), count_(count), operation_(operation) {}

  // The accumulators, and with kLogSumExp each output's shift.
  std::size_t GetScratchSize() const override {
    return static_cast<std::size_t>(outputs_) * sizeof(double) * (reduction::NeedsShift(operation_) ? 2 : 1);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* y = Output<T>(args, 0);
    auto* acc = static_cast<double*>(args.scratch);
    double* shift = nullptr;
    if (reduction::NeedsShift(operation_)) {
      shift = acc + outputs_;
      Accumulate(ReduceOperation::kMax, x, shift, nullptr);
      for (std::int64_t i = 0; i < outputs_; ++i) shift[i] = reduction::Shift(shift[i]);
    }
    Accumulate(operation_, x, acc, shift);
    for (std::int64_t i = 0; i < outputs_; ++i) {
      y[i] = ConvertElement<T>(reduction::Finish(operation_, acc[i], count_, shift ? shift[i] : 0.0));
    }
  }

 private:
  // acc[o] = Start, then Add of every input element of output o (shift[o] with kLogSumExp).
  void Accumulate(ReduceOperation operation, const T* x, double* acc, const double* shift) const {
    for (std::int64_t i = 0; i < outputs_; ++i) acc[i] = reduction::Start(operation);
    loop_.ForEachRow([&](const StridedLoop<2>::Offsets& at, std::int64_t n, const StridedLoop<2>::Offsets& step) {
      double* a = acc + at[0];
      const double* s = shift ? shift + at[0] : nullptr;
      const T* xs = x + at[1];
      if (step[0] == 0) {  // a row of one output: accumulated in a register
        double total = *a;
        const double row_shift = s ? *s : 0.0;
        for (std::int64_t i = 0; i < n; ++i) total = reduction::Add(operation, total, ConvertElement<double>(xs[i * step[1]]), row_shift);
        *a = total;
        return;
      }
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t o = i * step[0];
        a[o] = reduction::Add(operation, a[o], ConvertElement<double>(xs[i * step[1]]), s ? s[o] : 0.0);
      }
    });
  }

  StridedLoop<2> loop_;
  std::int64_t outputs_, count_;
  ReduceOperation operation_;
};

// Which axes of `shape` are reduced (all of them when the descriptor names none). The op
// schema has checked that the axes are in range and named once.
std::vector<bool> ReducedAxes(const ReduceDescriptor& descriptor, const TensorShape& shape) {
  std::vector<bool> reduced(shape.Rank(), descriptor.axes.empty());
  for (const std::int32_t axis : descriptor.axes) {
    std::size_t a = 0;
    NormalizeAxis(axis, shape.Rank(), a);
    reduced[a] = true;
  }
  return reduced;
}

}  // namespace

bool IsReduceSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType type = layer.GetInputInfo(0).type;
  if (IsFloatingPointType(type)) return true;
  // Integers would need exact (wrapping) sums and products, not double accumulators.
  reason = std::string("CpuRef runs Reduce on f32, f64, f16 and bf16, not ") + ToString(type);
  return false;
}

std::unique_ptr<backend::IWorkload> CreateReduceWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<ReduceDescriptor>(layer);
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  const std::vector<bool> reduced = ReducedAxes(descriptor, shape);

  // Accumulator strides: the output laid out with the reduced axes kept as 1, walked with
  // stride 0 along them.
  std::vector<std::int64_t> kept_dims(shape.Rank());
  std::int64_t count = 1;
  for (std::size_t d = 0; d < shape.Rank(); ++d) {
    kept_dims[d] = reduced[d] ? 1 : shape[d];
    if (reduced[d]) count *= shape[d];
  }
  const TensorShape kept(kept_dims);
  StridedLoop<2> loop(shape.Dims(), {BroadcastStrides(kept, shape), DenseStrides(shape)});
  return MakeForFloatingPointType<ReduceWorkload>(layer.GetInputInfo(0).type, std::move(loop), kept.NumElements(),
                                                  count, descriptor.operation);
}

}  // namespace backplane::reference
