// MatMul, f32, numpy.matmul semantics: A [..., M, K] times B [..., K, N], batch dimensions
// broadcast; a rank-1 A is [1, K] and a rank-1 B is [K, 1], that dimension dropped from the
// output. Runs on CLBlast's GEMM (gemm.hpp). When every batch entry uses the same B and A's
// batch is the output's, the batch folds into M (one [batch * M, K] x [K, N] GEMM). Otherwise
// the batch entries' (A, B) offsets are computed at creation and cut into runs whose offsets
// step evenly (with no broadcast, one run): each run is one strided-batched GEMM.
#include "epilogue.hpp"
#include "gemm.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::opencl {

namespace {

using MatMulShape = backend::MatMulGeometry;

// Consecutive batch entries whose A, B and output offsets each step by a constant: one
// strided-batched GEMM.
struct Run {
  std::size_t first = 0, count = 0;  // output entries [first, first + count)
  std::size_t a_offset = 0, b_offset = 0, a_stride = 0, b_stride = 0;
};

// The runs of the output's batch entries, from the broadcast of A's and B's batch dims.
std::vector<Run> BatchRuns(const MatMulShape& s) {
  const std::vector<backend::MatMulOperands> operands = backend::MatMulBatchOperands(s);
  std::vector<Run> runs;
  for (std::size_t index = 0; index < operands.size(); ++index) {
    const auto a_offset = static_cast<std::size_t>(operands[index].a * s.m * s.k);
    const auto b_offset = static_cast<std::size_t>(operands[index].b * s.k * s.n);
    if (!runs.empty()) {
      Run& run = runs.back();
      const bool second = run.count == 1 && a_offset >= run.a_offset && b_offset >= run.b_offset;
      if (second) {
        run.a_stride = a_offset - run.a_offset;
        run.b_stride = b_offset - run.b_offset;
      }
      if (second || (run.count > 1 && a_offset == run.a_offset + run.count * run.a_stride &&
                     b_offset == run.b_offset + run.count * run.b_stride)) {
        ++run.count;
        continue;
      }
    }
    runs.push_back({index, 1, a_offset, b_offset, 0, 0});
  }
  return runs;
}

GemmCall MatMulGemm(const MatMulShape& s, std::size_t rows) {
  GemmCall call;
  call.m = rows;
  call.n = static_cast<std::size_t>(s.n);
  call.k = static_cast<std::size_t>(s.k);
  call.a_ld = call.k;
  call.b_ld = call.n;
  call.y_ld = call.n;
  call.y_stride = static_cast<std::size_t>(s.m) * call.n;
  return call;
}

class MatMulWorkload final : public OpenClWorkload {
 public:
  MatMulWorkload(const backend::ILayerView& layer, OpenClDevice& device, const MatMulShape& s,
                 const Epilogue& epilogue)
      : OpenClWorkload(layer, device),
        fold_(s.b_batch.NumElements() == 1 && s.a_batch.NumElements() == s.batch.NumElements()),
        call_(MatMulGemm(s, static_cast<std::size_t>(fold_ ? s.batch.NumElements() * s.m : s.m))),
        gemm_(device, call_, name_),
        count_(static_cast<std::size_t>(layer.GetOutputInfo(0).shape.NumElements())),
        epilogue_(epilogue) {
    if (!fold_) runs_ = BatchRuns(s);
    if (!epilogue.Empty()) epilogue_kernel_ = EpilogueKernel(device, epilogue);
  }

  backend::WorkloadInfo GetInfo() const override {
    std::size_t batch = call_.batch;
    for (const Run& run : runs_) batch = std::max(batch, run.count);
    return {gemm_.Describe(batch), ""};
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    GemmCall call = call_;
    if (call.k > 0) {  // else A and B are empty (an empty constant has no buffer) and unused
      call.a = In(args, 0);
      call.b = In(args, 1);
    }
    call.y = Out(args, 0);
    if (fold_) {
      gemm_.Enqueue(call);
    } else {
      for (const Run& run : runs_) {
        call.a_offset = run.a_offset;
        call.b_offset = run.b_offset;
        call.a_stride = run.a_stride;
        call.b_stride = run.b_stride;
        call.y_offset = run.first * call.y_stride;
        call.batch = run.count;
        gemm_.Enqueue(call);
      }
    }
    if (epilogue_kernel_) {
      epilogue_kernel_.Enqueue(device_, call.y, nullptr, InIfAny(args, epilogue_.residual), 1, 1, count_,
                               name_.c_str());
    }
  }

 private:
  bool fold_;         // one GEMM with the batch folded into M
  GemmCall call_;     // the shape; buffers and offsets set per run
  Gemm gemm_;
  std::vector<Run> runs_;  // unless folded
  std::size_t count_;      // output elements
  Epilogue epilogue_;
  EpilogueKernel epilogue_kernel_;  // a fused layer's residual and activation
};

}  // namespace

bool IsMatMulSupported(const backend::ILayerView& layer, std::string& reason) {
  return AllFitKernelIndexing(
      {layer.GetInputInfo(0).shape, layer.GetInputInfo(1).shape, layer.GetOutputInfo(0).shape}, reason);
}

std::unique_ptr<backend::IWorkload> CreateMatMulWorkload(const backend::ILayerView& layer, OpenClDevice& device,
                                                         const Epilogue& epilogue) {
  MatMulShape shape;
  std::string reason;
  if (!backend::DescribeMatMul(layer, shape, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<MatMulWorkload>(layer, device, shape, epilogue);
}

std::unique_ptr<backend::IWorkload> CreateMatMulWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return CreateMatMulWorkload(layer, device, Epilogue{});
}

}  // namespace backplane::opencl
