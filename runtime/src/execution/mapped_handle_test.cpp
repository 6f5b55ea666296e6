#include "execution/mapped_handle.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace backplane::execution {
namespace {

// A host tensor handle that counts Map and Unmap calls and can be told to fail Map.
class CountingHandle final : public backend::ITensorHandle {
 public:
  explicit CountingHandle(std::vector<float> values)
      : values_(std::move(values)),
        info_{TensorShape{static_cast<std::int64_t>(values_.size())}, DataType::kFloat32} {}
  const TensorInfo& GetInfo() const override { return info_; }
  void* Map() override {
    if (fail_map) throw Exception(ErrorCode::kBackendFailure, "map failed");
    ++maps;
    return values_.data();
  }
  void Unmap() override { ++unmaps; }
  bool Import(void*, backend::MemorySource) override { return false; }

  bool fail_map = false;
  int maps = 0;
  int unmaps = 0;
  const std::vector<float>& values() const { return values_; }

 private:
  std::vector<float> values_;
  TensorInfo info_;
};

TEST_CASE("mapped_handle: unmaps once, on destruction, also after a move") {
  CountingHandle handle({1, 2});
  {
    MappedHandle mapped(handle);
    CHECK(static_cast<float*>(mapped.data())[1] == 2);
    CHECK(handle.maps == 1);
    CHECK(handle.unmaps == 0);
    MappedHandle moved(std::move(mapped));
    CHECK(moved.data() == handle.values().data());
  }
  CHECK(handle.maps == 1);
  CHECK(handle.unmaps == 1);
}

TEST_CASE("mapped_handle: a Map that throws leaves nothing to unmap") {
  CountingHandle handle({1});
  handle.fail_map = true;
  CHECK_THROWS_AS(MappedHandle{handle}, Exception);
  CHECK(handle.unmaps == 0);
}

TEST_CASE("mapped_handle: a copy whose second Map throws unmaps the first handle") {
  CountingHandle from({1, 2, 3});
  CountingHandle to({0, 0, 0});
  to.fail_map = true;
  CHECK_THROWS_AS(CopyThroughHost(from, to, 3 * sizeof(float)), Exception);
  CHECK(from.maps == 1);
  CHECK(from.unmaps == 1);
  CHECK(to.unmaps == 0);

  to.fail_map = false;
  CopyThroughHost(from, to, 3 * sizeof(float));
  CHECK(to.values() == std::vector<float>{1, 2, 3});
  CHECK(from.maps == from.unmaps);
  CHECK(to.maps == 1);
  CHECK(to.unmaps == 1);
}

}  // namespace
}  // namespace backplane::execution
