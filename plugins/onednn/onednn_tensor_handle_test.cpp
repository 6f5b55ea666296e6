// OneDnnTensorHandle::WriteInto: where a concat's input is written (its slice of the concat's
// content, or its own buffer when the concat does not hold that content in its own memory);
// BlockPool and the run-time lifetime of content (Produced, ReadDone): when a block goes back.
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

TEST_CASE("block pool: size classes an eighth of a power of two apart, a block given back is taken again") {
  CHECK(BlockPool::SizeClass(1) == 64);
  CHECK(BlockPool::SizeClass(64) == 64);
  CHECK(BlockPool::SizeClass(1000) == 1024);
  CHECK(BlockPool::SizeClass(1025) == 1152);
  CHECK(BlockPool::SizeClass(4800000) == 5242880);
  for (std::size_t size : {std::size_t{100}, std::size_t{4097}, std::size_t{1} << 20}) {
    CHECK(BlockPool::SizeClass(size) >= size);
    CHECK(BlockPool::SizeClass(size) <= size + size / 8 + 64);
  }

  const auto pool = std::make_shared<BlockPool>();
  auto first = pool->Take(1000);
  std::uint8_t* const address = first.data.get();
  CHECK(first.capacity == 1024);
  CHECK(reinterpret_cast<std::uintptr_t>(address) % 64 == 0);
  auto other_class = pool->Take(5000);
  CHECK(pool->FreeBlocks() == 0);
  first.data.reset();
  CHECK(pool->FreeBlocks() == 1);
  CHECK(pool->Take(1010).data.get() == address);  // same class: the block given back
  auto again = pool->Take(1000);
  CHECK(again.data.get() == address);
  CHECK(pool->Take(1000).data.get() != address);  // in use: a new block
}

TEST_CASE("block pool: large tensors of any size take the large block given back last") {
  constexpr std::size_t kLarge = BlockPool::kLargeTensorBytes;
  const auto pool = std::make_shared<BlockPool>();
  pool->Expect(3 * kLarge);
  pool->Expect(1000);  // small tensors leave the large blocks' capacity as it is
  auto a = pool->Take(kLarge);
  auto b = pool->Take(2 * kLarge);
  CHECK(a.capacity == BlockPool::SizeClass(3 * kLarge));  // each can hold the largest expected
  CHECK(b.capacity == a.capacity);
  std::uint8_t* const a_address = a.data.get();
  std::uint8_t* const b_address = b.data.get();
  b.data.reset();
  a.data.reset();
  CHECK(pool->FreeBlocks() == 2);
  auto larger = pool->Take(3 * kLarge);
  CHECK(larger.data.get() == a_address);  // given back last, whatever size it held before
  auto smaller = pool->Take(kLarge + 1);
  CHECK(smaller.data.get() == b_address);
  CHECK(pool->FreeBlocks() == 0);

  // A tensor larger than expected (a blocked layout's padding) gets a block of its own class,
  // which later large tensors share as well.
  auto padded = pool->Take(4 * kLarge);
  CHECK(padded.capacity == BlockPool::SizeClass(4 * kLarge));
  std::uint8_t* const padded_address = padded.data.get();
  padded.data.reset();
  larger.data.reset();  // given back last, but too small
  CHECK(pool->Take(4 * kLarge).data.get() == padded_address);
  auto small = pool->Take(1000);
  CHECK(small.capacity == 1024);  // small tensors keep their size classes
  CHECK(small.data.get() != a_address);

  // Just below the threshold, a size whose class reaches it is large: its block, given back,
  // is taken again (not a new block every run).
  const auto edge_pool = std::make_shared<BlockPool>();
  const std::size_t edge = kLarge - 1000;
  REQUIRE(BlockPool::SizeClass(edge) >= kLarge);
  auto first = edge_pool->Take(edge);
  std::uint8_t* const edge_address = first.data.get();
  first.data.reset();
  CHECK(edge_pool->Take(edge).data.get() == edge_address);
  CHECK(edge_pool->FreeBlocks() == 1);
}

TEST_CASE("tensor handle: content goes back to the pool after its last counted reader, not before") {
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  const auto pool = std::make_shared<BlockPool>();
  const auto desc = Blocked({1, 32, 4, 4});
  OneDnnTensorHandle produced(F32({1, 32, 4, 4}), engine, pool), next(F32({1, 32, 4, 4}), engine, pool);

  auto* block = static_cast<float*>(produced.PrepareWrite(desc));
  block[5] = 7.0f;
  produced.Produced(2);
  produced.ReadDone();
  CHECK(produced.Data() == block);  // one reader left
  CHECK(pool->FreeBlocks() == 0);
  CHECK(block[5] == 7.0f);
  produced.ReadDone();
  CHECK(produced.Data() == nullptr);
  CHECK(pool->FreeBlocks() == 1);
  CHECK(next.PrepareWrite(desc) == block);  // the next tensor written takes it, still in cache
  produced.ReadDone();                      // a read too many changes nothing
  CHECK(produced.PrepareWrite(desc) != block);

  // Not counted (readers 0: unknown, or read on another backend): kept.
  OneDnnTensorHandle kept(F32({1, 32, 4, 4}), engine, pool);
  void* kept_block = kept.PrepareWrite(desc);
  kept.Produced(0);
  kept.ReadDone();
  CHECK(kept.Data() == kept_block);

  // Imported memory is never given away.
  std::vector<float> user(32 * 16);
  OneDnnTensorHandle imported(F32({1, 32, 4, 4}), engine, pool);
  REQUIRE(imported.Import(user.data(), backend::MemorySource::kHost));
  CHECK(imported.PrepareWrite(PlainDesc({1, 32, 4, 4})) == user.data());
  imported.Produced(1);
  imported.ReadDone();
  CHECK(imported.Data() == user.data());
}

TEST_CASE("tensor handle: a reshape's output keeps the block it shares, a concat keeps its block") {
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  const auto pool = std::make_shared<BlockPool>();
  OneDnnTensorHandle source(F32({2, 8}), engine, pool), reshaped(F32({16}), engine, pool);
  auto* data = static_cast<float*>(source.PrepareWrite(PlainDesc({2, 8})));
  data[3] = 3.0f;
  source.Produced(1);
  REQUIRE(reshaped.Alias(source));
  reshaped.Produced(1);
  source.ReadDone();  // the reshape has read it: the shared block stays with the output
  CHECK(pool->FreeBlocks() == 0);
  OneDnnTensorHandle later(F32({2, 8}), engine, pool);
  CHECK(later.PrepareWrite(PlainDesc({2, 8})) != data);
  CHECK(static_cast<float*>(reshaped.Data())[3] == 3.0f);
  reshaped.ReadDone();
  CHECK(pool->FreeBlocks() == 1);

  // Handles that shared a block last run (both kept) never write into the same memory when
  // written on their own.
  OneDnnTensorHandle kept_source(F32({2, 8}), engine, pool), kept_alias(F32({16}), engine, pool);
  kept_source.PrepareWrite(PlainDesc({2, 8}));
  REQUIRE(kept_alias.Alias(kept_source));
  void* source_now = kept_source.PrepareWrite(PlainDesc({2, 8}));
  CHECK(kept_alias.PrepareWrite(PlainDesc({16})) != source_now);

  // A concat's inputs write into its block before it runs: read or not, it keeps it.
  OneDnnTensorHandle concat(F32({1, 32, 2, 2}), engine, pool), part(F32({1, 16, 2, 2}), engine, pool);
  const auto concat_desc = Blocked({1, 32, 2, 2});
  void* concat_block = concat.PrepareWrite(concat_desc);
  REQUIRE(part.WriteInto(concat, concat_desc, 0, Blocked({1, 16, 2, 2})));
  concat.Produced(1);
  concat.ReadDone();
  CHECK(concat.Data() == concat_block);
  CHECK(part.PrepareWrite(Blocked({1, 16, 2, 2})) == concat_block);
}

}  // namespace
}  // namespace backplane::onednn
