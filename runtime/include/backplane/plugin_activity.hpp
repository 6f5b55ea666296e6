// Which backend code a thread is running, for a program's last words when that code ends the
// process before the program finished (a plugin calling exit() inside Execute): the runtime
// marks each of its calls into a backend (its factory, its C tables, the calls of discovery,
// optimization, loading and execution) while it runs. The tools name it when they refuse to
// report success for a run that did not finish (tools/terminal/unfinished_exit.hpp).
#pragma once

#include <backplane/runtime_export.hpp>

#include <string>

namespace backplane {

// "backend CpuRef: execute for layer 'conv1'": the innermost call into backend code the calling
// thread is in, or "" when it is in none. Each thread sees its own calls. Safe to call from an
// std::atexit handler on the thread that called exit(). Throws only std::bad_alloc.
BACKPLANE_RUNTIME_API std::string PluginCallInProgress();

}  // namespace backplane
