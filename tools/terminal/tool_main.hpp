// The frame of every tool's main() (sdk-info, sdk-run, sdk-plugin): the guard against an exit
// before the tool finished, the arguments as UTF-8, and the last catch. What a tool does with
// its arguments, and how it reports the errors it expects, stay the tool's own.
#pragma once

namespace backplane::tools {

// A tool's own work: parses `argv` (UTF-8), runs, reports, and returns the process's exit code.
using ToolRun = int (*)(int argc, const char* const argv[]);

// Runs `run` over the program's arguments converted to UTF-8 (backplane::ProgramArguments:
// Windows' argv is in the ANSI code page) under an UnfinishedExitGuard(tool, failure_code), and
// returns its exit code. An exception that escapes `run` or the conversion is reported as
// "<tool>: unexpected error: <what>" on stderr, and the tool exits with `failure_code`. Call
// once, from main: `return tools::ToolMain("sdk-run", 70, argc, argv, Run);`. `tool` must be a
// string literal. Never throws.
int ToolMain(const char* tool, int failure_code, int argc, char* argv[], ToolRun run) noexcept;

}  // namespace backplane::tools
