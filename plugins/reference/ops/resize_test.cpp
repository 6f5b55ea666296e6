// Resize against hand-worked values (ONNX's operator examples and 1-D cases worked out from the
// formulas): nearest, linear and cubic, the coordinate transformations, tf_crop_and_resize's
// extrapolation, and CpuRef's type limit.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::ResizeCoordinates;
using backplane::ResizeDescriptor;
using backplane::ResizeMode;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

ResizeDescriptor Resize(ResizeMode mode, ResizeCoordinates coordinates, std::vector<std::int64_t> sizes,
                        std::vector<double> scales) {
  ResizeDescriptor d;
  d.mode = mode;
  d.coordinate_transformation = coordinates;
  d.sizes = std::move(sizes);
  d.scales = std::move(scales);
  return d;
}

std::vector<float> Run(const ResizeDescriptor& d, const HostTensor& x) {
  return RunOp(d, {x}, {{TensorShape(d.sizes), DataType::kFloat32}})[0].As<float>();
}

void CheckNear(const std::vector<float>& actual, const std::vector<float>& expected) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(1e-5));
}

const HostTensor kTwoByTwo = HostTensor::F32({1, 1, 2, 2}, {1, 2, 3, 4});

}  // namespace

TEST_CASE("resize: nearest upsampling and downsampling (ONNX's examples)") {
  CHECK(Run(Resize(ResizeMode::kNearest, ResizeCoordinates::kHalfPixel, {1, 1, 4, 6}, {1, 1, 2, 3}), kTwoByTwo) ==
        std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4});
  const auto wide = HostTensor::F32({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(Run(Resize(ResizeMode::kNearest, ResizeCoordinates::kHalfPixel, {1, 1, 1, 2}, {1, 1, 0.6, 0.6}), wide) ==
        std::vector<float>{1, 3});
}

TEST_CASE("resize: linear with half_pixel and align_corners (ONNX's examples)") {
  CheckNear(Run(Resize(ResizeMode::kLinear, ResizeCoordinates::kHalfPixel, {1, 1, 4, 4}, {1, 1, 2, 2}), kTwoByTwo),
            {1, 1.25, 1.75, 2, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3, 3.25, 3.75, 4});
  const float third = 1.0f / 3;
  CheckNear(Run(Resize(ResizeMode::kLinear, ResizeCoordinates::kAlignCorners, {1, 1, 4, 4}, {1, 1, 2, 2}), kTwoByTwo),
            {1, 1 + third, 2 - third, 2, 2 - third, 2, 2 + third, 3 - third, 2 + third, 3 - third, 3, 3 + third, 3,
             3 + third, 4 - third, 4});
}

TEST_CASE("resize: cubic reproduces a ramp inside, and exclude_outside renormalizes at the edge") {
  const auto ramp = HostTensor::F32({6}, {0, 1, 2, 3, 4, 5});
  auto cubic = Resize(ResizeMode::kCubic, ResizeCoordinates::kAsymmetric, {12}, {2});
  const auto y = Run(cubic, ramp);
  for (int x = 2; x <= 7; ++x) CHECK(y[static_cast<std::size_t>(x)] == doctest::Approx(x / 2.0));
  // Output 1 reads coordinate 0.5: taps -1, 0, 1, 2 with A = -0.75 weigh -0.09375, 0.59375,
  // 0.59375, -0.09375; the edge clamps -1 to 0, so 0.5 * 0 ... = 0.59375 * 1 - 0.09375 * 2.
  CHECK(y[1] == doctest::Approx(0.59375 - 0.1875));
  cubic.exclude_outside = true;  // -1 dropped: 0.59375 + 0.59375 * 1 - 0.09375 * 2 over 1.09375
  CHECK(Run(cubic, ramp)[1] == doctest::Approx((0.59375 - 0.1875) / 1.09375));
}

TEST_CASE("resize: tf_crop_and_resize extrapolates outside the roi's input range") {
  auto crop = Resize(ResizeMode::kLinear, ResizeCoordinates::kTfCropAndResize, {3}, {1});
  crop.roi = {-0.5f, 1.0f};  // x maps to 1.5 x - 1: -1 (outside), 0.5, 2
  crop.extrapolation_value = 7;
  CHECK(Run(crop, HostTensor::F32({3}, {10, 20, 30})) == std::vector<float>{7, 15, 30});
}

TEST_CASE("resize: CpuRef takes f32 only") {
  std::string reason;
  CHECK_FALSE(IsSupported(Resize(ResizeMode::kNearest, ResizeCoordinates::kAsymmetric, {4}, {2}),
                          {HostTensor::I64({2}, {1, 2})}, {{TensorShape{4}, DataType::kInt64}}, reason));
  CHECK(reason == "CpuRef resizes f32 tensors, not i64");
}
