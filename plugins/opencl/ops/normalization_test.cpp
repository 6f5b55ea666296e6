// GpuOpenCl Softmax (every axis, long rows), BatchNormalization (constant and run-time
// parameters), LayerNormalization and Reduce against CpuRef's.
#include "opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

namespace {

using backplane::BatchNormalizationDescriptor;
using backplane::DataType;
using backplane::LayerNormalizationDescriptor;
using backplane::ReduceDescriptor;
using backplane::ReduceOperation;
using backplane::SoftmaxDescriptor;
using backplane::TensorShape;
using backplane::opencl::testing::CheckMatchesReference;
using backplane::opencl::testing::F32;
using backplane::opencl::testing::HostTensor;

// Values spread over [-scale, scale), for functions whose interesting range is wider than [-1, 1).
HostTensor Spread(const TensorShape& shape, unsigned seed, float scale, float offset = 0.0f) {
  auto values = backplane::opencl::testing::Random(shape.NumElements(), seed);
  for (auto& v : values) v = v * scale + offset;
  return HostTensor::F32(shape, values);
}

}  // namespace


TEST_CASE("opencl softmax: every axis, long rows") {
  const TensorShape shape{2, 3, 4, 5};
  for (std::int32_t axis = -4; axis < 4; ++axis) {
    CAPTURE(axis);
    SoftmaxDescriptor d;
    d.axis = axis;
    CheckMatchesReference(d, {Spread(shape, 5, 10.0f)}, {{shape, DataType::kFloat32}});
  }
  SoftmaxDescriptor last;
  CheckMatchesReference(last, {Spread({3, 1000}, 6, 20.0f)}, {{{3, 1000}, DataType::kFloat32}});
  CheckMatchesReference(last, {Spread({5, 3}, 6, 20.0f)}, {{{5, 3}, DataType::kFloat32}});
}

TEST_CASE("opencl batch normalization: constant and run-time parameters") {
  const TensorShape shape{2, 5, 6, 7};
  auto variance = Spread({5}, 10, 0.5f, 1.0f);
  for (const bool constant : {true, false}) {
    CAPTURE(constant);
    variance.constant = constant;
    BatchNormalizationDescriptor d;
    d.epsilon = 1e-3f;
    CheckMatchesReference(d, {F32(shape, 1), F32({5}, 7, constant), F32({5}, 8, constant), F32({5}, 9, constant),
                              variance},
                          {{shape, DataType::kFloat32}});
  }
  BatchNormalizationDescriptor rank2;
  CheckMatchesReference(rank2, {F32({4, 5}, 1), F32({5}, 7, true), F32({5}, 8, true), F32({5}, 9, true),
                                Spread({5}, 10, 0.5f, 1.0f)},
                        {{{4, 5}, DataType::kFloat32}});
}

TEST_CASE("opencl layer normalization: axes, with and without bias") {
  LayerNormalizationDescriptor last;
  CheckMatchesReference(last, {Spread({2, 7, 768}, 1, 3.0f, 0.5f), F32({768}, 2, true), F32({768}, 3, true)},
                        {{{2, 7, 768}, DataType::kFloat32}});
  LayerNormalizationDescriptor two;
  two.axis = 1;
  two.epsilon = 1e-3f;
  CheckMatchesReference(two, {F32({3, 4, 5}, 1), F32({4, 5}, 2)}, {{{3, 4, 5}, DataType::kFloat32}});
}

TEST_CASE("opencl reduce: axes, keep_dims, sum and mean") {
  const TensorShape shape{2, 3, 4, 5};
  struct Case {
    std::vector<std::int32_t> axes;
    bool keep;
    TensorShape out;
  };
  const Case cases[] = {
      {{}, true, {1, 1, 1, 1}},  {{1}, true, {2, 1, 4, 5}}, {{-1, 0}, false, {3, 4}},
      {{2, 3}, true, {2, 3, 1, 1}}, {{0, 2}, false, {3, 5}},
  };
  for (const auto operation : {ReduceOperation::kMean, ReduceOperation::kSum}) {
    for (const Case& t : cases) {
      CAPTURE(std::string(backplane::ToString(t.out)));
      ReduceDescriptor d;
      d.operation = operation;
      d.axes = t.axes;
      d.keep_dims = t.keep;
      CheckMatchesReference(d, {F32(shape, 1)}, {{t.out, DataType::kFloat32}});
    }
  }
}

TEST_CASE("opencl reduce: operations other than mean and sum are refused with a reason") {
  ReduceDescriptor max;
  max.operation = ReduceOperation::kMax;
  std::string reason;
  CHECK_FALSE(backplane::opencl::testing::Supported(max, {F32({3, 5}, 1)}, {{{1, 1}, DataType::kFloat32}}, reason));
  CHECK(reason.find("GpuOpenCl runs mean and sum reductions only") != std::string::npos);
}

TEST_CASE("opencl reduce: long trailing rows (work-group sums) and a full reduction") {
  ReduceDescriptor mean;
  mean.axes = {-1};
  mean.keep_dims = false;
  CheckMatchesReference(mean, {F32({3, 5000}, 1)}, {{{3}, DataType::kFloat32}});
  ReduceDescriptor all;
  all.operation = ReduceOperation::kSum;
  CheckMatchesReference(all, {F32({7, 1, 300}, 2)}, {{{1, 1, 1}, DataType::kFloat32}});
}
