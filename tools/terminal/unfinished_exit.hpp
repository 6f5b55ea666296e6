// A tool never reports success when it did not finish. Code a tool runs but does not own (a
// backend calling exit() inside Execute or its factory, a library's own exit) can end the
// process before main returns: with status 0 and the report half written or not written at
// all. The guard turns such an exit into a failure: a line on stderr naming the tool and the
// backend call that was running (backplane::PluginCallInProgress) and the tool's failure exit
// code. The one mechanism for sdk-info, sdk-run and sdk-plugin.
#pragma once

namespace backplane::tools {

// Construct one first thing in main, and return through Finish():
//   const tools::UnfinishedExitGuard guard("sdk-run", 70);
//   return guard.Finish(Run(argc, argv));
// Until Finish(), an exit() from any thread ends the process in an std::atexit handler with
// "<tool>: did not finish: the process was ended from inside backend B: execute for layer 'l';
// the output is incomplete" ("... ended by code it ran; ..." outside backend calls) on stderr
// and `failure_code` (std::_Exit: nothing else registered runs, nothing buffered for stdout is
// written). One per process (the handler and its state are
// process-wide); construct and Finish on the main thread. Never throws.
class UnfinishedExitGuard {
 public:
  // `tool` must be a string literal (the handler keeps the pointer).
  UnfinishedExitGuard(const char* tool, int failure_code) noexcept;
  UnfinishedExitGuard(const UnfinishedExitGuard&) = delete;
  UnfinishedExitGuard& operator=(const UnfinishedExitGuard&) = delete;

  // Marks the tool finished, so that the exit main's return makes is its own; returns
  // `exit_code`.
  int Finish(int exit_code) const noexcept;
};

}  // namespace backplane::tools
