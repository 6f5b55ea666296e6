// Where against hand-worked selections: every element type size, broadcasting of all three
// inputs, and the op schema's refusals.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::TensorShape;
using backplane::WhereDescriptor;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

HostTensor Bools(const TensorShape& shape, const std::vector<std::uint8_t>& values) {
  return HostTensor::From(shape, values, DataType::kBool);
}

}  // namespace

TEST_CASE("where: selects x where cond is true, else y, for f32, i64 and bool elements") {
  const auto cond = Bools({4}, {1, 0, 0, 1});
  CHECK(RunOp(WhereDescriptor{}, {cond, HostTensor::F32({4}, {1, 2, 3, 4}), HostTensor::F32({4}, {-1, -2, -3, -4})},
              {{{4}, DataType::kFloat32}})[0]
            .As<float>() == std::vector<float>{1, -2, -3, 4});
  CHECK(RunOp(WhereDescriptor{}, {cond, HostTensor::I64({4}, {1LL << 40, 2, 3, 4}), HostTensor::I64({4}, {0, 0, 0, 0})},
              {{{4}, DataType::kInt64}})[0]
            .As<std::int64_t>() == std::vector<std::int64_t>{1LL << 40, 0, 0, 4});
  CHECK(RunOp(WhereDescriptor{}, {cond, Bools({4}, {0, 0, 0, 0}), Bools({4}, {1, 1, 1, 1})}, {{{4}, DataType::kBool}})[0]
            .As<std::uint8_t>() == std::vector<std::uint8_t>{0, 1, 1, 0});
}

TEST_CASE("where: a causal mask broadcasts against scores and a scalar fill") {
  // cond [3,3] lower triangle, x [2,3,3] scores, y a scalar: what GPT-style decoders export.
  const auto cond = Bools({3, 3}, {1, 0, 0, 1, 1, 0, 1, 1, 1});
  std::vector<float> scores(18);
  for (std::size_t i = 0; i < scores.size(); ++i) scores[i] = static_cast<float>(i);
  const float fill = -1e9f;
  const auto y = RunOp(WhereDescriptor{}, {cond, HostTensor::F32({2, 3, 3}, scores), HostTensor::F32({}, {fill})},
                       {{{2, 3, 3}, DataType::kFloat32}})[0]
                     .As<float>();
  const std::vector<float> expected{0,  fill, fill, 3,  4,  fill, 6,  7,  8,
                                    9,  fill, fill, 12, 13, fill, 15, 16, 17};
  CHECK(y == expected);
}

TEST_CASE("where: the op schema refuses a non-bool cond, x and y of different types, and shapes that do not broadcast") {
  std::string reason;
  CHECK_FALSE(IsSupported(WhereDescriptor{}, {HostTensor::F32({2}, {1, 0}), HostTensor::F32({2}, {1, 2}), HostTensor::F32({2}, {3, 4})},
                          {{{2}, DataType::kFloat32}}, reason));
  CHECK(reason == "cond (input 0) is f32, not bool");
  CHECK_FALSE(IsSupported(WhereDescriptor{}, {Bools({2}, {1, 0}), HostTensor::F32({2}, {1, 2}), HostTensor::I64({2}, {3, 4})},
                          {{{2}, DataType::kFloat32}}, reason));
  CHECK(reason == "x and y have different types: f32 and i64");
  CHECK_FALSE(IsSupported(WhereDescriptor{}, {Bools({2}, {1, 0}), HostTensor::F32({3}, {1, 2, 3}), HostTensor::F32({2}, {3, 4})},
                          {{{3}, DataType::kFloat32}}, reason));
  CHECK(reason.find("do not broadcast") != std::string::npos);
}
