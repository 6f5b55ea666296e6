#include "cpu_load.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace backplane::onednn {

namespace {
constexpr std::int64_t kSamplePeriodUs = 5000;
}

std::optional<int> RunnableThreads(const std::string& loadavg) {
  std::istringstream in(loadavg);
  std::string one, five, fifteen, threads;
  if (!(in >> one >> five >> fifteen >> threads)) return std::nullopt;
  const auto slash = threads.find('/');
  if (slash == std::string::npos || slash == 0) return std::nullopt;
  try {
    std::size_t used = 0;
    const int runnable = std::stoi(threads.substr(0, slash), &used);
    if (used != slash || runnable < 0) return std::nullopt;
    return runnable;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool IsRunningStat(const std::string& stat) {
  const auto close = stat.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return false;
  const auto state = stat.find_first_not_of(' ', close + 1);
  return state != std::string::npos && stat[state] == 'R';
}

namespace {
// This process's threads that are running or runnable now; nullopt when it cannot be read.
std::optional<int> OwnRunningThreads() {
  std::error_code error;
  std::filesystem::directory_iterator tasks("/proc/self/task", error);
  if (error) return std::nullopt;
  int running = 0;
  for (const auto& task : tasks) {
    std::ifstream file(task.path() / "stat");
    std::string line;
    if (file && std::getline(file, line) && IsRunningStat(line)) ++running;
  }
  return running;
}
}  // namespace

bool CpuLoadMonitor::Busy(int wanted) {
  const std::int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::steady_clock::now().time_since_epoch())
                               .count();
  if (now >= next_sample_us_.load(std::memory_order_relaxed)) Sample(now);
  return least_others_.load(std::memory_order_relaxed) + wanted > cores_;
}

void CpuLoadMonitor::Sample(std::int64_t now) {
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || !available_) return;  // another thread samples, or nothing to read
  next_sample_us_.store(now + kSamplePeriodUs, std::memory_order_relaxed);
  std::ifstream file("/proc/loadavg");
  std::string line;
  const std::optional<int> runnable = file && std::getline(file, line) ? RunnableThreads(line) : std::nullopt;
  const std::optional<int> own = runnable ? OwnRunningThreads() : std::nullopt;
  if (!runnable || !own) {
    available_ = false;
    least_others_.store(0, std::memory_order_relaxed);
    return;
  }
  samples_[next_] = std::max(0, *runnable - *own);
  next_ = (next_ + 1) % samples_.size();
  least_others_.store(*std::min_element(samples_.begin(), samples_.end()), std::memory_order_relaxed);
}

}  // namespace backplane::onednn
