// ElementwiseBinary: add, sub, mul, div, max, min, pow with numpy broadcasting, f32.
//
// The output's index space is walked as a StridedLoop over (output, a, b), so equal shapes run
// as one flat loop, a scalar or a per-row operand (bias over H*W) runs as rows against a
// scalar, and any other broadcast ([3,1,5] x [4,1]) as rows of the innermost dimension.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>

namespace backplane::reference {

namespace {

// max and min return NaN when either operand is NaN (numpy.maximum / numpy.minimum).
struct Add { float operator()(float a, float b) const { return a + b; } };
struct Sub { float operator()(float a, float b) const { return a - b; } };
struct Mul { float operator()(float a, float b) const { return a * b; } };
struct Div { float operator()(float a, float b) const { return a / b; } };
struct Max { float operator()(float a, float b) const { return (a > b || std::isnan(a)) ? a : b; } };
struct Min { float operator()(float a, float b) const { return (a < b || std::isnan(a)) ? a : b; } };
struct Pow { float operator()(float a, float b) const { return std::pow(a, b); } };

template <typename Op>
class BinaryWorkload final : public backend::IWorkload {
 public:
  explicit BinaryWorkload(StridedLoop<3> loop) : loop_(std::move(loop)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* a = Input<float>(args, 0);
    const float* b = Input<float>(args, 1);
    float* out = Output<float>(args, 0);
    const Op op;
    loop_.ForEachRow([&](const StridedLoop<3>::Offsets& at, std::int64_t n, const StridedLoop<3>::Offsets& step) {
      float* o = out + at[0];
      const float* x = a + at[1];
      const float* y = b + at[2];
      // The output is dense, so step[0] is 1 for every row longer than one element.
      if (step[1] == 1 && step[2] == 1) {
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(x[i], y[i]);
      } else if (step[1] == 1 && step[2] == 0) {
        const float s = *y;
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(x[i], s);
      } else if (step[1] == 0 && step[2] == 1) {
        const float s = *x;
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(s, y[i]);
      } else {
        for (std::int64_t i = 0; i < n; ++i) o[i * step[0]] = op(x[i * step[1]], y[i * step[2]]);
      }
    });
  }

 private:
  StridedLoop<3> loop_;
};

template <typename Op>
std::unique_ptr<backend::IWorkload> Make(StridedLoop<3> loop) {
  return std::make_unique<BinaryWorkload<Op>>(std::move(loop));
}

}  // namespace

std::unique_ptr<backend::IWorkload> CreateElementwiseBinaryWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<ElementwiseBinaryDescriptor>(layer);
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  StridedLoop<3> loop(out.Dims(), {DenseStrides(out), BroadcastStrides(layer.GetInputInfo(0).shape, out),
                                   BroadcastStrides(layer.GetInputInfo(1).shape, out)});
  switch (descriptor.operation) {
    case BinaryOperation::kAdd: return Make<Add>(std::move(loop));
    case BinaryOperation::kSub: return Make<Sub>(std::move(loop));
    case BinaryOperation::kMul: return Make<Mul>(std::move(loop));
    case BinaryOperation::kDiv: return Make<Div>(std::move(loop));
    case BinaryOperation::kMax: return Make<Max>(std::move(loop));
    case BinaryOperation::kMin: return Make<Min>(std::move(loop));
    case BinaryOperation::kPow: return Make<Pow>(std::move(loop));
  }
  throw Exception(ErrorCode::kUnsupported, "ElementwiseBinary operation " +
                                               std::to_string(static_cast<std::uint32_t>(descriptor.operation)) +
                                               " is not one CpuRef knows");
}

}  // namespace backplane::reference
