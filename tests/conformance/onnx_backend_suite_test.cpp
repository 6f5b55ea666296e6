// The suite's comparison rule (CompareTensors): what counts as a wrong result.
#include "onnx_backend_suite.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using backplane::DataType;
using backplane::TensorShape;
using backplane::conformance::CompareTensors;
using backplane::onnx::ConstantTensor;

namespace {

ConstantTensor Floats(const TensorShape& shape, const std::vector<double>& values) {
  return ConstantTensor::FromDouble(shape, values, DataType::kFloat32);
}

}  // namespace

TEST_CASE("floats within atol + rtol |expected| match, and beyond it the worst element is named") {
  CHECK(CompareTensors(Floats({2}, {1.0, 100.0}), Floats({2}, {1.0009, 100.09})).empty());
  const std::string why = CompareTensors(Floats({2, 2}, {1, 2, 3, 4}), Floats({2, 2}, {1, 2.01, 3, 3.5}));
  CHECK(why == "2 of 4 elements differ, the largest at [1,1]: expected 4, got 3.5");
  // atol alone decides around zero.
  CHECK(CompareTensors(Floats({1}, {0.0}), Floats({1}, {5e-8})).empty());
  CHECK_FALSE(CompareTensors(Floats({1}, {0.0}), Floats({1}, {1e-6})).empty());
}

TEST_CASE("NaN matches NaN only, and infinities match themselves") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = INFINITY;
  CHECK(CompareTensors(Floats({3}, {nan, inf, -inf}), Floats({3}, {nan, inf, -inf})).empty());
  CHECK(CompareTensors(Floats({1}, {nan}), Floats({1}, {0})) == "1 of 1 elements differ, the largest at [0]: expected nan, got 0");
  CHECK_FALSE(CompareTensors(Floats({1}, {1}), Floats({1}, {nan})).empty());
  CHECK_FALSE(CompareTensors(Floats({1}, {inf}), Floats({1}, {1e30})).empty());
}

TEST_CASE("integers and bool compare exactly, and type and shape must agree") {
  const auto ints = ConstantTensor::FromInt64({3}, {1, 2, 3});
  CHECK(CompareTensors(ints, ConstantTensor::FromInt64({3}, {1, 2, 3})).empty());
  CHECK(CompareTensors(ints, ConstantTensor::FromInt64({3}, {1, 5, 4})) ==
        "2 of 3 elements differ, the first at [1]: expected 2, got 5");
  CHECK(CompareTensors(ints, ConstantTensor::FromInt64({3}, {1, 2, 3}, DataType::kInt32)) == "type i32, expected i64");
  CHECK(CompareTensors(ints, ConstantTensor::FromInt64({1, 3}, {1, 2, 3})) == "shape [1,3], expected [3]");
  const auto mask = ConstantTensor::FromInt64({2}, {1, 0}, DataType::kBool);
  CHECK_FALSE(CompareTensors(mask, ConstantTensor::FromInt64({2}, {1, 1}, DataType::kBool)).empty());
}

TEST_CASE("empty tensors of the same shape match") {
  CHECK(CompareTensors(Floats({0, 3}, {}), Floats({0, 3}, {})).empty());
  CHECK_FALSE(CompareTensors(Floats({0, 3}, {}), Floats({3, 0}, {})).empty());
}
