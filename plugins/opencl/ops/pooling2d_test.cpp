// GpuOpenCl Pooling2d against CpuRef's: max and average, padding, count_include_pad, ceil_mode,
// dilations and global pooling.
#include "opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

namespace {

using backplane::DataType;
using backplane::Pooling2dDescriptor;
using backplane::PoolingType;
using backplane::TensorShape;
using backplane::opencl::testing::CheckMatchesReference;
using backplane::opencl::testing::F32;

}  // namespace

TEST_CASE("opencl pooling2d: max and average, pads, ceil mode, dilations, global") {
  const TensorShape x{2, 3, 11, 10};
  Pooling2dDescriptor max;
  max.kernel = {3, 3};
  max.strides = {2, 2};
  max.pads = {1, 1, 1, 1};
  CheckMatchesReference(max, {F32(x, 1)}, {{{2, 3, 6, 5}, DataType::kFloat32}});
  Pooling2dDescriptor avg = max;
  avg.type = PoolingType::kAverage;
  CheckMatchesReference(avg, {F32(x, 1)}, {{{2, 3, 6, 5}, DataType::kFloat32}});
  avg.count_include_pad = true;
  CheckMatchesReference(avg, {F32(x, 1)}, {{{2, 3, 6, 5}, DataType::kFloat32}});
  Pooling2dDescriptor ceil;
  ceil.type = PoolingType::kAverage;
  ceil.kernel = {2, 3};
  ceil.strides = {2, 2};
  ceil.ceil_mode = true;
  ceil.count_include_pad = true;
  CheckMatchesReference(ceil, {F32(x, 1)}, {{{2, 3, 6, 5}, DataType::kFloat32}});
  Pooling2dDescriptor dilated;
  dilated.kernel = {2, 2};
  dilated.dilations = {2, 3};
  CheckMatchesReference(dilated, {F32(x, 1)}, {{{2, 3, 9, 7}, DataType::kFloat32}});
  Pooling2dDescriptor global;
  global.global = true;
  global.type = PoolingType::kAverage;
  CheckMatchesReference(global, {F32(x, 1)}, {{{2, 3, 1, 1}, DataType::kFloat32}});
  global.type = PoolingType::kMax;
  CheckMatchesReference(global, {F32(x, 1)}, {{{2, 3, 1, 1}, DataType::kFloat32}});
}
