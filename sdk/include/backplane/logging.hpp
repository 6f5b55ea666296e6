// Logging: one sink interface with levels and categories.
//
// Library code never writes to stdout. Unless the application installs its own sink
// (RuntimeOptions::log_sink), messages go to stderr for the categories named in the
// environment variable BACKPLANE_LOG, e.g.
//   BACKPLANE_LOG=discovery,plugin          warnings and errors of those two categories
//   BACKPLANE_LOG=all:debug                 everything
//   BACKPLANE_LOG=discovery:info,execute    per-category levels
// With BACKPLANE_LOG unset, only errors are written.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

namespace backplane {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };
enum class LogCategory { kDiscovery = 0, kPlugin = 1, kOptimize = 2, kExecute = 3 };
inline constexpr int kLogCategoryCount = 4;

const char* ToString(LogLevel level);        // "debug", "info", "warning", "error"
const char* ToString(LogCategory category);  // "discovery", "plugin", "optimize", "execute"
std::optional<LogLevel> LogLevelFromString(std::string_view name);
std::optional<LogCategory> LogCategoryFromString(std::string_view name);

// Receives log messages. Implementations must be thread-safe: Write may be called from any
// thread, concurrently. The message is only valid during the call.
class ILogSink {
 public:
  virtual ~ILogSink();
  // Cheap pre-check so callers can skip formatting. Default: always true.
  virtual bool IsEnabled(LogLevel level, LogCategory category) const;
  virtual void Write(LogLevel level, LogCategory category, std::string_view message) = 0;
};

// The sink configured from BACKPLANE_LOG (read once, at the first call) writing to stderr.
// Shared, never null, lives until the process exits. Thread-safe.
std::shared_ptr<ILogSink> DefaultLogSink();

}  // namespace backplane
