// GpuOpenCl Activation, ElementwiseUnary and ElementwiseBinary against CpuRef's: every function
// and operation, equal shapes and numpy broadcasts (up to rank 9 collapsing to 6), and the
// reasons unsupported layers get.
#include "opencl_op_test_harness.hpp"

#include <backplane/backend/op_attributes.hpp>
#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

namespace {

using backplane::ActivationDescriptor;
using backplane::ActivationFunction;
using backplane::BinaryOperation;
using backplane::DataType;
using backplane::ElementwiseBinaryDescriptor;
using backplane::ElementwiseUnaryDescriptor;
using backplane::TensorShape;
using backplane::UnaryOperation;
using backplane::opencl::testing::CheckMatchesReference;
using backplane::opencl::testing::F32;
using backplane::opencl::testing::HostTensor;
using backplane::opencl::testing::RefusalReason;

// Values spread over [-scale, scale), for functions whose interesting range is wider than [-1, 1).
HostTensor Spread(const TensorShape& shape, unsigned seed, float scale, float offset = 0.0f) {
  auto values = backplane::opencl::testing::Random(shape.NumElements(), seed);
  for (auto& v : values) v = v * scale + offset;
  return HostTensor::F32(shape, values);
}

}  // namespace


TEST_CASE("opencl activation: every function") {
  const TensorShape shape{2, 3, 7, 5};
  for (std::uint32_t f = 0; f < backplane::backend::BpEnum<ActivationFunction>::kCount; ++f) {
    CAPTURE(f);
    ActivationDescriptor d;
    d.function = static_cast<ActivationFunction>(f);
    d.alpha = d.function == ActivationFunction::kClip ? -1.5f : 0.2f;
    d.beta = d.function == ActivationFunction::kClip ? 2.5f : 0.5f;
    CheckMatchesReference(d, {Spread(shape, 1, 6.0f)}, {{shape, DataType::kFloat32}});
  }
}

TEST_CASE("opencl elementwise unary: every operation") {
  const TensorShape shape{3, 50};
  for (std::uint32_t op = 0; op < backplane::backend::BpEnum<UnaryOperation>::kCount; ++op) {
    CAPTURE(op);
    ElementwiseUnaryDescriptor d;
    d.operation = static_cast<UnaryOperation>(op);
    const auto o = d.operation;
    if (o == UnaryOperation::kNot) continue;  // bool in and out: GpuOpenCl runs f32 only
    const bool at_least_one = o == UnaryOperation::kSqrt || o == UnaryOperation::kLog ||
                              o == UnaryOperation::kReciprocal || o == UnaryOperation::kAcosh;  // [1, 3)
    const bool inside_one = o == UnaryOperation::kAsin || o == UnaryOperation::kAcos || o == UnaryOperation::kAtanh;
    CheckMatchesReference(d, {at_least_one ? Spread(shape, 2, 1.0f, 2.0f) : Spread(shape, 2, inside_one ? 0.9f : 3.0f)},
                          {{shape, DataType::kFloat32}});
  }
}

TEST_CASE("opencl elementwise binary: comparisons and logic ops are refused with a reason") {
  for (const auto operation : {BinaryOperation::kEqual, BinaryOperation::kGreater}) {
    ElementwiseBinaryDescriptor d;
    d.operation = operation;
    std::string reason;
    CHECK_FALSE(backplane::opencl::testing::Supported(d, {F32({2, 3}, 1), F32({2, 3}, 2)},
                                                      {{{2, 3}, DataType::kBool}}, reason));
    CHECK(reason.find("GpuOpenCl runs Add, Sub, Mul, Div, Max, Min and Pow") != std::string::npos);
  }
}

TEST_CASE("opencl elementwise binary: every operation, equal and broadcast shapes") {
  struct Shapes {
    TensorShape a, b, out;
  };
  const Shapes shapes[] = {
      {{2, 3, 4, 5}, {2, 3, 4, 5}, {2, 3, 4, 5}},  // equal
      {{2, 3, 4, 5}, {1, 3, 1, 1}, {2, 3, 4, 5}},  // per-channel
      {{3, 1, 5}, {4, 1}, {3, 4, 5}},              // both broadcast
      {{1}, {6, 7}, {6, 7}},                       // scalar-like
      {{1, 1, 2, 3, 1, 4, 5, 1, 3}, {3, 1, 1, 5, 2, 1}, {1, 1, 2, 3, 1, 4, 5, 2, 3}},  // rank 9, collapses to 6
  };
  for (std::uint32_t op = 0; op <= static_cast<std::uint32_t>(BinaryOperation::kPow); ++op) {
    ElementwiseBinaryDescriptor d;
    d.operation = static_cast<BinaryOperation>(op);
    for (const Shapes& s : shapes) {
      CAPTURE(op);
      CAPTURE(std::string(backplane::ToString(s.out)));
      const bool pow = d.operation == BinaryOperation::kPow;
      const bool div = d.operation == BinaryOperation::kDiv;
      CheckMatchesReference(d, {pow ? Spread(s.a, 3, 1.0f, 2.0f) : F32(s.a, 3),
                                div ? Spread(s.b, 4, 1.0f, 2.0f) : F32(s.b, 4, true)},
                            {{s.out, DataType::kFloat32}});
    }
  }
  ElementwiseBinaryDescriptor add;
  const auto reason = RefusalReason(add, {F32({2, 3}, 1), F32({4}, 2)}, {{{2, 3}, DataType::kFloat32}});
  CHECK(reason.find("do not broadcast") != std::string::npos);
  const auto rank = RefusalReason(add, {F32({2, 1, 2, 1, 2, 1, 2, 1, 2}, 1), F32({2, 1, 2, 1, 2, 1, 2, 1}, 2)},
                                  {{{2, 2, 2, 2, 2, 2, 2, 2, 2}, DataType::kFloat32}});
  CHECK(rank.find("needs 9 dimensions") != std::string::npos);
}
