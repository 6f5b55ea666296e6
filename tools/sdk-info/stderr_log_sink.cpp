#include "stderr_log_sink.hpp"

#include <cstdio>

namespace backplane::sdk_info {

bool StderrLogSink::IsEnabled(LogLevel level, LogCategory) const { return level >= threshold_; }

void StderrLogSink::Write(LogLevel level, LogCategory category, std::string_view message) {
  if (!IsEnabled(level, category)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::fprintf(stderr, "sdk-info: %s [%s]: %.*s\n", ToString(level), ToString(category),
               static_cast<int>(message.size()), message.data());
}

}  // namespace backplane::sdk_info
