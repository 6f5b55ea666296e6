// MatMul, f32, numpy.matmul semantics: A [..., M, K] times B [..., K, N], batch dimensions
// broadcast; a rank-1 A is [1, K] and a rank-1 B is [K, 1], that dimension dropped from the
// output. One batched launch of the shared GEMM kernels (gemm.hpp) with a per-batch table of
// (A, B) offsets computed and uploaded at creation; when every batch entry uses the same B and
// A's batch is the output's, the batch folds into M (one [batch * M, K] x [K, N] GEMM).
#include "gemm.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

using MatMulShape = backend::MatMulGeometry;

class MatMulWorkload final : public OpenClWorkload {
 public:
  MatMulWorkload(const backend::ILayerView& layer, OpenClDevice& device, const MatMulShape& s)
      : OpenClWorkload(layer, device), gemm_(device), s_(s) {
    const std::int64_t batch = s.batch.NumElements();
    const bool fold = s.b_batch.NumElements() == 1 && s.a_batch.NumElements() == batch;
    rows_ = fold ? batch * s.m : s.m;
    batch_ = fold ? 1 : batch;
    std::vector<cl_int> offsets;
    const auto a_strides = BroadcastStrides(s.a_batch, s.batch);
    const auto b_strides = BroadcastStrides(s.b_batch, s.batch);
    const std::vector<std::int64_t>& dims = s.batch.Dims();
    for (std::int64_t index = 0; index < batch_; ++index) {
      std::int64_t a_index = 0, b_index = 0, rest = index;
      for (std::size_t d = dims.size(); d-- > 0;) {
        const std::int64_t i = rest % dims[d];
        rest /= dims[d];
        a_index += i * a_strides[d];
        b_index += i * b_strides[d];
      }
      offsets.push_back(static_cast<cl_int>(a_index * s.m * s.k));
      offsets.push_back(static_cast<cl_int>(b_index * s.k * s.n));
    }
    offsets_ = UploadBuffer(device, offsets.data(), offsets.size() * sizeof(cl_int));
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    GemmCall call;
    call.m = static_cast<int>(rows_);
    call.n = static_cast<int>(s_.n);
    call.k = static_cast<int>(s_.k);
    call.batch = static_cast<int>(batch_);
    call.a = In(args, 0);
    call.a_rs = static_cast<int>(s_.k);
    call.a_cs = 1;
    call.b = In(args, 1);
    call.b_rs = static_cast<int>(s_.n);
    call.b_cs = 1;
    call.offsets = offsets_.Get();
    call.y = Out(args, 0);
    gemm_.Enqueue(call, name_.c_str());
  }

 private:
  GemmKernels gemm_;
  MatMulShape s_;
  std::int64_t rows_ = 0, batch_ = 0;
  ClBuffer offsets_;  // (A offset, B offset) per launched batch entry
};

}  // namespace

bool IsMatMulSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFitKernelIndexing(
      {layer.GetInputInfo(0).shape, layer.GetInputInfo(1).shape, layer.GetOutputInfo(0).shape}, reason);
}

std::unique_ptr<backend::IWorkload> CreateMatMulWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  MatMulShape shape;
  std::string reason;
  if (!backend::DescribeMatMul(layer, shape, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<MatMulWorkload>(layer, device, shape);
}

}  // namespace backplane::opencl
