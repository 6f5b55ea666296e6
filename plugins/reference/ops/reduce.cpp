// Reduce over a set of axes. On f32, f64, f16 and bf16: every ReduceOperation, as
// backend::reduction computes it (the one owner of the formulas) in double, each output rounded
// once to the input's type (ConvertElement). On integers: Max, Min, Sum, Prod, SumSquare, L1 and
// Mean exact in the type, wrapping as numpy's sum(dtype=x.dtype) (Mean: that sum divided by the
// count, truncated, as numpy's mean(dtype=x.dtype)); L2, LogSum and LogSumExp are real-valued
// and refused. The input is walked in memory order against per-output accumulators (stride 0
// along reduced axes) in the run's scratch memory; kLogSumExp walks it twice (each output's
// largest value first).
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/reduction.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace backplane::reference {

namespace {

namespace reduction = backend::reduction;

bool IsIntegerReduction(ReduceOperation op) {
  return op != ReduceOperation::kL2 && op != ReduceOperation::kLogSum && op != ReduceOperation::kLogSumExp;
}

// The integer forms of reduction::Start and Add (IsIntegerReduction), wrapping.
template <typename T>
T IntegerStart(ReduceOperation op) {
  switch (op) {
    case ReduceOperation::kMax: return std::numeric_limits<T>::lowest();
    case ReduceOperation::kMin: return std::numeric_limits<T>::max();
    case ReduceOperation::kProd: return T{1};
    default: return T{0};
  }
}
template <typename T>
T IntegerAdd(ReduceOperation op, T acc, T x) {
  switch (op) {
    case ReduceOperation::kMax: return x > acc ? x : acc;
    case ReduceOperation::kMin: return x < acc ? x : acc;
    case ReduceOperation::kProd: return MultiplyElements(acc, x);
    case ReduceOperation::kSumSquare: return AddElements(acc, MultiplyElements(x, x));
    case ReduceOperation::kL1: return AddElements(acc, x < T{0} ? MultiplyElements(x, static_cast<T>(-1)) : x);
    default: return AddElements(acc, x);  // kSum, kMean
  }
}

template <typename T>
class ReduceWorkload final : public backend::IWorkload {
  static constexpr bool kFloating = kIsFloatingPointElement<T>;
  using Acc = std::conditional_t<kFloating, double, T>;

 public:
  ReduceWorkload(StridedLoop<2> loop, std::int64_t outputs, std::int64_t count, ReduceOperation operation)
      : loop_(std::move(loop)), outputs_(outputs), count_(count), operation_(operation) {}

  // The accumulators, and with kLogSumExp each output's shift.
  std::size_t GetScratchSize() const override {
    return static_cast<std::size_t>(outputs_) * sizeof(Acc) * (reduction::NeedsShift(operation_) ? 2 : 1);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* y = Output<T>(args, 0);
    auto* acc = static_cast<Acc*>(args.scratch);
    Acc* shift = nullptr;
    if (reduction::NeedsShift(operation_)) {  // floating point only
      shift = acc + outputs_;
      Accumulate(ReduceOperation::kMax, x, shift, nullptr);
      for (std::int64_t i = 0; i < outputs_; ++i) shift[i] = reduction::Shift(shift[i]);
    }
    Accumulate(operation_, x, acc, shift);
    for (std::int64_t i = 0; i < outputs_; ++i) {
      if constexpr (kFloating) {
        y[i] = ConvertElement<T>(reduction::Finish(operation_, acc[i], count_, shift ? shift[i] : 0.0));
      } else {  // count_ > 0 for kMean (CreateReduceWorkload)
        y[i] = operation_ == ReduceOperation::kMean ? IntegerMean(acc[i]) : acc[i];
      }
    }
  }

 private:
  // acc[o] = Start, then Add of every input element of output o (shift[o] with kLogSumExp).
  void Accumulate(ReduceOperation operation, const T* x, Acc* acc, const Acc* shift) const {
    for (std::int64_t i = 0; i < outputs_; ++i) acc[i] = Start(operation);
    loop_.ForEachRow([&](const StridedLoop<2>::Offsets& at, std::int64_t n, const StridedLoop<2>::Offsets& step) {
      Acc* a = acc + at[0];
      const Acc* s = shift ? shift + at[0] : nullptr;
      const T* xs = x + at[1];
      if (step[0] == 0) {  // a row of one output: accumulated in a register
        Acc total = *a;
        const Acc row_shift = s ? *s : Acc{0};
        for (std::int64_t i = 0; i < n; ++i) total = Add(operation, total, xs[i * step[1]], row_shift);
        *a = total;
        return;
      }
      for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t o = i * step[0];
        a[o] = Add(operation, a[o], xs[i * step[1]], s ? s[o] : Acc{0});
      }
    });
  }

  // The wrapped sum divided by the count in 64 bits (a narrow T cannot hold the count),
  // truncated toward zero.
  T IntegerMean(T sum) const {
    using Wide = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    return static_cast<T>(static_cast<Wide>(sum) / static_cast<Wide>(count_));
  }

  static Acc Start(ReduceOperation operation) {
    if constexpr (kFloating) return reduction::Start(operation); else return IntegerStart<T>(operation);
  }
  static Acc Add(ReduceOperation operation, Acc acc, T x, Acc shift) {
    if constexpr (kFloating) {
      return reduction::Add(operation, acc, ConvertElement<double>(x), shift);
    } else {
      return IntegerAdd(operation, acc, x);
    }
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
  const ReduceOperation operation = DescriptorOf<ReduceDescriptor>(layer).operation;
  if (IsFloatingPointType(type) || (IsArithmeticType(type) && IsIntegerReduction(operation))) return true;
  reason = std::string("CpuRef reduces integers (here ") + ToString(type) +
           ") by Max, Min, Sum, Prod, SumSquare, L1 and Mean only; L2, LogSum and LogSumExp are real-valued";
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
  const DataType type = layer.GetInputInfo(0).type;
  if (!IsFloatingPointType(type) && descriptor.operation == ReduceOperation::kMean && count == 0) {
    throw Exception(ErrorCode::kInvalidArgument, std::string("the integer mean of an empty set (input ") +
                                                     ToString(shape) + ", " + ToString(type) + ") has no value");
  }
  StridedLoop<2> loop(shape.Dims(), {BroadcastStrides(kept, shape), DenseStrides(shape)});
  return MakeForArithmeticType<ReduceWorkload>(type, std::move(loop), kept.NumElements(), count,
                                               descriptor.operation);
}

}  // namespace backplane::reference
