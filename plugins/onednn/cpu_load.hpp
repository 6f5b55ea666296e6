// CpuLoadMonitor: whether other work competes for the cores right now. oneDNN's OpenMP
// kernels split every primitive statically over their threads, so while another process keeps
// a core busy each parallel region waits for its descheduled thread and a 2-thread run becomes
// many times slower than a 1-thread one. Workloads ask Busy() before each primitive and use
// their single-thread variant while it says so (see AdaptiveWorkload).
//
// Source (Linux): the count of runnable threads in /proc/loadavg minus this process's own
// runnable threads (/proc/self/task/*/stat), sampled at most every 5 ms. Busy means: in each of
// the last 4 samples, the other runnable threads left fewer free cores than the threads
// wanted. Requiring every recent sample keeps short blips (kernel threads) from halving the
// speed on a quiet machine. Where the files do not exist (other systems) it is never busy.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

namespace backplane::onednn {

// The runnable-thread count of a /proc/loadavg line ("0.52 0.58 0.59 3/245 12345" -> 3).
std::optional<int> RunnableThreads(const std::string& loadavg);
// Whether a /proc/<pid>/task/<tid>/stat line says the thread is running ("12 (a b) R 1 ...").
bool IsRunningStat(const std::string& stat);

// Thread-safe. Owned with the thread gate (per runtime, or per workload factory).
class CpuLoadMonitor {
 public:
  explicit CpuLoadMonitor(int cores) : cores_(cores) {}
  // True when `wanted` threads would compete with other work for the cores (see above).
  // Cheap: relaxed atomics between samples.
  bool Busy(int wanted);

 private:
  void Sample(std::int64_t now);

  const int cores_;
  std::atomic<std::int64_t> next_sample_us_{0};
  std::atomic<int> least_others_{0};  // minimum over the samples

  std::mutex mutex_;                // guards the samples
  std::array<int, 4> samples_{};    // other processes' runnable threads, ring buffer
  std::size_t next_ = 0;
  bool available_ = true;           // false once the file could not be read
};

}  // namespace backplane::onednn
