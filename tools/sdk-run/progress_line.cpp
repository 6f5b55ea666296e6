#include "progress_line.hpp"

#include <chrono>
#include <cstdio>

namespace backplane::sdk_run {

namespace {
constexpr std::chrono::milliseconds kFirstDraw{1000};
constexpr std::chrono::milliseconds kRedraw{200};
}  // namespace

ProgressLine::ProgressLine(std::ostream& out, std::string label, std::size_t total, bool enabled)
    : out_(out), label_(std::move(label)), total_(total), start_(std::chrono::steady_clock::now()) {
  if (enabled) thread_ = std::thread([this] { Loop(); });
}

ProgressLine::~ProgressLine() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (drawn_) out_ << "\r\x1b[K" << std::flush;
}

void ProgressLine::Draw() {
  const std::size_t done = done_.load(std::memory_order_relaxed);
  out_ << '\r' << label_;
  if (total_ > 0) {
    out_ << ": " << done << '/' << total_ << " (" << (100 * done / total_) << "%)";
  } else {
    if (done > 0) out_ << ": " << done;
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, " ... %.1f s", elapsed.count());
    out_ << seconds;
  }
  out_ << "\x1b[K" << std::flush;
  drawn_ = true;
}

void ProgressLine::Loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, kFirstDraw, [this] { return stop_; })) return;
  do {
    Draw();
  } while (!wake_.wait_for(lock, kRedraw, [this] { return stop_; }));
}

}  // namespace backplane::sdk_run
