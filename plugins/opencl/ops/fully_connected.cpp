// FullyConnected, f32, ONNX Gemm semantics: Y [M, N] = alpha * op(A) * op(B) + beta * C,
// A [M, K] (or [K, M] with transpose_a), B [K, N] (or [N, K] with transpose_b), optional C
// broadcastable to [M, N]. Runs on the shared GEMM kernels (gemm.hpp); transposes are stride
// swaps, except that a constant transposed B (FullyConnected's usual weights [N, K]) is
// uploaded as [K, N] once, so the tiled kernel reads it along rows. C is read through
// broadcast strides in the GEMM's store.
#include "gemm.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

using GemmShape = backend::GemmGeometry;

// B is constant and transposed: uploaded as [K, N] by the workload, not as given.
bool TransposedConstantB(const backend::ILayerView& layer) {
  return DescriptorOf<FullyConnectedDescriptor>(layer).transpose_b && layer.GetConstantInput(1) != nullptr;
}

class FullyConnectedWorkload final : public OpenClWorkload {
 public:
  FullyConnectedWorkload(const backend::ILayerView& layer, OpenClDevice& device, const GemmShape& shape)
      : OpenClWorkload(layer, device,
                       TransposedConstantB(layer) ? std::vector<std::size_t>{1} : std::vector<std::size_t>{}),
        gemm_(device),
        shape_(shape) {
    const auto& d = DescriptorOf<FullyConnectedDescriptor>(layer);
    alpha_ = d.alpha;
    beta_ = d.beta;
    has_c_ = layer.GetNumInputs() == 3 && d.beta != 0.0f;
    const auto m = static_cast<int>(shape.m), n = static_cast<int>(shape.n), k = static_cast<int>(shape.k);
    a_rs_ = d.transpose_a ? 1 : k;
    a_cs_ = d.transpose_a ? m : 1;
    b_rs_ = d.transpose_b ? 1 : n;
    b_cs_ = d.transpose_b ? k : 1;
    if (TransposedConstantB(layer)) {
      const auto* b = static_cast<const float*>(layer.GetConstantInput(1));
      std::vector<float> transposed(static_cast<std::size_t>(shape.k * shape.n));
      for (std::int64_t row = 0; row < shape.n; ++row) {
        for (std::int64_t col = 0; col < shape.k; ++col) transposed[col * shape.n + row] = b[row * shape.k + col];
      }
      b_transposed_ = UploadBuffer(device, transposed.data(), transposed.size() * sizeof(float));
      b_rs_ = n;
      b_cs_ = 1;
    }
    if (has_c_) {
      const auto strides = BroadcastStrides(layer.GetInputInfo(2).shape, TensorShape{shape.m, shape.n});
      c_rs_ = static_cast<int>(strides[0]);
      c_cs_ = static_cast<int>(strides[1]);
    }
    const int offsets[2] = {0, 0};
    offsets_ = UploadBuffer(device, offsets, sizeof(offsets));
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    GemmCall call;
    call.m = static_cast<int>(shape_.m);
    call.n = static_cast<int>(shape_.n);
    call.k = static_cast<int>(shape_.k);
    call.a = In(args, 0);
    call.a_rs = a_rs_;
    call.a_cs = a_cs_;
    call.b = b_transposed_ ? b_transposed_.Get() : In(args, 1);
    call.b_rs = b_rs_;
    call.b_cs = b_cs_;
    call.offsets = offsets_.Get();
    call.alpha = alpha_;
    call.c = has_c_ ? In(args, 2) : nullptr;
    call.c_rs = c_rs_;
    call.c_cs = c_cs_;
    call.beta = beta_;
    call.y = Out(args, 0);
    gemm_.Enqueue(call, name_.c_str());
  }

 private:
  GemmKernels gemm_;
  GemmShape shape_;
  float alpha_ = 1.0f, beta_ = 0.0f;
  bool has_c_ = false;
  int a_rs_ = 0, a_cs_ = 0, b_rs_ = 0, b_cs_ = 0, c_rs_ = 0, c_cs_ = 0;
  ClBuffer b_transposed_;  // a constant transposed B, uploaded as [K, N]
  ClBuffer offsets_;       // one batch entry at offset 0
};

}  // namespace

bool IsFullyConnectedSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFitKernelIndexing(
      {layer.GetInputInfo(0).shape, layer.GetInputInfo(1).shape, layer.GetOutputInfo(0).shape}, reason);
}

std::unique_ptr<backend::IWorkload> CreateFullyConnectedWorkload(const backend::ILayerView& layer,
                                                                 OpenClDevice& device) {
  GemmShape shape{};
  std::string reason;
  if (!backend::DescribeGemm(layer, shape, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<FullyConnectedWorkload>(layer, device, shape);
}

}  // namespace backplane::opencl
