// The GEMM (the test device's kernels: the tiled GEMM on PoCL; ctest runs these cases again
// with CLBlast's, BACKPLANE_OPENCL_KERNELS=gpu) through FullyConnected (ONNX Gemm: transposes,
// alpha, beta, C broadcasts, K = 0) and MatMul (batches, broadcast batch dimensions, rank-1
// operands, K = 0) against CpuRef's, on thin shapes and shapes off the tile sizes; the split-K
// rule and its mechanics. Timings are in bench/gpu_opencl_bench.sh.
#include "gemm.hpp"
#include "opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

namespace {

using backplane::DataType;
using backplane::FullyConnectedDescriptor;
using backplane::MatMulDescriptor;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::opencl::testing::CheckMatchesReference;
using backplane::opencl::testing::F32;
using backplane::opencl::testing::HostTensor;
using backplane::opencl::testing::RefusalReason;

}  // namespace

TEST_CASE("opencl fully connected: Gemm options") {
  struct Case {
    std::int64_t m, n, k;
    bool ta, tb;
    float alpha, beta;
    TensorShape c;
    bool constant_b;
  };
  const Case cases[] = {
      {1, 10, 37, false, true, 1.0f, 1.0f, {10}, true},         // a classifier: thin, bias row
      {70, 67, 33, false, true, 1.0f, 1.0f, {67}, true},        // tiled, edges
      {65, 129, 17, true, false, 0.5f, 2.0f, {65, 1}, false},   // transposed A, column C
      {64, 64, 64, true, true, 1.5f, -1.0f, {64, 64}, false},   // both transposed, full C
      {20, 18, 5, false, false, 1.0f, 1.0f, {1, 1}, true},      // scalar C
      {33, 40, 9, false, true, 1.0f, 0.0f, {40}, true},         // beta 0 ignores C
  };
  for (const Case& t : cases) {
    CAPTURE(t.m);
    FullyConnectedDescriptor d;
    d.transpose_a = t.ta;
    d.transpose_b = t.tb;
    d.alpha = t.alpha;
    d.beta = t.beta;
    const TensorShape a = t.ta ? TensorShape{t.k, t.m} : TensorShape{t.m, t.k};
    const TensorShape b = t.tb ? TensorShape{t.n, t.k} : TensorShape{t.k, t.n};
    CheckMatchesReference(d, {F32(a, 4), F32(b, 5, t.constant_b), F32(t.c, 6, true)},
                          {{{t.m, t.n}, DataType::kFloat32}});
  }
  FullyConnectedDescriptor empty;  // K = 0: Y = beta * C
  empty.beta = 0.5f;
  CheckMatchesReference(empty, {F32({3, 0}, 1), F32({4, 0}, 2, true), F32({4}, 3, true)},
                        {{{3, 4}, DataType::kFloat32}});
  FullyConnectedDescriptor no_c;
  CheckMatchesReference(no_c, {F32({3, 4}, 1), F32({5, 4}, 2, true)}, {{{3, 5}, DataType::kFloat32}});
}

TEST_CASE("opencl matmul: batches, broadcast and rank-1 operands") {
  const MatMulDescriptor d;
  CheckMatchesReference(d, {F32({2, 3, 70, 19}, 1), F32({2, 3, 19, 66}, 2)}, {{{2, 3, 70, 66}, DataType::kFloat32}});
  CheckMatchesReference(d, {F32({4, 33, 16}, 1), F32({16, 65}, 2, true)}, {{{4, 33, 65}, DataType::kFloat32}});
  CheckMatchesReference(d, {F32({3, 1, 20, 8}, 1), F32({1, 2, 8, 17}, 2)}, {{{3, 2, 20, 17}, DataType::kFloat32}});
  CheckMatchesReference(d, {F32({7}, 1), F32({2, 7, 5}, 2)}, {{{2, 5}, DataType::kFloat32}});
  CheckMatchesReference(d, {F32({2, 6, 7}, 1), F32({7}, 2)}, {{{2, 6}, DataType::kFloat32}});
  CheckMatchesReference(d, {F32({9}, 1), F32({9}, 2)}, {{TensorShape{}, DataType::kFloat32}});
  // Broadcast both ways over two batch dims: runs of evenly stepping entries, not one.
  CheckMatchesReference(d, {F32({2, 1, 3, 5, 4}, 1), F32({1, 3, 1, 4, 6}, 2)},
                        {{{2, 3, 3, 5, 6}, DataType::kFloat32}});
  // An empty inner dimension: zeros (CLBlast refuses K = 0; the workload fills instead).
  CheckMatchesReference(d, {F32({3, 0}, 1), F32({0, 4}, 2)}, {{{3, 4}, DataType::kFloat32}});
  const auto reason = RefusalReason(d, {F32({2, 3}, 1), F32({4, 5}, 2)}, {{{2, 5}, DataType::kFloat32}});
  CHECK(reason.find("K = 3") != std::string::npos);
}

TEST_CASE("opencl gemm: the split-K rule") {
  using backplane::opencl::SplitKFactor;
  CHECK(SplitKFactor(512, 49, 4608, 132) == 16);  // ResNet's layer4 on an H100: 8 tiles, 4608 = 16 x 288
  CHECK(SplitKFactor(256, 196, 2304, 132) == 9);  // layer3: 16 tiles
  CHECK(SplitKFactor(1, 1000, 1280, 132) == 8);   // a classifier: 16 tiles, 1280 / 8 = 160
  CHECK(SplitKFactor(64, 3136, 576, 132) == 3);   // layer1: 49 tiles; 3 slices of 192
  CHECK(SplitKFactor(512, 49, 4608, 2) == 1);     // PoCL on two cores: the tiles fill it
  CHECK(SplitKFactor(64, 64, 127, 132) == 1);     // slices would be shorter than 128
  CHECK(SplitKFactor(64, 64, 131 * 128, 132) == 131);
  CHECK(SplitKFactor(64, 64, 1280, 7) == 5);  // the largest divisor of K up to the 7 wanted
  CHECK(SplitKFactor(1 << 16, 1 << 15, 1 << 20, std::size_t{1} << 40) == 1);  // partials past 2^31 elements
  CHECK(SplitKFactor(0, 10, 1024, 132) == 1);
}

TEST_CASE("opencl gemm: a split-K product equals the direct sum, with transposes, offsets and beta") {
  using backplane::opencl::AllocateBuffer;
  using backplane::opencl::Gemm;
  using backplane::opencl::GemmCall;
  using backplane::opencl::UploadBuffer;
  // Split-K is CLBlast's: a device with the GPU kernels whatever its kind.
  if (!backplane::opencl::kWithClblast) {
    MESSAGE("skipped: this build has no CLBlast (every product runs gemm_tiled, which never splits K)");
    return;
  }
  backplane::opencl::testing::TempFolder folder;
  const auto device = backplane::opencl::testing::TestDevice(folder.path(), backplane::opencl::KernelShape::kGpu);
  if (!device) return;
  const std::size_t m = 5, n = 7, k = 12, y_offset = 3, y_ld = n + 2;
  const auto a = backplane::opencl::testing::Random(m * k, 11), b = backplane::opencl::testing::Random(k * n, 12);
  for (const bool ta : {false, true}) {
    for (const bool tb : {false, true}) {
      for (const float beta : {0.0f, 0.5f}) {
        for (const std::size_t split : {1, 2, 3, 4}) {
          CAPTURE(ta);
          CAPTURE(tb);
          CAPTURE(beta);
          CAPTURE(split);
          GemmCall call;
          call.m = m, call.n = n, call.k = k, call.transpose_a = ta, call.transpose_b = tb;
          call.a_ld = ta ? m : k, call.b_ld = tb ? k : n, call.y_ld = y_ld, call.y_offset = y_offset;
          call.alpha = 2.0f, call.beta = beta;
          // y before: 1 everywhere (beta 0 must ignore it, even as NaN would be ignored).
          std::vector<float> y(y_offset + m * y_ld, 1.0f);
          std::vector<float> expected = y;
          for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
              float sum = 0.0f;
              for (std::size_t p = 0; p < k; ++p) {
                sum += a[ta ? p * m + i : i * k + p] * b[tb ? j * k + p : p * n + j];
              }
              float& out = expected[y_offset + i * y_ld + j];
              out = 2.0f * sum + (beta == 0.0f ? 0.0f : beta * out);
            }
          }
          const auto a_buffer = UploadBuffer(*device, a.data(), a.size() * sizeof(float));
          const auto b_buffer = UploadBuffer(*device, b.data(), b.size() * sizeof(float));
          const auto y_buffer = AllocateBuffer(*device, y.size() * sizeof(float));
          REQUIRE(clEnqueueWriteBuffer(device->Queue(), y_buffer.Get(), CL_TRUE, 0, y.size() * sizeof(float), y.data(),
                                       0, nullptr, nullptr) == CL_SUCCESS);
          call.a = a_buffer.Get(), call.b = b_buffer.Get(), call.y = y_buffer.Get();
          Gemm(*device, call, "test", split).Enqueue(call);
          REQUIRE(clEnqueueReadBuffer(device->Queue(), y_buffer.Get(), CL_TRUE, 0, y.size() * sizeof(float), y.data(),
                                      0, nullptr, nullptr) == CL_SUCCESS);
          for (std::size_t i = 0; i < y.size(); ++i) CHECK(y[i] == doctest::Approx(expected[i]).epsilon(1e-5));
        }
      }
    }
  }
  CHECK_THROWS_AS(Gemm(*device, GemmCall{5, 7, 12}, "test", 5), backplane::Exception);  // 12 is not 5 slices
}
