#include "tool_main.hpp"

#include "unfinished_exit.hpp"

#include <backplane/program_arguments.hpp>

#include <exception>
#include <iostream>

namespace backplane::tools {

namespace {

int RunWithUtf8Arguments(const char* tool, int failure_code, int argc, char* argv[], ToolRun run) noexcept {
  try {
    const ProgramArguments arguments(argc, argv);
    return run(arguments.argc(), arguments.argv());
  } catch (const std::exception& error) {
    std::cerr << tool << ": unexpected error: " << error.what() << '\n';
  } catch (...) {
    std::cerr << tool << ": unexpected error: an exception that is not a std::exception\n";
  }
  return failure_code;
}

}  // namespace

int ToolMain(const char* tool, int failure_code, int argc, char* argv[], ToolRun run) noexcept {
  const UnfinishedExitGuard guard(tool, failure_code);
  return guard.Finish(RunWithUtf8Arguments(tool, failure_code, argc, argv, run));
}

}  // namespace backplane::tools
