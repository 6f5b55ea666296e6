// The log sink sdk-info installs for --verbose: every message of every category to stderr.
#pragma once

#include <backplane/logging.hpp>

#include <mutex>
#include <string_view>

namespace backplane::sdk_info {

// Writes every message at `threshold` or above, of every category, to stderr, one line each
// ("sdk-info: debug [discovery]: ..."). Never writes to stdout, so --json stays parseable.
// Thread-safe: a mutex keeps lines from interleaving.
class StderrLogSink final : public ILogSink {
 public:
  explicit StderrLogSink(LogLevel threshold) : threshold_(threshold) {}

  bool IsEnabled(LogLevel level, LogCategory category) const override;
  void Write(LogLevel level, LogCategory category, std::string_view message) override;

 private:
  LogLevel threshold_;
  std::mutex mutex_;
};

}  // namespace backplane::sdk_info
