// How plugin isolation reports the test plugins that take their loading process down, on this
// platform: TEST_CRASH_ON_LOAD crashes (SIGSEGV; an access violation on Windows) and
// TEST_ABORT_IN_FACTORY calls std::abort() (SIGABRT; on Windows abort() ends the process with
// exit status 3, indistinguishable from an exit). Test suites that probe them include this.
#pragma once

namespace backplane::test_plugin_text {

#if defined(_WIN32)
// Windows' loader (and Wine's) catches an exception raised while a DLL initializes and fails the
// load (open_failed), so TEST_CRASH_ON_LOAD does not take the process down there.
inline constexpr bool kCrashOnLoadEndsProcess = false;
inline constexpr const char* kCrashOnLoadText = "crashed while loading (exception 0xC0000005 (access violation))";
inline constexpr const char* kAbortInFactoryText = "made the probe process exit with status 3";
#else
inline constexpr bool kCrashOnLoadEndsProcess = true;
inline constexpr const char* kCrashOnLoadText = "crashed while loading (SIGSEGV)";
inline constexpr const char* kAbortInFactoryText = "crashed while loading (SIGABRT)";
#endif

}  // namespace backplane::test_plugin_text
