// A progress line for long runs, on a terminal only.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace backplane::sdk_run {

// When enabled, a background thread redraws "<label>: done/total (pct%)" in place on `out`
// every 200 ms, starting once the work has taken a second (short work prints nothing), and
// erases the line when the object is destroyed (the work ended, failed or was interrupted), so
// what follows starts on a clean line. With total 0 (the amount of work is not known: an
// import, a load, runs for a time) it draws "<label> ... 1.4 s", or "<label>: done ... 1.4 s"
// once Advance was called, the seconds since the object was made. Disabled (the stream is not a
// terminal, or --json), it does nothing. Advance is thread-safe and lock-free; `out` must not
// be written by anyone else while the object lives.
class ProgressLine {
 public:
  ProgressLine(std::ostream& out, std::string label, std::size_t total, bool enabled);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void Advance() { done_.fetch_add(1, std::memory_order_relaxed); }

 private:
  void Draw();
  void Loop();

  std::ostream& out_;
  std::string label_;
  std::size_t total_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<std::size_t> done_{0};
  bool drawn_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace backplane::sdk_run
