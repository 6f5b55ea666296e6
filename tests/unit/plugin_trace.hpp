// The test plugins' trace file (tests/plugins/test_backend.hpp): while a PluginTrace exists,
// BACKPLANE_TEST_PLUGIN_LOG names a fresh file and every test plugin appends one line per
// event to it ("loaded TestValidA", "created TestValidA", "unloaded TestValidA", ...). This is
// how a test sees from outside whether a library was really mapped, unmapped, or had its
// factory called.
#pragma once

#include "scoped_environment.hpp"
#include "test_folder.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace backplane::unit {

// Not thread-safe; one per test.
class PluginTrace {
 public:
  PluginTrace();
  ~PluginTrace();
  PluginTrace(const PluginTrace&) = delete;
  PluginTrace& operator=(const PluginTrace&) = delete;

  // Every line written so far, in order.
  std::vector<std::string> Lines() const;
  // How many lines equal `line` exactly.
  std::size_t Count(const std::string& line) const;
  // Index of the first line equal to `line`, or -1.
  long IndexOf(const std::string& line) const;
  // All lines joined with '\n', for failure messages.
  std::string Text() const;

 private:
  TestFolder folder_;
  fs::path file_;
  ScopedEnvironmentVariable variable_;
};

}  // namespace backplane::unit
