// DescPool: one shared copy of each distinct oneDNN memory descriptor its users hold. oneDNN 2.x
// holds a descriptor's dims, strides and blocking inline (about 700 bytes); a workload keeps
// several per tensor it reads or writes, a tensor handle one or two, and most are equal across
// layers (a chain of same-shaped layers has one or two distinct ones). Holders keep a shared
// pointer into the pool: 16 bytes instead of kilobytes per layer.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace backplane::onednn {

using SharedDesc = std::shared_ptr<const dnnl::memory::desc>;

// One per loaded network (its workloads, ExecutionSettings::descs) and one per tensor handle
// factory (the handles of every context). A desc stays as long as a holder keeps it; the pool
// forgets a desc no one holds (holders do not keep the pool alive). Thread-safe. Holds at most
// twice as many entries as descs held, plus one bucket per distinct hash seen since the last
// sweep.
class DescPool {
 public:
  // The pool's copy of `desc` (equal by oneDNN's operator==), made on first use or when every
  // earlier holder let it go. Equal descs interned while one is held are the same pointer, so
  // holders may compare them by address. Throws std::bad_alloc.
  SharedDesc Intern(const dnnl::memory::desc& desc);
  // Distinct descs held now.
  std::size_t Size() const;

 private:
  // Forgets the entries no one holds. Called with mutex_ held.
  void Sweep();

  mutable std::mutex mutex_;
  // By a hash of dims and byte size; descs of one bucket compared in full.
  std::unordered_map<std::size_t, std::vector<std::weak_ptr<const dnnl::memory::desc>>> buckets_;
  std::size_t entries_ = 0;      // weak pointers in buckets_, expired or not
  std::size_t next_sweep_ = 64;  // Sweep when entries_ reaches it
};

}  // namespace backplane::onednn
