// MatMul, f32 and f64, with numpy.matmul semantics: A [..., M, K] times B [..., K, N], batch
// dimensions broadcast; a rank-1 A is [1, K] and a rank-1 B is [K, 1], with that dimension
// dropped from the output. f32: one GEMM per batch entry, or a single GEMM over [batch * M, K]
// when every batch entry uses the same B; a constant B is packed for the GEMM once, when the
// workload is created. f64 (rare: models exported in double, ONNX Einsum tests): a plain dot
// product per output element in double, no packing.
#include "broadcast.hpp"
#include "gemm.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <string>
#include <vector>

namespace backplane::reference {

namespace {

using MatMulShape = backend::MatMulGeometry;

class MatMulWorkload final : public backend::IWorkload {
 public:
  MatMulWorkload(const MatMulShape& shape, const float* constant_b) : s_(shape) {
    batch_count_ = s_.batch.NumElements();
    b_count_ = s_.b_batch.NumElements();
    operands_ = backend::MatMulBatchOperands(s_);
    // One B for all, and A's batch entries in output order: fold the batch into M.
    fold_batch_ = b_count_ == 1 && s_.a_batch.NumElements() == batch_count_;
    if (constant_b) {
      b_packed_ = true;
      b_packed_size_ = static_cast<std::int64_t>(PackedBSize(s_.k, s_.n));
      packed_b_.resize(static_cast<std::size_t>(b_packed_size_ * b_count_));
      for (std::int64_t i = 0; i < b_count_; ++i) {
        PackB(GemmOperand::RowMajor(constant_b + i * s_.k * s_.n, s_.n), s_.k, s_.n,
              packed_b_.data() + i * b_packed_size_);
      }
    }
  }

  std::size_t GetScratchSize() const override {
    const std::int64_t rows = fold_batch_ ? batch_count_ * s_.m : s_.m;
    return GemmWorkspaceSize(rows, s_.n, s_.k, GemmOperand::RowMajor(nullptr, s_.k), BOperand(nullptr, 0)) *
           sizeof(float);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* a = Input<float>(args, 0);
    const float* b = b_packed_ ? nullptr : Input<float>(args, 1);
    float* y = Output<float>(args, 0);
    float* workspace = static_cast<float*>(args.scratch);
    if (fold_batch_) {
      Gemm(batch_count_ * s_.m, s_.n, s_.k, 1.0f, GemmOperand::RowMajor(a, s_.k), BOperand(b, 0), 0.0f, y, s_.n,
           workspace);
      return;
    }
    for (std::int64_t index = 0; index < batch_count_; ++index) {
      const backend::MatMulOperands& o = operands_[static_cast<std::size_t>(index)];
      Gemm(s_.m, s_.n, s_.k, 1.0f, GemmOperand::RowMajor(a + o.a * s_.m * s_.k, s_.k), BOperand(b, o.b), 0.0f,
           y + index * s_.m * s_.n, s_.n, workspace);
    }
  }

 private:
  GemmOperand BOperand(const float* run_b, std::int64_t index) const {
    if (b_packed_) return GemmOperand::Packed(packed_b_.data() + index * b_packed_size_);
    return GemmOperand::RowMajor(run_b ? run_b + index * s_.k * s_.n : nullptr, s_.n);
  }

  MatMulShape s_;
  std::int64_t batch_count_ = 0, b_count_ = 0;
  std::vector<backend::MatMulOperands> operands_;  // per output matrix: its A and B
  bool fold_batch_ = false;
  bool b_packed_ = false;  // B is constant: every batch entry packed at creation
  std::int64_t b_packed_size_ = 0;
  std::vector<float> packed_b_;
};

// f64 MatMul: y[m, n] = sum over k of a[m, k] * b[k, n], accumulated in double in k's order.
class MatMulFloat64Workload final : public backend::IWorkload {
 public:
  explicit MatMulFloat64Workload(const MatMulShape& shape) : s_(shape), operands_(backend::MatMulBatchOperands(s_)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const double* a = Input<double>(args, 0);
    const double* b = Input<double>(args, 1);
    double* y = Output<double>(args, 0);
    for (std::size_t index = 0; index < operands_.size(); ++index) {
      const double* am = a + operands_[index].a * s_.m * s_.k;
      const double* bm = b + operands_[index].b * s_.k * s_.n;
      double* ym = y + static_cast<std::int64_t>(index) * s_.m * s_.n;
      for (std::int64_t i = 0; i < s_.m; ++i) {
        for (std::int64_t j = 0; j < s_.n; ++j) {
          double sum = 0.0;
          for (std::int64_t p = 0; p < s_.k; ++p) sum += am[i * s_.k + p] * bm[p * s_.n + j];
          ym[i * s_.n + j] = sum;
        }
      }
    }
  }

 private:
  MatMulShape s_;
  std::vector<backend::MatMulOperands> operands_;  // per output matrix: its A and B
};

}  // namespace

bool IsMatMulSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType a = layer.GetInputInfo(0).type;
  const DataType b = layer.GetInputInfo(1).type;
  if ((a == DataType::kFloat32 || a == DataType::kFloat64) && b == a) return true;
  reason = std::string("inputs are ") + ToString(a) + " and " + ToString(b) +
           "; CpuRef runs MatMul on two f32 or two f64 inputs";
  return false;
}

std::unique_ptr<backend::IWorkload> CreateMatMulWorkload(const backend::ILayerView& layer) {
  MatMulShape shape;
  std::string reason;
  if (!backend::DescribeMatMul(layer, shape, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  if (layer.GetInputInfo(0).type == DataType::kFloat64) return std::make_unique<MatMulFloat64Workload>(shape);
  return std::make_unique<MatMulWorkload>(shape, static_cast<const float*>(layer.GetConstantInput(1)));
}

}  // namespace backplane::reference
