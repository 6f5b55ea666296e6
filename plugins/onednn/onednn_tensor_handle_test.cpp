// OneDnnTensorHandle::WriteInto: where a concat's input is written (its slice of the concat's
// content, or its own buffer when the concat does not hold that content in its own memory).
#include "onednn_tensor_handle.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace backplane::onednn {
namespace {

using dnnl::memory;

TensorInfo F32(TensorShape shape) { return {std::move(shape), DataType::kFloat32}; }
memory::desc Blocked(const memory::dims& dims) {
  return memory::desc(dims, memory::data_type::f32, memory::format_tag::nChw16c);
}

TEST_CASE("tensor handle: a concat's input is written into its slice once bound, else into its own buffer") {
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  OneDnnTensorHandle concat(F32({1, 48, 3, 3}), engine), a(F32({1, 16, 3, 3}), engine), b(F32({1, 32, 3, 3}), engine);
  const auto concat_desc = Blocked({1, 48, 3, 3}), a_desc = Blocked({1, 16, 3, 3}), b_desc = Blocked({1, 32, 3, 3});
  const std::size_t b_offset = a_desc.get_size();

  // First run: nothing bound; the producers write their own buffers, the concat binds them.
  auto* a_own = static_cast<std::uint8_t*>(a.PrepareWrite(a_desc));
  auto* base = static_cast<std::uint8_t*>(concat.PrepareWrite(concat_desc));
  CHECK(a.WriteInto(concat, concat_desc, 0, a_desc));
  CHECK(b.WriteInto(concat, concat_desc, b_offset, b_desc));
  CHECK(a.WriteInto(concat, concat_desc, 0, a_desc));  // again, by the same concat: still holds
  OneDnnTensorHandle other(F32({1, 48, 3, 3}), engine);
  CHECK_FALSE(a.WriteInto(other, concat_desc, 0, a_desc));  // a second concat copies instead
  CHECK_FALSE(a.WriteInto(concat, concat_desc, b_offset, a_desc));

  // Later runs: into the slices, in the bound layout only.
  CHECK(a.PrepareWrite(a_desc) == base);
  CHECK(b.PrepareWrite(b_desc) == base + b_offset);
  CHECK_FALSE(a.IsPlain());
  CHECK(a.PrepareWrite(PlainDesc({1, 16, 3, 3})) != base);

  // A concat whose content was made plain (Map) holds no blocked slices: own buffers again.
  concat.Map();
  CHECK(a.PrepareWrite(a_desc) == a_own);
  CHECK(concat.PrepareWrite(concat_desc) == base);
  CHECK(a.PrepareWrite(a_desc) == base);

  // Imported memory is the user's: never bound, never redirected.
  std::vector<float> user(16 * 9);
  OneDnnTensorHandle imported(F32({1, 16, 3, 3}), engine);
  REQUIRE(imported.Import(user.data(), backend::MemorySource::kHost));
  CHECK_FALSE(imported.WriteInto(concat, concat_desc, 0, a_desc));
  CHECK(imported.PrepareWrite(PlainDesc({1, 16, 3, 3})) == user.data());
}

}  // namespace
}  // namespace backplane::onednn
