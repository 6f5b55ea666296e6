// CLBlast's GEMM through FullyConnected (ONNX Gemm: transposes, alpha, beta, C broadcasts,
// K = 0) and MatMul (batches, broadcast batch dimensions, rank-1 operands, K = 0) against
// CpuRef's, on thin shapes and shapes off CLBlast's tile sizes. Timings are in
// bench/gpu_opencl_bench.sh.
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
