#include "gemm.hpp"

#include "kernel_sources.hpp"

#include <backplane/exception.hpp>

#ifdef BACKPLANE_OPENCL_WITH_CLBLAST
#include <clblast.h>
#endif

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

namespace backplane::opencl {

std::string ClblastStatusName(int status) {
  // CLBlast's own codes; the others are OpenCL's (CLBlast passes them through).
  static const std::pair<int, const char*> kNames[] = {
      {-1024, "kNotImplemented"},         {-1022, "kInvalidMatrixA"},         {-1021, "kInvalidMatrixB"},
      {-1020, "kInvalidMatrixC"},         {-1017, "kInvalidDimension"},       {-1016, "kInvalidLeadDimA"},
      {-1015, "kInvalidLeadDimB"},        {-1014, "kInvalidLeadDimC"},        {-1011, "kInsufficientMemoryA"},
      {-1010, "kInsufficientMemoryB"},    {-1009, "kInsufficientMemoryC"},    {-2050, "kInsufficientMemoryTemp"},
      {-2049, "kInvalidBatchCount"},      {-2048, "kInvalidOverrideKernel"},  {-2047, "kMissingOverrideParameter"},
      {-2046, "kInvalidLocalMemUsage"},   {-2041, "kDatabaseError"},          {-2040, "kUnknownError"},
      {-2039, "kUnexpectedError"}};
  for (const auto& [code, name] : kNames) {
    if (code == status) return std::string(name) + " (" + std::to_string(status) + ")";
  }
  if (status <= -1000) return "CLBlast status " + std::to_string(status);
  return ClErrorName(status);
}

std::size_t SplitKFactor(std::size_t m, std::size_t n, std::size_t k, std::size_t compute_units) {
  constexpr std::size_t kTile = 64, kMinSlice = 128;
  const std::size_t tiles = ((m + kTile - 1) / kTile) * ((n + kTile - 1) / kTile);
  if (tiles == 0 || tiles >= compute_units) return 1;
  const std::size_t wanted = std::min((compute_units + tiles - 1) / tiles, k / kMinSlice);
  for (std::size_t split = wanted; split >= 2; --split) {
    if (k % split != 0) continue;
    const bool indexable = m * n <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) / split;
    return indexable ? split : 1;
  }
  return 1;
}

Gemm::Gemm(OpenClDevice& device, const GemmCall& shape, std::string what, std::optional<std::size_t> split)
    : device_(device), what_(std::move(what)) {
  if (device.CpuKernels() || !kWithClblast) {
    tiled_ = MakeKernel(device, kKernelSource_gemm, "gemm_tiled");
    return;
  }
  PrepareClblast(shape, split);
}

std::string Gemm::Describe(std::size_t batch) const {
  if (tiled_.Get()) return "gemm_tiled";
  if (batch > 1) return "CLBlast batched GEMM";
  return split_ > 1 ? "CLBlast GEMM, K in " + std::to_string(split_) + " slices" : "CLBlast GEMM";
}

void Gemm::Enqueue(const GemmCall& g) const {
  if (g.m == 0 || g.n == 0 || g.batch == 0) return;
  if (tiled_.Get()) {
    EnqueueTiled(g);
  } else {
    EnqueueClblast(g);
  }
}

void Gemm::EnqueueTiled(const GemmCall& g) const {
  // Transposes as strides of op(A) [m, k] and op(B) [k, n]; K = 0 needs no case of its own
  // (y = beta * y, A and B unread).
  const auto i = [](std::size_t v) { return static_cast<cl_int>(v); };
  const cl_int a_rs = i(g.transpose_a ? 1 : g.a_ld), a_ps = i(g.transpose_a ? g.a_ld : 1);
  const cl_int b_ps = i(g.transpose_b ? 1 : g.b_ld), b_cs = i(g.transpose_b ? g.b_ld : 1);
  const cl_ulong a_offset = g.a_offset, a_stride = g.a_stride, b_offset = g.b_offset, b_stride = g.b_stride,
                 y_offset = g.y_offset, y_stride = g.y_stride;
  const cl_int y_ld = i(g.y_ld), m = i(g.m), n = i(g.n), k = i(g.k);
  Launch(device_, tiled_.Get(), {(g.n + 15) / 16, (g.m + 3) / 4, g.batch}, {},
         {Arg(g.a), Arg(a_offset), Arg(a_stride), Arg(a_rs), Arg(a_ps), Arg(g.b), Arg(b_offset), Arg(b_stride),
          Arg(b_ps), Arg(b_cs), Arg(g.y), Arg(y_offset), Arg(y_stride), Arg(y_ld), Arg(m), Arg(n), Arg(k),
          Arg(g.alpha), Arg(g.beta)},
         what_.c_str());
}

// ---- CLBlast's products: only in builds with CLBlast -------------------------------------------
#ifdef BACKPLANE_OPENCL_WITH_CLBLAST

namespace {

clblast::Transpose Op(bool transpose) { return transpose ? clblast::Transpose::kYes : clblast::Transpose::kNo; }

void CheckClblast(clblast::StatusCode status, const std::string& what, const char* routine) {
  if (status == clblast::StatusCode::kSuccess) return;
  throw Exception(ErrorCode::kBackendFailure, "GpuOpenCl: " + what + ": CLBlast " + routine +
                                                  " failed: " + ClblastStatusName(static_cast<int>(status)));
}

}  // namespace

void Gemm::PrepareClblast(const GemmCall& shape, std::optional<std::size_t> split) {
  if (shape.m == 0 || shape.n == 0 || shape.k == 0) return;  // Enqueue calls no GEMM routine
  if (shape.batch == 1) split_ = split.value_or(SplitKFactor(shape.m, shape.n, shape.k, device_.ComputeUnits()));
  if (split_ < 1 || shape.k % split_ != 0) {
    throw Exception(ErrorCode::kInternal, "GpuOpenCl: " + what_ + ": K = " + std::to_string(shape.k) +
                                              " cannot be split in " + std::to_string(split_));
  }
  if (split_ > 1) {
    sum_partials_ = MakeKernel(device_, kKernelSource_gemm, "sum_partials");
    return;  // the strided-batched routine allocates its temporary buffers itself
  }
  cl_command_queue queue = device_.Queue();
  std::size_t bytes = 0;
  // Every CLBlast call of the device runs under its LaunchMutex.
  std::lock_guard<std::recursive_mutex> lock(device_.LaunchMutex());
  // Non-zero offsets make CLBlast copy every operand (the most temporary memory a call of this
  // shape can need), so the size holds for the offsets of every later call.
  CheckClblast(clblast::GemmTempBufferSize<float>(clblast::Layout::kRowMajor, Op(shape.transpose_a),
                                                  Op(shape.transpose_b), shape.m, shape.n, shape.k, 1, shape.a_ld, 1,
                                                  shape.b_ld, 1, shape.y_ld, &queue, bytes),
               what_, "GemmTempBufferSize");
  temp_bytes_ = bytes;
}

void Gemm::EnqueueClblast(const GemmCall& g) const {
  cl_command_queue queue = device_.Queue();
  std::lock_guard<std::recursive_mutex> lock(device_.LaunchMutex());
  if (g.k == 0) {  // an empty product, which CLBlast refuses: y = beta * y (y dense, as every caller's)
    const std::size_t count = g.batch * g.m * g.n;
    if (g.beta == 0.0f) {
      const float zero = 0.0f;
      CheckCl(clEnqueueFillBuffer(queue, g.y, &zero, sizeof(zero), g.y_offset * sizeof(float), count * sizeof(float), 0,
                                  nullptr, nullptr),
              (what_ + ": clEnqueueFillBuffer").c_str());
    } else if (g.beta != 1.0f) {
      CheckClblast(clblast::Scal<float>(count, g.beta, g.y, g.y_offset, 1, &queue, nullptr), what_, "Scal");
    }
    return;
  }
  if (g.batch == 1 && split_ > 1) {
    EnqueueSplit(g);
    return;
  }
  if (g.batch == 1) {
    const auto gemm = [&](std::size_t temp_bytes) {
      cl_mem temp = temp_bytes > 0 ? device_.ScratchBuffer(OpenClDevice::Scratch::kBlasTemp, temp_bytes) : nullptr;
      return clblast::Gemm<float>(clblast::Layout::kRowMajor, Op(g.transpose_a), Op(g.transpose_b), g.m, g.n, g.k,
                                  g.alpha, g.a, g.a_offset, g.a_ld, g.b, g.b_offset, g.b_ld, g.beta, g.y, g.y_offset,
                                  g.y_ld, &queue, nullptr, temp);
    };
    auto status = gemm(temp_bytes_);
    if (status == clblast::StatusCode::kInsufficientMemoryTemp) {
      // Parameters tuned since this workload was created (clblast_tuning.hpp) pad differently:
      // ask again for this call.
      std::size_t bytes = 0;
      CheckClblast(clblast::GemmTempBufferSize<float>(clblast::Layout::kRowMajor, Op(g.transpose_a),
                                                      Op(g.transpose_b), g.m, g.n, g.k, g.a_offset, g.a_ld,
                                                      g.b_offset, g.b_ld, g.y_offset, g.y_ld, &queue, bytes),
                   what_, "GemmTempBufferSize");
      status = gemm(bytes);
    }
    CheckClblast(status, what_, "Gemm");
    return;
  }
  EnqueueBatched(g);
}

void Gemm::EnqueueSplit(const GemmCall& g) const {
  // Slice s of K: columns s * slice... of op(A), rows of op(B); each slice's product goes to
  // partial output s, and sum_partials adds them (and beta * y) into y.
  const std::size_t slice = g.k / split_;
  GemmCall parts = g;
  parts.k = slice;
  parts.a_stride = g.transpose_a ? slice * g.a_ld : slice;
  parts.b_stride = g.transpose_b ? slice : slice * g.b_ld;
  parts.beta = 0.0f;
  parts.y = device_.ScratchBuffer(OpenClDevice::Scratch::kPartials, split_ * g.m * g.n * sizeof(float));
  parts.y_offset = 0;
  parts.y_ld = g.n;
  parts.y_stride = g.m * g.n;
  parts.batch = split_;
  EnqueueBatched(parts);
  const cl_int split = static_cast<cl_int>(split_), m = static_cast<cl_int>(g.m), n = static_cast<cl_int>(g.n);
  const cl_ulong y_offset = g.y_offset, y_ld = g.y_ld;
  Launch(device_, sum_partials_.Get(), {g.n, g.m}, {},
         {Arg(parts.y), Arg(split), Arg(m), Arg(n), Arg(g.y), Arg(y_offset), Arg(y_ld), Arg(g.beta)}, what_.c_str());
}

void Gemm::EnqueueBatched(const GemmCall& g) const {
  cl_command_queue queue = device_.Queue();
  CheckClblast(clblast::GemmStridedBatched<float>(clblast::Layout::kRowMajor, Op(g.transpose_a), Op(g.transpose_b),
                                                  g.m, g.n, g.k, g.alpha, g.a, g.a_offset, g.a_ld, g.a_stride, g.b,
                                                  g.b_offset, g.b_ld, g.b_stride, g.beta, g.y, g.y_offset, g.y_ld,
                                                  g.y_stride, g.batch, &queue, nullptr),
               what_, "GemmStridedBatched");
}

#else  // no CLBlast: the constructor always takes the tiled kernel, so these are never reached

void Gemm::PrepareClblast(const GemmCall&, std::optional<std::size_t>) {}

void Gemm::EnqueueClblast(const GemmCall&) const {
  throw Exception(ErrorCode::kInternal, "GpuOpenCl: " + what_ + ": this build has no CLBlast");
}

#endif  // BACKPLANE_OPENCL_WITH_CLBLAST

}  // namespace backplane::opencl
