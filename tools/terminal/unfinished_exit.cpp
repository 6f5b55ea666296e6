#include "unfinished_exit.hpp"

#include <backplane/plugin_activity.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace backplane::tools {

namespace {

// Process-wide, as std::atexit is: set once by the guard, read by the handler on whichever
// thread calls exit().
std::atomic<bool> finished{true};  // no guard: nothing to say
const char* guarded_tool = "";
int guarded_failure_code = 1;

void RefuseUnfinishedExit() {
  if (finished.load()) return;
  std::string running;
  try {
    running = PluginCallInProgress();
  } catch (const std::exception&) {
    // No memory for the name: the line below still goes out.
  }
  const std::string by = running.empty() ? "by code it ran" : "from inside " + running;
  std::fprintf(stderr, "%s: did not finish: the process was ended %s; the output is incomplete\n", guarded_tool,
               by.c_str());
  std::fflush(stderr);
  std::_Exit(guarded_failure_code);
}

}  // namespace

UnfinishedExitGuard::UnfinishedExitGuard(const char* tool, int failure_code) noexcept {
  guarded_tool = tool;
  guarded_failure_code = failure_code;
  finished.store(false);
  std::atexit(&RefuseUnfinishedExit);
}

int UnfinishedExitGuard::Finish(int exit_code) const noexcept {
  finished.store(true);
  return exit_code;
}

}  // namespace backplane::tools
