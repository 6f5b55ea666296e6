// FullyConnected, f32, ONNX Gemm semantics: Y [M, N] = alpha * op(A) * op(B) + beta * C,
// A [M, K] (or [K, M] with transpose_a), B [K, N] (or [N, K] with transpose_b), optional C
// broadcastable to [M, N]. Runs on CLBlast's GEMM (gemm.hpp) with its transpose flags, except
// that a constant transposed B (FullyConnected's usual weights [N, K]) is uploaded as [K, N]
// once, so CLBlast need not transpose it at every run. C is first copied into Y through its
// broadcast strides (strided_copy), then the GEMM adds alpha * op(A) * op(B) to beta * Y.
#include "epilogue.hpp"
#include "gemm.hpp"
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "strided_copy.hpp"

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

GemmCall FullyConnectedGemm(const backend::ILayerView& layer, const GemmShape& shape) {
  const auto& d = DescriptorOf<FullyConnectedDescriptor>(layer);
  GemmCall call;
  call.m = static_cast<std::size_t>(shape.m);
  call.n = static_cast<std::size_t>(shape.n);
  call.k = static_cast<std::size_t>(shape.k);
  call.transpose_a = d.transpose_a;
  call.transpose_b = d.transpose_b && !TransposedConstantB(layer);
  call.a_ld = call.transpose_a ? call.m : call.k;
  call.b_ld = call.transpose_b ? call.k : call.n;
  call.y_ld = call.n;
  call.alpha = d.alpha;
  call.beta = layer.GetNumInputs() == 3 ? d.beta : 0.0f;
  return call;
}

class FullyConnectedWorkload final : public OpenClWorkload {
 public:
  FullyConnectedWorkload(const backend::ILayerView& layer, OpenClDevice& device, const GemmShape& shape,
                         const Epilogue& epilogue)
      : OpenClWorkload(layer, device,
                       TransposedConstantB(layer) ? std::vector<std::size_t>{1} : std::vector<std::size_t>{}),
        call_(FullyConnectedGemm(layer, shape)),
        gemm_(device, call_, name_),
        epilogue_(epilogue) {
    if (!epilogue.Empty()) epilogue_kernel_ = EpilogueKernel(device, epilogue);
    if (TransposedConstantB(layer)) {
      const auto* b = static_cast<const float*>(layer.GetConstantInput(1));
      std::vector<float> transposed(static_cast<std::size_t>(shape.k * shape.n));
      for (std::int64_t row = 0; row < shape.n; ++row) {
        for (std::int64_t col = 0; col < shape.k; ++col) transposed[col * shape.n + row] = b[row * shape.k + col];
      }
      b_transposed_ = UploadBuffer(device, transposed.data(), transposed.size() * sizeof(float));
    }
    if (call_.beta != 0.0f) {
      const auto strides = BroadcastStrides(layer.GetInputInfo(2).shape, TensorShape{shape.m, shape.n});
      MakeCopyPlan({shape.m, shape.n}, 0, strides, 0, {shape.n, 1}, c_plan_);
      c_copy_ = MakeKernel(device, kKernelSource_data_movement, "strided_copy");
    }
  }

  backend::WorkloadInfo GetInfo() const override { return {gemm_.Describe(call_.batch), ""}; }

  void Execute(const backend::WorkloadArgs& args) const override {
    GemmCall call = call_;
    if (call.k > 0) {  // else A and B are empty (an empty constant has no buffer) and unused
      call.a = In(args, 0);
      call.b = b_transposed_ ? b_transposed_.Get() : In(args, 1);
    }
    call.y = Out(args, 0);
    if (call.beta != 0.0f) EnqueueCopyPlan(device_, c_copy_.Get(), c_plan_, In(args, 2), call.y, name_.c_str());
    gemm_.Enqueue(call);
    if (epilogue_kernel_) {
      epilogue_kernel_.Enqueue(device_, call.y, nullptr, InIfAny(args, epilogue_.residual), 1, 1, call.m * call.n,
                               name_.c_str());
    }
  }

 private:
  GemmCall call_;  // the shape; buffers set per run
  Gemm gemm_;
  Epilogue epilogue_;
  EpilogueKernel epilogue_kernel_;  // a fused layer's residual and activation
  ClBuffer b_transposed_;  // a constant transposed B, uploaded as [K, N]
  CopyPlan c_plan_;        // C broadcast into Y, when beta is not 0
  ClKernel c_copy_;
};

}  // namespace

bool IsFullyConnectedSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFitKernelIndexing(
      {layer.GetInputInfo(0).shape, layer.GetInputInfo(1).shape, layer.GetOutputInfo(0).shape}, reason);
}

std::unique_ptr<backend::IWorkload> CreateFullyConnectedWorkload(const backend::ILayerView& layer,
                                                                 OpenClDevice& device, const Epilogue& epilogue) {
  GemmShape shape{};
  std::string reason;
  if (!backend::DescribeGemm(layer, shape, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<FullyConnectedWorkload>(layer, device, shape, epilogue);
}

std::unique_ptr<backend::IWorkload> CreateFullyConnectedWorkload(const backend::ILayerView& layer,
                                                                 OpenClDevice& device) {
  return CreateFullyConnectedWorkload(layer, device, Epilogue{});
}

}  // namespace backplane::opencl
