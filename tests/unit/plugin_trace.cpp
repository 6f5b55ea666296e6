#include "plugin_trace.hpp"

#include <algorithm>
#include <fstream>

namespace backplane::unit {

namespace {
constexpr const char* kTraceVariable = "BACKPLANE_TEST_PLUGIN_LOG";
}

PluginTrace::PluginTrace()
    : file_(folder_.path() / "plugin-trace.log"),
      variable_(kTraceVariable, file_.string()) {}

PluginTrace::~PluginTrace() = default;

std::vector<std::string> PluginTrace::Lines() const {
  std::vector<std::string> lines;
  std::ifstream stream(file_);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::size_t PluginTrace::Count(const std::string& line) const {
  const auto lines = Lines();
  return static_cast<std::size_t>(std::count(lines.begin(), lines.end(), line));
}

long PluginTrace::IndexOf(const std::string& line) const {
  const auto lines = Lines();
  const auto it = std::find(lines.begin(), lines.end(), line);
  return it == lines.end() ? -1 : static_cast<long>(it - lines.begin());
}

std::string PluginTrace::Text() const {
  std::string text;
  for (const auto& line : Lines()) text += line + "\n";
  return text;
}

}  // namespace backplane::unit
