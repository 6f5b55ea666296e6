// GpuOpenCl Resize against CpuRef's: nearest with every nearest_mode, linear and cubic, every
// coordinate transformation (tf_crop_and_resize's extrapolation included), exclude_outside,
// up- and downsampling, one axis and several, and the refusal of an oversized tap product.
#include "opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::ResizeCoordinates;
using backplane::ResizeDescriptor;
using backplane::ResizeMode;
using backplane::ResizeNearest;
using backplane::TensorShape;
using backplane::opencl::testing::CheckMatchesReference;
using backplane::opencl::testing::F32;
using backplane::opencl::testing::RefusalReason;

// x of shape `in` resized by `scales` (sizes floor(in * scale), as the importer gives them).
void CheckResize(ResizeDescriptor d, const TensorShape& in, std::vector<double> scales) {
  d.scales = scales;
  d.sizes.clear();
  for (std::size_t a = 0; a < in.Rank(); ++a) {
    d.sizes.push_back(static_cast<std::int64_t>(std::floor(static_cast<double>(in[a]) * scales[a])));
  }
  if (d.coordinate_transformation == ResizeCoordinates::kTfCropAndResize) {
    d.roi.assign(in.Rank(), 0.0f);
    d.roi.resize(2 * in.Rank(), 1.0f);
    d.roi[in.Rank() - 1] = -0.2f;  // the last axis reaches outside the input: extrapolated
    d.roi[2 * in.Rank() - 1] = 1.3f;
  }
  CAPTURE(static_cast<int>(d.mode));
  CAPTURE(static_cast<int>(d.coordinate_transformation));
  CAPTURE(static_cast<int>(d.nearest_mode));
  CheckMatchesReference(d, {F32(in, 7)}, {{TensorShape(d.sizes), DataType::kFloat32}});
}

const ResizeCoordinates kCoordinates[] = {ResizeCoordinates::kHalfPixel,        ResizeCoordinates::kAsymmetric,
                                          ResizeCoordinates::kPytorchHalfPixel, ResizeCoordinates::kAlignCorners,
                                          ResizeCoordinates::kTfHalfPixelForNn, ResizeCoordinates::kTfCropAndResize};

}  // namespace

TEST_CASE("opencl resize: nearest, every nearest_mode and coordinate transformation") {
  for (const ResizeNearest nearest : {ResizeNearest::kRoundPreferFloor, ResizeNearest::kRoundPreferCeil,
                                      ResizeNearest::kFloor, ResizeNearest::kCeil}) {
    for (const ResizeCoordinates coordinates : kCoordinates) {
      ResizeDescriptor d;
      d.mode = ResizeMode::kNearest;
      d.nearest_mode = nearest;
      d.coordinate_transformation = coordinates;
      d.extrapolation_value = -3.5f;
      CheckResize(d, {2, 3, 5, 7}, {1, 1, 2, 3});
      CheckResize(d, {2, 3, 9, 8}, {1, 1, 0.5, 0.7});
    }
  }
}

TEST_CASE("opencl resize: linear and cubic, every coordinate transformation, exclude_outside") {
  for (const ResizeMode mode : {ResizeMode::kLinear, ResizeMode::kCubic}) {
    for (const ResizeCoordinates coordinates : kCoordinates) {
      if (coordinates == ResizeCoordinates::kTfHalfPixelForNn) continue;  // nearest's alone
      for (const bool exclude : {false, true}) {
        ResizeDescriptor d;
        d.mode = mode;
        d.coordinate_transformation = coordinates;
        d.exclude_outside = exclude;
        d.cubic_coeff_a = -0.5f;
        CheckResize(d, {1, 2, 6, 5}, {1, 1, 1.7, 2});
        CheckResize(d, {2, 2, 8, 9}, {1, 1, 0.6, 0.45});
      }
    }
  }
}

TEST_CASE("opencl resize: one axis, three axes, rank 1 and a channel axis") {
  ResizeDescriptor d;
  d.mode = ResizeMode::kLinear;
  d.coordinate_transformation = ResizeCoordinates::kAsymmetric;
  CheckResize(d, {2, 3, 4, 6}, {1, 1, 1, 2.5});
  CheckResize(d, {1, 2, 3, 4, 5}, {1, 1, 2, 1.5, 2});
  CheckResize(d, {10}, {0.8});
  CheckResize(d, {2, 4, 3, 3}, {1, 2, 1, 1});
}

TEST_CASE("opencl resize: refuses more tap combinations than its kernel sums") {
  ResizeDescriptor d;
  d.mode = ResizeMode::kCubic;
  const TensorShape in{2, 2, 2, 2, 2, 2, 2};
  d.scales.assign(7, 2.0);
  d.sizes.assign(7, 4);
  const std::string reason = RefusalReason(d, {F32(in, 1)}, {{TensorShape(d.sizes), DataType::kFloat32}});
  CHECK(reason.find("16384 taps") != std::string::npos);
}
