// A log sink that keeps every message, so tests stay quiet and can assert what was logged.
#pragma once

#include <backplane/logging.hpp>

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace backplane::unit {

class CapturingLogSink final : public ILogSink {
 public:
  struct Entry {
    LogLevel level;
    LogCategory category;
    std::string message;
  };

  // Thread-safe, as ILogSink requires.
  void Write(LogLevel level, LogCategory category, std::string_view message) override {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.push_back({level, category, std::string(message)});
  }

  std::vector<Entry> Entries() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return entries_;
  }

  // True when a message at `level` or above, in `category`, contains `text`.
  bool Contains(LogLevel level, LogCategory category, std::string_view text) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : entries_) {
      if (entry.level >= level && entry.category == category &&
          entry.message.find(text) != std::string::npos) {
        return true;
      }
    }
    return false;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
};

}  // namespace backplane::unit
