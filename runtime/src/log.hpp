// Formatting-free logging helper over a sink: skips the message when the sink does not want it.
#pragma once

#include <backplane/logging.hpp>

#include <string>

namespace backplane {

inline void Log(ILogSink& sink, LogLevel level, LogCategory category, const std::string& message) {
  if (sink.IsEnabled(level, category)) sink.Write(level, category, message);
}

}  // namespace backplane
