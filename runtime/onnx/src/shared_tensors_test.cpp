// SharedTensors: a model's tensors read once for all its imports.
#include "shared_tensors.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

using backplane::onnx::ConstantTensor;
using backplane::onnx::SharedTensors;

ConstantTensor Values(std::int64_t first) { return ConstantTensor::FromInt64(backplane::TensorShape{2}, {first, first + 1}); }

}  // namespace

TEST_CASE("a shared tensor is read once and every later import gets the same bytes") {
  SharedTensors shared;
  ::onnx::TensorProto weights, bias;
  int reads = 0;
  const ConstantTensor first = shared.Get(weights, [&] { ++reads; return Values(1); });
  const ConstantTensor again = shared.Get(weights, [&] { ++reads; return Values(7); });
  CHECK(reads == 1);
  CHECK(again.bytes() == first.bytes());
  CHECK(again.ToInt64() == std::vector<std::int64_t>{1, 2});
  const ConstantTensor other = shared.Get(bias, [&] { ++reads; return Values(5); });
  CHECK(reads == 2);
  CHECK(other.ToInt64() == std::vector<std::int64_t>{5, 6});
}

TEST_CASE("a shared tensor whose read fails is not kept: the next import reads it again") {
  SharedTensors shared;
  ::onnx::TensorProto tensor;
  CHECK_THROWS_AS(shared.Get(tensor, []() -> ConstantTensor { throw std::runtime_error("truncated"); }),
                  std::runtime_error);
  CHECK(shared.Get(tensor, [] { return Values(3); }).ToInt64() == std::vector<std::int64_t>{3, 4});
}

TEST_CASE("imports on several threads at once share one tensor's bytes") {
  SharedTensors shared;
  ::onnx::TensorProto tensor;
  std::vector<ConstantTensor> got(4, Values(0));
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = shared.Get(tensor, [i] { return Values(10 * std::int64_t(i)); }); });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& tensor_got : got) CHECK(tensor_got.bytes() == got[0].bytes());
}
