// GpuOpenCl ConvolutionTranspose, ConvolutionNd and PoolingNd against CpuRef's: 1, 2 and 3
// spatial axes, strides, dilations, asymmetric pads, output_padding, groups, bias or none,
// run-time weights; max and average pooling with count_include_pad, ceil_mode and global.
#include "opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

#include <type_traits>
#include <vector>

namespace {

using backplane::ConvolutionNdDescriptor;
using backplane::ConvolutionTransposeDescriptor;
using backplane::DataType;
using backplane::PoolingNdDescriptor;
using backplane::PoolingType;
using backplane::TensorShape;
using backplane::opencl::testing::CheckMatchesReference;
using backplane::opencl::testing::F32;
using backplane::opencl::testing::HostTensor;

using List = std::vector<std::uint32_t>;
using Dims = std::vector<std::int64_t>;

// A convolution over the spatial extents `in`; output_padding is the transposed one's alone.
struct Conv {
  std::int64_t n, c, m;
  Dims in, kernel;
  List strides, dilations, pads, output_padding;
  std::uint32_t groups = 1;
  bool bias = true, constant = true;
};

// ConvolutionNdDescriptor or ConvolutionTransposeDescriptor `t` against CpuRef's.
template <typename Descriptor>
void CheckConv(const Conv& t) {
  constexpr bool kTransposed = std::is_same_v<Descriptor, ConvolutionTransposeDescriptor>;
  Descriptor d;
  d.strides = t.strides;
  d.dilations = t.dilations;
  d.pads = t.pads;
  d.groups = t.groups;
  if constexpr (kTransposed) d.output_padding = t.output_padding;
  const std::size_t s = t.in.size();
  Dims x{t.n, t.c}, w{kTransposed ? t.c : t.m, kTransposed ? t.m / t.groups : t.c / t.groups}, y{t.n, t.m};
  for (std::size_t a = 0; a < s; ++a) {
    x.push_back(t.in[a]);
    w.push_back(t.kernel[a]);
    const std::int64_t span = (t.kernel[a] - 1) * t.dilations[a] + 1, pads = t.pads[a] + t.pads[s + a];
    y.push_back(kTransposed ? t.strides[a] * (t.in[a] - 1) + t.output_padding[a] + span - pads
                            : (t.in[a] + pads - span) / t.strides[a] + 1);
  }
  std::vector<HostTensor> inputs{F32(TensorShape(x), 1), F32(TensorShape(w), 2, t.constant)};
  if (t.bias) inputs.push_back(F32({t.m}, 3, t.constant));
  CheckMatchesReference(d, inputs, {{TensorShape(y), DataType::kFloat32}});
}

}  // namespace

TEST_CASE("opencl conv transpose: 1, 2 and 3 spatial axes, strides, dilations, pads, output_padding") {
  CheckConv<ConvolutionTransposeDescriptor>({2, 3, 4, {7}, {3}, {2}, {1}, {1, 0}, {1}});
  CheckConv<ConvolutionTransposeDescriptor>({1, 4, 6, {5, 6}, {3, 2}, {2, 3}, {1, 2}, {1, 0, 0, 2}, {1, 0}});
  CheckConv<ConvolutionTransposeDescriptor>(
      {2, 2, 3, {3, 4, 5}, {2, 3, 2}, {1, 2, 2}, {2, 1, 1}, {0, 1, 0, 1, 0, 1}, {0, 1, 1}});
}

TEST_CASE("opencl conv transpose: groups, no bias, run-time weights") {
  Conv grouped{1, 6, 4, {6, 5}, {3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, {0, 0}, 2};
  grouped.bias = false;
  CheckConv<ConvolutionTransposeDescriptor>(grouped);
  Conv runtime{2, 4, 8, {3, 3, 3}, {2, 2, 2}, {2, 2, 2}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}, {1, 0, 1}, 4};
  runtime.constant = false;
  CheckConv<ConvolutionTransposeDescriptor>(runtime);
}

TEST_CASE("opencl conv nd: 3-D and 1-D, strides, dilations, asymmetric pads, groups, no bias") {
  CheckConv<ConvolutionNdDescriptor>({2, 3, 5, {6, 7, 5}, {3, 3, 2}, {1, 2, 1}, {1, 1, 2}, {1, 0, 1, 1, 1, 0}, {}});
  Conv grouped{1, 4, 6, {5, 5, 6}, {2, 3, 3}, {2, 1, 2}, {2, 1, 1}, {0, 1, 1, 1, 1, 0}, {}, 2};
  grouped.bias = false;
  grouped.constant = false;
  CheckConv<ConvolutionNdDescriptor>(grouped);
  CheckConv<ConvolutionNdDescriptor>({2, 3, 4, {11}, {3}, {2}, {2}, {2, 1}, {}});
  CheckConv<ConvolutionNdDescriptor>({1, 3, 2, {6, 7}, {3, 2}, {1, 2}, {1, 1}, {1, 0, 1, 1}, {}});
}

TEST_CASE("opencl pooling nd: 3-D and 1-D max and average, pads, count_include_pad, ceil_mode, global") {
  const TensorShape x{2, 3, 7, 6, 5};
  PoolingNdDescriptor max;
  max.kernel = {3, 2, 3};
  max.strides = {2, 2, 1};
  max.dilations = {1, 2, 1};
  max.pads = {1, 0, 1, 1, 1, 1};
  CheckMatchesReference(max, {F32(x, 1)}, {{{2, 3, 4, 3, 5}, DataType::kFloat32}});
  PoolingNdDescriptor avg = max;
  avg.type = PoolingType::kAverage;
  CheckMatchesReference(avg, {F32(x, 1)}, {{{2, 3, 4, 3, 5}, DataType::kFloat32}});
  avg.count_include_pad = true;
  CheckMatchesReference(avg, {F32(x, 1)}, {{{2, 3, 4, 3, 5}, DataType::kFloat32}});
  PoolingNdDescriptor ceil;
  ceil.type = PoolingType::kAverage;
  ceil.kernel = {2, 2, 2};
  ceil.strides = {2, 2, 2};
  ceil.dilations = {1, 1, 1};
  ceil.pads = {0, 0, 0, 0, 0, 0};
  ceil.ceil_mode = true;
  CheckMatchesReference(ceil, {F32(x, 1)}, {{{2, 3, 4, 3, 3}, DataType::kFloat32}});
  PoolingNdDescriptor global;
  global.global = true;
  global.type = PoolingType::kAverage;
  CheckMatchesReference(global, {F32(x, 1)}, {{{2, 3, 1, 1, 1}, DataType::kFloat32}});
  global.type = PoolingType::kMax;
  CheckMatchesReference(global, {F32(x, 1)}, {{{2, 3, 1, 1, 1}, DataType::kFloat32}});
  PoolingNdDescriptor one;
  one.kernel = {3};
  one.strides = {2};
  one.dilations = {1};
  one.pads = {1, 1};
  CheckMatchesReference(one, {F32({2, 3, 9}, 1)}, {{{2, 3, 5}, DataType::kFloat32}});
}
