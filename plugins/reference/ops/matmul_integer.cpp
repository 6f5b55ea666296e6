// MatMulInteger (ONNX MatMulInteger, the integer core of QLinearMatMul): numpy.matmul of
// (A - a_zero_point) and (B - b_zero_point), A and B i8 or u8 each, into i32 exactly (wrapping
// at 32 bits, as ONNX allows). Both operands are widened and centered into scratch once per run
// (zero points are read each run: they may be run-time inputs), then one dot product per output
// element in k's order. Correctness first: no packing, no blocking.
#include "integer_operands.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/exception.hpp>

#include <vector>

namespace backplane::reference {

namespace {

// Immutable after construction; Execute is thread-safe (its buffers are the run's scratch).
class MatMulIntegerWorkload final : public IntegerOperandsWorkload {
 public:
  MatMulIntegerWorkload(const backend::MatMulGeometry& geometry, const backend::ILayerView& layer)
      : IntegerOperandsWorkload(layer), g_(geometry), operands_(backend::MatMulBatchOperands(geometry)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    std::int32_t* a = CenteredInput(args, 0);
    std::int32_t* b = CenteredInput(args, 1);
    Center(args, 0, ZeroPointShape(0), a);
    Center(args, 1, ZeroPointShape(1), b);
    std::int32_t* y = Output<std::int32_t>(args, 0);
    for (std::size_t index = 0; index < operands_.size(); ++index) {
      const std::int32_t* am = a + operands_[index].a * g_.m * g_.k;
      const std::int32_t* bm = b + operands_[index].b * g_.k * g_.n;
      std::int32_t* ym = y + static_cast<std::int64_t>(index) * g_.m * g_.n;
      for (std::int64_t i = 0; i < g_.m; ++i) {
        for (std::int64_t j = 0; j < g_.n; ++j) {
          WrappingSum sum;
          for (std::int64_t p = 0; p < g_.k; ++p) sum.Add(am[i * g_.k + p], bm[p * g_.n + j]);
          ym[i * g_.n + j] = sum.Value();
        }
      }
    }
  }

 private:
  // The zero point's own shape: the schema made it broadcast to its operand.
  TensorShape ZeroPointShape(std::size_t data) const {
    return HasZeroPoint(data) ? inputs_[data + 2].shape : TensorShape{};
  }

  backend::MatMulGeometry g_;
  std::vector<backend::MatMulOperands> operands_;  // per output matrix: its A and B
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateMatMulIntegerWorkload(const backend::ILayerView& layer) {
  backend::MatMulGeometry geometry;
  std::string reason;
  if (!backend::DescribeMatMulInteger(layer, geometry, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<MatMulIntegerWorkload>(geometry, layer);
}

}  // namespace backplane::reference
