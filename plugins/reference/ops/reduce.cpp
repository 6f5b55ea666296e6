// Reduce (mean, sum) over a set of axes, f32. The input is walked once in memory order
// against per-output accumulators (stride 0 along reduced axes), accumulated in double in the
// run's scratch memory; the mean of an empty set is NaN, as 0/0 in numpy.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace backplane::reference {

namespace {

class ReduceWorkload final : public backend::IWorkload {
 public:
  ReduceWorkload(StridedLoop<2> loop, std::int64_t outputs, std::int64_t count, bool mean)
      : loop_(std::move(loop)), outputs_(outputs), count_(count), mean_(mean) {}

  std::size_t GetScratchSize() const override { return static_cast<std::size_t>(outputs_) * sizeof(double); }

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    float* y = Output<float>(args, 0);
    auto* sums = static_cast<double*>(args.scratch);
    for (std::int64_t i = 0; i < outputs_; ++i) sums[i] = 0.0;
    loop_.ForEachRow([&](const StridedLoop<2>::Offsets& at, std::int64_t n, const StridedLoop<2>::Offsets& step) {
      double* s = sums + at[0];
      const float* xs = x + at[1];
      if (step[0] == 0) {
        double total = 0.0;
        for (std::int64_t i = 0; i < n; ++i) total += xs[i * step[1]];
        *s += total;
      } else {
        for (std::int64_t i = 0; i < n; ++i) s[i * step[0]] += xs[i * step[1]];
      }
    });
    const double divisor = mean_ ? static_cast<double>(count_) : 1.0;
    for (std::int64_t i = 0; i < outputs_; ++i) y[i] = static_cast<float>(sums[i] / divisor);
  }

 private:
  StridedLoop<2> loop_;
  std::int64_t outputs_, count_;
  bool mean_;
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
  return std::make_unique<ReduceWorkload>(std::move(loop), kept.NumElements(), count,
                                          descriptor.operation == ReduceOperation::kMean);
}

}  // namespace backplane::reference
