// GridSample against ONNX's reference implementation (onnx/reference/ops/op_grid_sample.py):
// every mode, padding mode and align_corners on one 3x4 image, values computed by a port of that
// reference in numpy (PyTorch's grid_sample agrees within 4e-6, except bicubic with border
// padding, where the reference clamps the point before taking the 4x4 neighbourhood and PyTorch
// does not). The generator:
//   x = (np.arange(12).reshape(3, 4) * 0.5 + [[0,1,0,2],[1,0,3,0],[0,2,0,1]]); channel 1 = -2 x
//   grid = [[-1,-1],[0.3,-0.2],[1.2,0.7]], [[-1.7,0.45],[0.55,1.9],[-0.25,-1.35]]  (1x2x3x2)
//   for each mode, padding, align_corners: grid_sample(x, grid, ...)[0, 0].flatten()
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::GridSampleDescriptor;
using backplane::GridSampleMode;
using backplane::GridSamplePadding;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

GridSampleDescriptor Sampling(GridSampleMode mode, GridSamplePadding padding, bool align_corners) {
  GridSampleDescriptor d;
  d.mode = mode;
  d.padding_mode = padding;
  d.align_corners = align_corners;
  return d;
}

std::vector<float> Image() {
  const std::vector<float> offsets{0, 1, 0, 2, 1, 0, 3, 0, 0, 2, 0, 1};
  std::vector<float> x;
  for (int i = 0; i < 12; ++i) x.push_back(0.5f * static_cast<float>(i) + offsets[i]);
  for (int i = 0; i < 12; ++i) x.push_back(-2 * x[i]);
  return x;
}

const std::vector<float> kGrid{-1, -1, 0.3f, -0.2f, 1.2f, 0.7f, -1.7f, 0.45f, 0.55f, 1.9f, -0.25f, -1.35f};

struct Expected {
  GridSampleMode mode;
  GridSamplePadding padding;
  bool align_corners;
  std::vector<float> channel0;
};

}  // namespace

TEST_CASE("grid_sample: every mode, padding mode and align_corners against ONNX's reference") {
  const std::vector<Expected> cases{
      {GridSampleMode::kBilinear, GridSamplePadding::kZeros, false, {0, 4.4, 0.617499, 0, 0, 0}},
      {GridSampleMode::kBilinear, GridSamplePadding::kZeros, true, {0, 4.865, 3.92, 0, 0.54875, 0.934375}},
      {GridSampleMode::kBilinear, GridSamplePadding::kBorder, false, {0, 4.4, 6.5, 3.675, 5.9, 1.5}},
      {GridSampleMode::kBilinear, GridSamplePadding::kBorder, true, {0, 4.865, 5.6, 3.45, 5.4875, 1.4375}},
      {GridSampleMode::kBilinear, GridSamplePadding::kReflection, false, {0, 4.4, 6.5, 5.0475, 4.71, 1.525}},
      {GridSampleMode::kBilinear, GridSamplePadding::kReflection, true, {0, 4.865, 5.51, 4.3625, 5.2175, 1.9625}},
      {GridSampleMode::kNearest, GridSamplePadding::kZeros, false, {0, 6, 0, 0, 0, 0}},
      {GridSampleMode::kNearest, GridSamplePadding::kZeros, true, {0, 6, 6.5, 0, 0, 1.5}},
      {GridSampleMode::kNearest, GridSamplePadding::kBorder, false, {0, 6, 6.5, 4, 6.5, 1.5}},
      {GridSampleMode::kNearest, GridSamplePadding::kBorder, true, {0, 6, 6.5, 3, 5, 1.5}},
      {GridSampleMode::kNearest, GridSamplePadding::kReflection, false, {0, 6, 6.5, 6.5, 3.5, 1.5}},
      {GridSampleMode::kNearest, GridSamplePadding::kReflection, true, {0, 6, 6.5, 2.5, 6, 1.5}},
      {GridSampleMode::kBicubic, GridSamplePadding::kZeros, false,
       {-0.228516, 4.8448, 0.531012, -0.0290172, -0.0934066, -0.0267364}},
      {GridSampleMode::kBicubic, GridSamplePadding::kZeros, true, {0, 5.17676, 4.63423, -0.138225, 0.461296, 0.873436}},
      {GridSampleMode::kBicubic, GridSamplePadding::kBorder, false, {-0.439453, 4.76679, 6.60153, 3.85461, 5.81, 1.5}},
      {GridSampleMode::kBicubic, GridSamplePadding::kBorder, true, {0, 5.15426, 5.663, 3.75009, 5.29212, 1.52979}},
      {GridSampleMode::kBicubic, GridSamplePadding::kReflection, false,
       {-0.914062, 4.76679, 6.71774, 5.19449, 5.04202, 1.51738}},
      {GridSampleMode::kBicubic, GridSamplePadding::kReflection, true, {0, 5.03406, 5.87232, 4.79278, 5.70163, 1.60604}},
  };
  const HostTensor x = HostTensor::F32({1, 2, 3, 4}, Image());
  const HostTensor grid = HostTensor::F32({1, 2, 3, 2}, kGrid);
  for (const Expected& e : cases) {
    CAPTURE(static_cast<int>(e.mode));
    CAPTURE(static_cast<int>(e.padding));
    CAPTURE(e.align_corners);
    const auto y = RunOp(Sampling(e.mode, e.padding, e.align_corners), {x, grid}, {{{1, 2, 2, 3}, DataType::kFloat32}})[0]
                       .As<float>();
    REQUIRE(y.size() == 12);
    for (std::size_t i = 0; i < 6; ++i) {
      CHECK(y[i] == doctest::Approx(e.channel0[i]).epsilon(2e-5));
      CHECK(y[6 + i] == doctest::Approx(-2 * e.channel0[i]).epsilon(2e-5));  // one set of weights, every channel
    }
  }
}

TEST_CASE("grid_sample: f64, nearest rounds halves to even, and a NaN point gives NaN") {
  // align_corners=0 on W = 4: x = ((g + 1) * 4 - 1) / 2, so g = 0, 0.5, -0.5 land on 1.5, 2.5, 0.5.
  const auto x = HostTensor::From<double>({1, 1, 1, 4}, {10, 11, 12, 13}, DataType::kFloat64);
  const auto grid = HostTensor::From<double>({1, 1, 4, 2}, {0, 0, 0.5, 0, -0.5, 0, std::nan(""), 0}, DataType::kFloat64);
  const auto y = RunOp(Sampling(GridSampleMode::kNearest, GridSamplePadding::kZeros, false), {x, grid},
                       {{{1, 1, 1, 4}, DataType::kFloat64}})[0]
                     .As<double>();
  REQUIRE(y.size() == 4);
  CHECK(y[0] == 12);
  CHECK(y[1] == 12);
  CHECK(y[2] == 10);
  CHECK(std::isnan(y[3]));
  // Bilinear in double: halfway between 11 and 12 at x = 1.5.
  const auto linear = RunOp(Sampling(GridSampleMode::kBilinear, GridSamplePadding::kBorder, false), {x, grid},
                            {{{1, 1, 1, 4}, DataType::kFloat64}})[0]
                          .As<double>();
  CHECK(linear[0] == 11.5);
  CHECK(linear[1] == 12.5);
  CHECK(linear[2] == 10.5);
}

TEST_CASE("grid_sample: far-away and infinite points read the padding, not memory outside x") {
  const auto x = HostTensor::F32({1, 1, 2, 2}, {1, 2, 3, 4});
  const float inf = std::numeric_limits<float>::infinity();
  const auto grid = HostTensor::F32({1, 1, 3, 2}, {1e30f, -1e30f, inf, -1, -inf, inf});
  for (const auto mode : {GridSampleMode::kBilinear, GridSampleMode::kNearest, GridSampleMode::kBicubic}) {
    CAPTURE(static_cast<int>(mode));
    const auto zeros = RunOp(Sampling(mode, GridSamplePadding::kZeros, true), {x, grid}, {{{1, 1, 1, 3}, DataType::kFloat32}})[0]
                           .As<float>();
    CHECK(zeros == std::vector<float>{0, 0, 0});
    const auto border = RunOp(Sampling(mode, GridSamplePadding::kBorder, true), {x, grid}, {{{1, 1, 1, 3}, DataType::kFloat32}})[0]
                            .As<float>();
    CHECK(border == std::vector<float>{2, 2, 3});  // (x, y) clamped to (1, 0), (1, 0) and (0, 1)
  }
}

TEST_CASE("grid_sample: CpuRef samples f32 and f64, and the op schema checks the shapes") {
  std::string reason;
  const auto d = Sampling(GridSampleMode::kBilinear, GridSamplePadding::kZeros, false);
  const auto x16 = HostTensor::From<std::uint16_t>({1, 1, 1, 1}, {0}, DataType::kFloat16);
  const auto g16 = HostTensor::From<std::uint16_t>({1, 1, 1, 2}, {0, 0}, DataType::kFloat16);
  CHECK_FALSE(IsSupported(d, {x16, g16}, {{{1, 1, 1, 1}, DataType::kFloat16}}, reason));
  CHECK(reason == "CpuRef samples f32 and f64 tensors, not f16");
  CHECK_FALSE(IsSupported(d, {HostTensor::F32({1, 1, 2, 2}, {1, 2, 3, 4}), HostTensor::F32({1, 1, 1, 3}, {0, 0, 0})},
                          {{{1, 1, 1, 1}, DataType::kFloat32}}, reason));
  CHECK(reason == "grid [1,1,1,3] must be [1, Ho, Wo, 2] for input [1,1,2,2]");
}
