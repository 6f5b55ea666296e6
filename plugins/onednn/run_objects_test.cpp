// DescPool (one shared copy per distinct desc, forgotten when no one holds it) and RunObjects
// (memory objects shared by a network's workloads: distinct within one Execute, reused after).
#include "desc_pool.hpp"
#include "run_objects.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace backplane::onednn {
namespace {

using dnnl::memory;

memory::desc Plain(const memory::dims& dims) { return memory::desc(dims, memory::data_type::f32, memory::format_tag::nc); }

TEST_CASE("desc pool: equal descs share one copy while held, and a desc no one holds is forgotten") {
  DescPool pool;
  SharedDesc a = pool.Intern(Plain({1, 16}));
  SharedDesc b = pool.Intern(Plain({1, 16}));
  SharedDesc c = pool.Intern(Plain({2, 16}));
  CHECK(a.get() == b.get());
  CHECK(a.get() != c.get());
  CHECK(*c == Plain({2, 16}));
  CHECK(pool.Size() == 2);
  c.reset();
  CHECK(pool.Size() == 1);
  // Many short-lived descs: the entries of the forgotten ones are swept, not kept.
  for (int i = 1; i <= 1000; ++i) pool.Intern(Plain({i, 3}));
  CHECK(pool.Size() == 1);
  CHECK(pool.Intern(Plain({1, 16})).get() == a.get());
}

TEST_CASE("run objects: memory objects of one desc are distinct within an Execute and reused after Begin") {
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  DescPool pool;
  const SharedDesc desc = pool.Intern(Plain({1, 16}));
  std::vector<float> x(16), y(16), z(16);
  RunPool runs;
  dnnl_memory_t first_input = nullptr;
  {
    const RunPool::Lease lease(runs, engine);
    RunObjects& run = *lease;
    const memory input = run.Memory(desc, x.data());
    const memory output = run.Memory(desc, y.data());  // same desc: another object
    CHECK(input.get() != output.get());
    CHECK(input.get_data_handle() == x.data());
    CHECK(output.get_data_handle() == y.data());
    first_input = input.get();
  }
  {
    const RunPool::Lease lease(runs, engine);  // the idle objects again, Begin called
    const memory input = (*lease).Memory(desc, z.data());
    CHECK(input.get() == first_input);  // re-pointed, not made again
    CHECK(input.get_data_handle() == z.data());
    // A concurrent Execute gets objects of its own.
    const RunPool::Lease other(runs, engine);
    CHECK((*other).Memory(desc, x.data()).get() != first_input);
  }
}

}  // namespace
}  // namespace backplane::onednn
