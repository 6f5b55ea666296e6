// DescPool: one stored copy of each distinct oneDNN memory descriptor a network's workloads
// keep. oneDNN 2.x holds a descriptor's dims, strides and blocking inline (about 700 bytes);
// a workload keeps several per tensor it reads or writes, and most are equal across layers
// (a chain of same-shaped layers has one or two distinct ones). Workloads hold pointers into
// the pool: a few bytes per layer instead of kilobytes.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace backplane::onednn {

// Owned jointly by the workload factory and its workloads (through ExecutionSettings); a returned
// reference stays valid as long as the pool. Thread-safe. Grows by one copy per distinct desc
// interned, never shrinks (bounded by the network's distinct layouts).
class DescPool {
 public:
  // The pool's copy of `desc` (equal by oneDNN's operator==), stored on first use. Throws
  // std::bad_alloc.
  const dnnl::memory::desc& Intern(const dnnl::memory::desc& desc);
  // Distinct descs stored.
  std::size_t Size() const;

 private:
  mutable std::mutex mutex_;
  // By a hash of dims and byte size; descs of one bucket compared in full. unique_ptr: the
  // descs do not move when a bucket grows.
  std::unordered_map<std::size_t, std::vector<std::unique_ptr<const dnnl::memory::desc>>> buckets_;
  std::size_t size_ = 0;
};

}  // namespace backplane::onednn
