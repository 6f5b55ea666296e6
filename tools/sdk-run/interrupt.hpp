// Ctrl-C (SIGINT) during the timed runs: stop them and report the runs done so far.
#pragma once

namespace backplane::sdk_run {

// While an object lives, SIGINT does not end the process: the handler only sets a flag (and
// puts the default action back, so a second Ctrl-C ends the process at once); the runs check
// InterruptRequested() between runs and stop. The destructor restores the handler that was
// there before. Create one at a time, on one thread; the flag is cleared when one is created.
// Uses std::signal only (standard C++, also on Windows).
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  void (*previous_)(int);
};

// Whether SIGINT arrived since the current InterruptScope was created. Thread-safe, lock-free.
bool InterruptRequested();

}  // namespace backplane::sdk_run
