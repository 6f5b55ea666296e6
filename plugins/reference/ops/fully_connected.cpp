// FullyConnected, f32, with ONNX Gemm semantics: Y [M, N] = alpha * op(A) * op(B) + beta * C,
// A [M, K] (or [K, M] with transpose_a), B [K, N] (or [N, K] with transpose_b), optional C
// broadcastable to [M, N]. Constant A and B are packed for the GEMM once, when the workload is
// created; a constant C is copied then.
#include "broadcast.hpp"
#include "gemm.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <vector>

namespace backplane::reference {

namespace {

using GemmShape = backend::GemmGeometry;

class FullyConnectedWorkload final : public backend::IWorkload {
 public:
  FullyConnectedWorkload(const FullyConnectedDescriptor& descriptor, const GemmShape& shape,
                         const backend::ILayerView& layer)
      : descriptor_(descriptor), shape_(shape), has_c_(layer.GetNumInputs() == 3) {
    const TensorShape& a = layer.GetInputInfo(0).shape;
    const TensorShape& b = layer.GetInputInfo(1).shape;
    a_ld_ = a[1];
    b_ld_ = b[1];
    if (const auto* a_data = static_cast<const float*>(layer.GetConstantInput(0))) {
      a_packed_ = true;
      packed_a_.resize(PackedASize(shape_.m, shape_.k));
      PackA(GemmOperand::RowMajor(a_data, a_ld_, descriptor_.transpose_a), shape_.m, shape_.k, packed_a_.data());
    }
    if (const auto* b_data = static_cast<const float*>(layer.GetConstantInput(1))) {
      b_packed_ = true;
      packed_b_.resize(PackedBSize(shape_.k, shape_.n));
      PackB(GemmOperand::RowMajor(b_data, b_ld_, descriptor_.transpose_b), shape_.k, shape_.n, packed_b_.data());
    }
    if (has_c_) {
      const TensorShape& c = layer.GetInputInfo(2).shape;
      const std::vector<std::int64_t> strides = BroadcastStrides(c, TensorShape{shape_.m, shape_.n});
      c_row_stride_ = strides[0];
      c_col_stride_ = strides[1];
      if (const auto* c_data = static_cast<const float*>(layer.GetConstantInput(2))) {
        c_constant_ = true;
        c_.assign(c_data, c_data + c.NumElements());
      }
    }
  }

  std::size_t GetScratchSize() const override {
    return GemmWorkspaceSize(shape_.m, shape_.n, shape_.k, AOperand(nullptr), BOperand(nullptr)) * sizeof(float);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    float* y = Output<float>(args, 0);
    float beta = 0.0f;
    if (has_c_ && descriptor_.beta != 0.0f) {
      const float* c = c_constant_ ? c_.data() : Input<float>(args, 2);
      for (std::int64_t i = 0; i < shape_.m; ++i) {
        for (std::int64_t j = 0; j < shape_.n; ++j) {
          y[i * shape_.n + j] = descriptor_.beta * c[i * c_row_stride_ + j * c_col_stride_];
        }
      }
      beta = 1.0f;
    }
    const GemmOperand a = AOperand(a_packed_ ? nullptr : Input<float>(args, 0));
    const GemmOperand b = BOperand(b_packed_ ? nullptr : Input<float>(args, 1));
    Gemm(shape_.m, shape_.n, shape_.k, descriptor_.alpha, a, b, beta, y, shape_.n, static_cast<float*>(args.scratch));
  }

 private:
  GemmOperand AOperand(const float* run_a) const {
    if (a_packed_) return GemmOperand::Packed(packed_a_.data());
    return GemmOperand::RowMajor(run_a, a_ld_, descriptor_.transpose_a);
  }
  GemmOperand BOperand(const float* run_b) const {
    if (b_packed_) return GemmOperand::Packed(packed_b_.data());
    return GemmOperand::RowMajor(run_b, b_ld_, descriptor_.transpose_b);
  }

  FullyConnectedDescriptor descriptor_;
  GemmShape shape_;
  bool has_c_;
  std::int64_t a_ld_ = 0, b_ld_ = 0;
  bool a_packed_ = false, b_packed_ = false;  // constant, packed for the GEMM at creation
  std::vector<float> packed_a_, packed_b_;
  bool c_constant_ = false;
  std::vector<float> c_;
  std::int64_t c_row_stride_ = 0, c_col_stride_ = 0;  // C's strides when read as [M, N]
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateFullyConnectedWorkload(const backend::ILayerView& layer) {
  GemmShape shape{};
  std::string reason;
  if (!backend::DescribeGemm(layer, shape, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<FullyConnectedWorkload>(DescriptorOf<FullyConnectedDescriptor>(layer), shape, layer);
}

}  // namespace backplane::reference
