// ThreadGate: a counting gate over the CPU cores one runtime lets oneDNN use. With the OpenMP
// CPU runtime every calling thread gets its own team, so N execution contexts running at once
// with T threads each would start N x T threads on C cores. Each workload takes T units of the
// gate for the duration of its primitive and gives them back, so running teams never hold more
// than C threads together; a caller waits while the cores are taken.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <mutex>

namespace backplane::onednn {

// Thread-safe. Owned by the backend context (per runtime) or, without one, by the workload
// factory; outlives every workload that refers to it.
class ThreadGate {
 public:
  explicit ThreadGate(int capacity) : capacity_(std::max(1, capacity)), free_(capacity_) {}

  int Capacity() const { return capacity_; }

  // Blocks until `units` (clamped to the capacity) are free, then takes them. Returns the
  // units taken, to be passed to Release.
  int Acquire(int units) {
    units = std::clamp(units, 1, capacity_);
    std::unique_lock<std::mutex> lock(mutex_);
    freed_.wait(lock, [&] { return free_ >= units; });
    free_ -= units;
    return units;
  }
  void Release(int units) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      free_ += units;
    }
    freed_.notify_all();
  }

 private:
  const int capacity_;
  int free_;
  std::mutex mutex_;
  std::condition_variable freed_;
};

// Holds gate units for one scope.
class GateUnits {
 public:
  GateUnits(ThreadGate& gate, int units) : gate_(gate), units_(gate.Acquire(units)) {}
  ~GateUnits() { gate_.Release(units_); }
  GateUnits(const GateUnits&) = delete;
  GateUnits& operator=(const GateUnits&) = delete;
  int Units() const { return units_; }

 private:
  ThreadGate& gate_;
  int units_;
};

}  // namespace backplane::onednn
