// RunObjects: what one Execute of a CpuOneDnn workload uses besides the tensors and scratch (a
// oneDNN stream, memory objects, the argument lists), and RunPool, which keeps them between runs
// for every workload of one loaded network.
#pragma once

#include "desc_pool.hpp"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace backplane::onednn {

// Used by one Execute at a time (RunPool::Lease). Memory objects are kept between runs (making
// one costs more than a small layer's computation) and re-pointed at each run's data; one set
// serves every workload of a network, so it holds as many per desc as one Execute uses at once,
// not one per layer. Grows by the distinct descs its Executes used (a network's layouts).
class RunObjects {
 public:
  explicit RunObjects(const dnnl::engine& engine) : stream(engine), engine_(engine) {}

  // A memory object of layout `desc` (interned: compared by address) pointing at `data`, none
  // handed out twice between two Begin calls. Throws dnnl::error or std::bad_alloc.
  dnnl::memory Memory(const SharedDesc& desc, void* data);
  // Starts an Execute: every memory object may be handed out again.
  void Begin();

  dnnl::stream stream;
  std::vector<std::pair<int, dnnl::memory>> bound;  // this run's primitive arguments
  std::vector<dnnl_exec_arg_t> exec_args;           // the same, as oneDNN's C API takes them

 private:
  struct Slots {
    SharedDesc desc;  // held: its address stays this desc's while the slots exist
    std::vector<dnnl::memory> memories;
    std::size_t used = 0;  // handed out since Begin
  };
  dnnl::engine engine_;
  std::unordered_map<const dnnl::memory::desc*, Slots> slots_;
  std::vector<Slots*> touched_;  // slots with used > 0
};

// The idle RunObjects of one network's workloads (ExecutionSettings::runs). Holds at most as
// many as Executes ran at once (contexts running concurrently, a workload running another inside
// its Execute). Thread-safe.
class RunPool {
 public:
  // An idle RunObjects (or a new one for `engine`), Begin called; back to the pool when the
  // lease ends. Throws std::bad_alloc or dnnl::error.
  class Lease {
   public:
    Lease(RunPool& pool, const dnnl::engine& engine);
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    RunObjects& operator*() const { return *objects_; }

   private:
    RunPool& pool_;
    std::unique_ptr<RunObjects> objects_;
  };

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<RunObjects>> idle_;  // guarded by mutex_
};

}  // namespace backplane::onednn
