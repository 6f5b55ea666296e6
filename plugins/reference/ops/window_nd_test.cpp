// ConvolutionNd and PoolingNd against cases worked out by hand (3-D and 1-D; pads, strides,
// dilations, groups, ceil_mode, count_include_pad, global) and, with two spatial axes, against
// CpuRef's Convolution2d and Pooling2d kernels (a GEMM over im2col and a 2-D window loop,
// written and tested apart) on random inputs; 3-D convolutions also against the sum over the
// kernel's depth taps of 2-D convolutions of the depth slices.
#include "op_test_harness.hpp"
#include "op_test_values.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using backplane::Convolution2dDescriptor;
using backplane::ConvolutionNdDescriptor;
using backplane::DataType;
using backplane::Pooling2dDescriptor;
using backplane::PoolingNdDescriptor;
using backplane::PoolingType;
using backplane::TensorShape;
using backplane::reference::testing::CheckClose;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::Random;
using backplane::reference::testing::RunOp;

using List = std::vector<std::uint32_t>;

ConvolutionNdDescriptor Conv(List strides, List dilations, List pads, std::uint32_t groups = 1) {
  ConvolutionNdDescriptor d;
  d.strides = std::move(strides);
  d.dilations = std::move(dilations);
  d.pads = std::move(pads);
  d.groups = groups;
  return d;
}

PoolingNdDescriptor Pool(PoolingType type, List kernel, List strides, List pads, List dilations = {}) {
  PoolingNdDescriptor d;
  d.type = type;
  d.dilations = dilations.empty() ? List(kernel.size(), 1) : std::move(dilations);
  d.kernel = std::move(kernel);
  d.strides = std::move(strides);
  d.pads = std::move(pads);
  return d;
}

template <typename Descriptor>
std::vector<float> Run(const Descriptor& d, const std::vector<HostTensor>& inputs, const TensorShape& output) {
  return RunOp(d, inputs, {{output, DataType::kFloat32}})[0].template As<float>();
}

std::vector<double> Widened(const std::vector<float>& values) { return {values.begin(), values.end()}; }

}  // namespace

TEST_CASE("conv nd: 3-D 2x2x2 kernel over a 2x2x3 input with a bias, by hand") {
  // x is 0..11 as [D=2, H=2, W=3]; the kernel sums the 2x2x2 cube, plus bias 0.5. The cube at
  // w = 0 holds 0, 1, 3, 4, 6, 7, 9, 10 (sum 40); at w = 1 each element is one more (48).
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i) x[i] = static_cast<float>(i);
  const auto w = HostTensor::F32({1, 1, 2, 2, 2}, std::vector<float>(8, 1.0f), true);
  const auto b = HostTensor::F32({1}, {0.5f}, true);
  CHECK(Run(Conv({1, 1, 1}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}), {HostTensor::F32({1, 1, 2, 2, 3}, x), w, b},
            {1, 1, 1, 1, 2}) == std::vector<float>{40.5f, 48.5f});
}

TEST_CASE("conv nd: 1-D stride 2, pads and dilation 2, by hand") {
  // x = 1..5 padded by one zero on each side: [0 1 2 3 4 5 0]; taps 0 and 2 of [1, 10] from
  // positions 0, 2, 4: 0 + 20, 2 + 40, 4 + 0.
  const auto x = HostTensor::F32({1, 1, 5}, {1, 2, 3, 4, 5});
  const auto w = HostTensor::F32({1, 1, 2}, {1, 10}, true);
  CHECK(Run(Conv({2}, {2}, {1, 1}), {x, w}, {1, 1, 3}) == std::vector<float>{20, 42, 4});
}

TEST_CASE("conv nd: 3-D groups, each output channel reads its own input channel, by hand") {
  const auto x = HostTensor::F32({1, 2, 1, 1, 2}, {1, 2, 3, 4});
  const auto w = HostTensor::F32({2, 1, 1, 1, 1}, {10, -1}, true);  // weights as run-time input below
  CHECK(Run(Conv({1, 1, 1}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}, 2), {x, w}, {1, 2, 1, 1, 2}) ==
        std::vector<float>{10, 20, -3, -4});
  const auto w_run_time = HostTensor::F32({2, 1, 1, 1, 1}, {10, -1}, false);
  CHECK(Run(Conv({1, 1, 1}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}, 2), {x, w_run_time}, {1, 2, 1, 1, 2}) ==
        std::vector<float>{10, 20, -3, -4});
}

TEST_CASE("conv nd: two spatial axes against Convolution2d on random inputs") {
  struct Case {
    std::vector<std::int64_t> x, w, y;
    List strides, dilations, pads;
    std::uint32_t groups;
  };
  for (const Case& t : {Case{{2, 4, 7, 6}, {6, 2, 3, 2}, {2, 6, 3, 3}, {2, 2}, {1, 2}, {1, 0, 0, 1}, 2},
                        Case{{1, 3, 5, 5}, {4, 3, 3, 3}, {1, 4, 5, 5}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 1}}) {
    const TensorShape xs(t.x), ws(t.w);
    const auto x = HostTensor::F32(xs, Random(xs.NumElements(), 11));
    const auto w = HostTensor::F32(ws, Random(ws.NumElements(), 12), true);
    const auto b = HostTensor::F32({t.w[0]}, Random(t.w[0], 13), true);
    Convolution2dDescriptor d2;
    d2.strides = {t.strides[0], t.strides[1]};
    d2.dilations = {t.dilations[0], t.dilations[1]};
    d2.pads = {t.pads[0], t.pads[1], t.pads[2], t.pads[3]};  // top, left, bottom, right: ONNX's order
    d2.groups = t.groups;
    const auto expected = Run(d2, {x, w, b}, TensorShape(t.y));
    CheckClose(Run(Conv(t.strides, t.dilations, t.pads, t.groups), {x, w, b}, TensorShape(t.y)), Widened(expected));
  }
}

TEST_CASE("conv nd: 3-D against 2-D convolutions of the depth slices on random inputs") {
  // x [1, 2, 4, 5, 4], weights [3, 2, 2, 3, 3], depth stride 2, pads (1, 1, 0) / (0, 1, 1):
  // output depth d reads input depth 2d - 1 + kd; each (d, kd) pair is one 2-D convolution of
  // that input slice with the kernel's slice kd.
  const std::int64_t c = 2, m = 3, depth = 4, h = 5, wd = 4, kd_count = 2;
  const TensorShape xs{1, c, depth, h, wd}, ws{m, c, kd_count, 3, 3};
  const auto x = Random(xs.NumElements(), 21);
  const auto w = Random(ws.NumElements(), 22);
  const std::int64_t out_depth = 2, out_h = 3, out_w = 3;  // (4+1-2)/2+1, (5+1+1-3)/2+1, (4+0+1-3)/1+1
  const auto y = Run(Conv({2, 2, 1}, {1, 1, 1}, {1, 1, 0, 0, 1, 1}),
                     {HostTensor::F32(xs, x), HostTensor::F32(ws, w, true)}, {1, m, out_depth, out_h, out_w});
  std::vector<double> expected(static_cast<std::size_t>(m * out_depth * out_h * out_w), 0.0);
  Convolution2dDescriptor d2;
  d2.strides = {2, 1};
  d2.pads = {1, 0, 1, 1};
  for (std::int64_t od = 0; od < out_depth; ++od) {
    for (std::int64_t kd = 0; kd < kd_count; ++kd) {
      const std::int64_t id = 2 * od - 1 + kd;
      if (id < 0 || id >= depth) continue;
      std::vector<float> slice, kernel;
      for (std::int64_t ci = 0; ci < c; ++ci) {
        const auto from = x.begin() + (ci * depth + id) * h * wd;
        slice.insert(slice.end(), from, from + h * wd);
      }
      for (std::int64_t mi = 0; mi < m; ++mi) {
        for (std::int64_t ci = 0; ci < c; ++ci) {
          const auto from = w.begin() + ((mi * c + ci) * kd_count + kd) * 9;
          kernel.insert(kernel.end(), from, from + 9);
        }
      }
      const auto part = Run(d2, {HostTensor::F32({1, c, h, wd}, slice), HostTensor::F32({m, c, 3, 3}, kernel, true)},
                            {1, m, out_h, out_w});
      for (std::int64_t mi = 0; mi < m; ++mi) {
        for (std::int64_t p = 0; p < out_h * out_w; ++p) {
          expected[static_cast<std::size_t>((mi * out_depth + od) * out_h * out_w + p)] += part[mi * out_h * out_w + p];
        }
      }
    }
  }
  CheckClose(y, expected);
}

TEST_CASE("pool nd: 3-D max and average, by hand") {
  std::vector<float> x(8);
  for (int i = 0; i < 8; ++i) x[i] = static_cast<float>(i);
  const auto cube = HostTensor::F32({1, 1, 2, 2, 2}, x);
  CHECK(Run(Pool(PoolingType::kMax, {2, 2, 2}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}), {cube}, {1, 1, 1, 1, 1}) ==
        std::vector<float>{7});
  CHECK(Run(Pool(PoolingType::kAverage, {2, 2, 2}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}), {cube}, {1, 1, 1, 1, 1}) ==
        std::vector<float>{3.5f});
  // A 1x1x2 window with one trailing pad on W, stride 2: windows (0,1) and (1,pad) per row.
  // Without count_include_pad the padded window averages its one input, with it halves it.
  auto average = Pool(PoolingType::kAverage, {1, 1, 2}, {1, 1, 1}, {0, 0, 0, 0, 0, 1});
  CHECK(Run(average, {cube}, {1, 1, 2, 2, 2}) == std::vector<float>{0.5f, 1, 2.5f, 3, 4.5f, 5, 6.5f, 7});
  average.count_include_pad = true;
  CHECK(Run(average, {cube}, {1, 1, 2, 2, 2}) == std::vector<float>{0.5f, 0.5f, 2.5f, 1.5f, 4.5f, 2.5f, 6.5f, 3.5f});
}

TEST_CASE("pool nd: 1-D ceil_mode and dilation, by hand") {
  const auto x = HostTensor::F32({1, 1, 5}, {1, 5, 2, 4, 3});
  // Kernel 2, stride 2: floor gives windows at 0 and 2; ceil_mode adds the partial one at 4.
  auto max = Pool(PoolingType::kMax, {2}, {2}, {0, 0});
  CHECK(Run(max, {x}, {1, 1, 2}) == std::vector<float>{5, 4});
  max.ceil_mode = true;
  CHECK(Run(max, {x}, {1, 1, 3}) == std::vector<float>{5, 4, 3});
  // Kernel 2 with dilation 2, stride 1: (0, 2), (1, 3), (2, 4).
  CHECK(Run(Pool(PoolingType::kMax, {2}, {1}, {0, 0}, {2}), {x}, {1, 1, 3}) == std::vector<float>{2, 5, 3});
}

TEST_CASE("pool nd: global max and average over three axes, by hand") {
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i % 8 == 3 ? 20 : i);  // channel 0: 0..7, 3 -> 20
  PoolingNdDescriptor global;
  global.global = true;
  global.type = PoolingType::kMax;
  const auto input = HostTensor::F32({1, 2, 2, 2, 2}, x);
  CHECK(Run(global, {input}, {1, 2, 1, 1, 1}) == std::vector<float>{20, 20});
  global.type = PoolingType::kAverage;
  CHECK(Run(global, {input}, {1, 2, 1, 1, 1}) == std::vector<float>{(28 - 3 + 20) / 8.0f, (92 - 11 + 20) / 8.0f});
}

TEST_CASE("pool nd: two spatial axes against Pooling2d on random inputs") {
  const TensorShape xs{2, 3, 7, 6};
  const auto x = HostTensor::F32(xs, Random(xs.NumElements(), 31));
  for (const PoolingType type : {PoolingType::kMax, PoolingType::kAverage}) {
    for (const bool ceil_mode : {false, true}) {
      for (const bool count_include_pad : {false, true}) {
        CAPTURE(ceil_mode);
        CAPTURE(count_include_pad);
        Pooling2dDescriptor d2;
        d2.type = type;
        d2.kernel = {3, 2};
        d2.strides = {2, 2};
        d2.dilations = {1, 2};
        d2.pads = {1, 0, 0, 1};  // a leading pad on H, a trailing one on W
        d2.ceil_mode = ceil_mode;
        d2.count_include_pad = count_include_pad;
        auto nd = Pool(type, {3, 2}, {2, 2}, {1, 0, 0, 1}, {1, 2});
        nd.ceil_mode = ceil_mode;
        nd.count_include_pad = count_include_pad;
        const TensorShape ys{2, 3, ceil_mode ? 4 : 3, 3};  // H: (7+1-3)/2+1, rounded up with ceil_mode
        CheckClose(Run(nd, {x}, ys), Widened(Run(d2, {x}, ys)));
      }
    }
  }
}

TEST_CASE("pool nd and conv nd: unsupported layers say why") {
  std::string reason;
  const auto half = HostTensor::From({1, 1, 2, 2, 2}, std::vector<std::uint16_t>(8), DataType::kFloat16);
  const auto pool = Pool(PoolingType::kMax, {2, 2, 2}, {1, 1, 1}, {0, 0, 0, 0, 0, 0});
  CHECK_FALSE(IsSupported(pool, {half}, {{{1, 1, 1, 1, 1}, DataType::kFloat16}}, reason));
  CHECK(reason.find("f32") != std::string::npos);
  const auto x = HostTensor::F32({1, 1, 2, 2, 2}, std::vector<float>(8));
  CHECK_FALSE(IsSupported(Pool(PoolingType::kMax, {2, 2}, {1, 1}, {0, 0, 0, 0}), {x},
                          {{{1, 1, 1, 1, 1}, DataType::kFloat32}}, reason));
  CHECK(reason.find("need 3 entries each") != std::string::npos);
  const auto w = HostTensor::F32({1, 1, 3, 1, 1}, {1, 1, 1}, true);
  CHECK_FALSE(IsSupported(Conv({1, 1, 1}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}), {x, w},
                          {{{1, 1, 1, 2, 2}, DataType::kFloat32}}, reason));
  CHECK(reason.find("does not fit") != std::string::npos);
}
