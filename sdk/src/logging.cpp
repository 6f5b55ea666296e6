#include <backplane/logging.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace backplane {

namespace {
constexpr std::array<const char*, 4> kLevelNames{"debug", "info", "warning", "error"};
constexpr std::array<const char*, kLogCategoryCount> kCategoryNames{"discovery", "plugin",
                                                                   "optimize", "execute"};

// Writes enabled messages to stderr, one line each. The per-category thresholds are fixed at
// construction; a mutex keeps lines from interleaving.
class StderrLogSink final : public ILogSink {
 public:
  explicit StderrLogSink(const char* spec) {
    thresholds_.fill(LogLevel::kError);
    if (spec) Configure(spec);
  }

  bool IsEnabled(LogLevel level, LogCategory category) const override {
    return level >= thresholds_[static_cast<int>(category)];
  }

  void Write(LogLevel level, LogCategory category, std::string_view message) override {
    if (!IsEnabled(level, category)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::fprintf(stderr, "backplane %s [%s]: %.*s\n", ToString(level), ToString(category),
                 static_cast<int>(message.size()), message.data());
  }

 private:
  // "discovery,plugin:debug,all:info". Unknown names are ignored: logging must never fail.
  void Configure(std::string_view spec) {
    while (!spec.empty()) {
      const auto comma = spec.find(',');
      std::string_view item = spec.substr(0, comma);
      spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
      LogLevel level = LogLevel::kWarning;
      if (const auto colon = item.find(':'); colon != std::string_view::npos) {
        if (auto parsed = LogLevelFromString(item.substr(colon + 1))) level = *parsed;
        item = item.substr(0, colon);
      }
      if (item == "all" || item == "1") {
        thresholds_.fill(level);
      } else if (auto category = LogCategoryFromString(item)) {
        thresholds_[static_cast<int>(*category)] = level;
      }
    }
  }

  std::array<LogLevel, kLogCategoryCount> thresholds_{};
  std::mutex mutex_;
};
}  // namespace

const char* ToString(LogLevel level) { return kLevelNames[static_cast<int>(level)]; }
const char* ToString(LogCategory category) { return kCategoryNames[static_cast<int>(category)]; }

std::optional<LogLevel> LogLevelFromString(std::string_view name) {
  for (std::size_t i = 0; i < kLevelNames.size(); ++i) {
    if (name == kLevelNames[i]) return static_cast<LogLevel>(i);
  }
  return std::nullopt;
}

std::optional<LogCategory> LogCategoryFromString(std::string_view name) {
  for (std::size_t i = 0; i < kCategoryNames.size(); ++i) {
    if (name == kCategoryNames[i]) return static_cast<LogCategory>(i);
  }
  return std::nullopt;
}

ILogSink::~ILogSink() = default;
bool ILogSink::IsEnabled(LogLevel, LogCategory) const { return true; }

std::shared_ptr<ILogSink> DefaultLogSink() {
  static const std::shared_ptr<ILogSink> sink =
      std::make_shared<StderrLogSink>(std::getenv("BACKPLANE_LOG"));
  return sink;
}

}  // namespace backplane
