// The main() of every doctest executable: link the backplane_test_main object library.
//
// ctest runs a test program's cases through --test-case filters (tests/doctest_tests.cmake): one
// case per ctest test, or on the Windows cross-build a batch of them, named one by one and
// separated by ',', in one process. A filter that matches no test case makes doctest pass having
// run nothing, so a test that cannot fail: CMake splits a name at ';' (42 cases once ran nothing
// that way). Here every pattern of a --test-case value must match a case that ran or that its
// decorator skipped (doctest::skip), or the run fails naming the pattern.
//
// For a batch it also keeps what a process per case gave:
//   - a case that ends the process (exit(), even exit(0)) fails the run, naming the case, instead
//     of passing with the rest of the batch not run;
//   - --backplane-case-timeout=SECONDS: a case that runs longer ends the process with a failure
//     naming it (the timeout ctest gave each case's own test);
//   - the names of the cases that failed close the output.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

// What the run did, filled during Context::run by doctest's listener (one run per process) from
// the test's own thread; `current` is also read by the watchdog's thread and the exit handler,
// under `mutex`.
struct RunRecord {
  static inline std::mutex mutex;
  static inline std::string current;  // the case running now; empty between cases
  static inline std::chrono::steady_clock::time_point current_started;
  static inline std::vector<std::string> started;
  static inline std::vector<std::string> failed;
  static inline std::vector<std::string> decorator_skipped;
};

class RecordingListener : public doctest::IReporter {
 public:
  explicit RecordingListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData& data) override {
    const std::lock_guard<std::mutex> lock(RunRecord::mutex);
    RunRecord::current = data.m_name;
    RunRecord::current_started = std::chrono::steady_clock::now();
    RunRecord::started.emplace_back(data.m_name);
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    const std::lock_guard<std::mutex> lock(RunRecord::mutex);
    if (!stats.testCaseSuccess) RunRecord::failed.push_back(RunRecord::current);
    RunRecord::current.clear();
  }
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  // Also called for every case the filters leave out; m_skip tells the decorator's.
  void test_case_skipped(const doctest::TestCaseData& data) override {
    if (data.m_skip) RunRecord::decorator_skipped.emplace_back(data.m_name);
  }
};
REGISTER_LISTENER("run_record", 1, RecordingListener);

// Registered with std::atexit: a process that exits while a case runs (the case called exit())
// fails, naming the case. Between cases it does nothing.
void FailExitDuringCase() {
  const std::lock_guard<std::mutex> lock(RunRecord::mutex);
  if (RunRecord::current.empty()) return;
  std::cerr << "doctest_main: the process exited during test case \"" << RunRecord::current << "\"\n"
            << std::flush;
  std::_Exit(1);
}

// Ends the process, naming the case, when one case runs longer than `limit`. Owns one thread
// from construction to destruction; a limit of zero starts none.
class CaseWatchdog {
 public:
  explicit CaseWatchdog(std::chrono::seconds limit) : limit_(limit) {
    if (limit_.count() > 0) thread_ = std::thread([this] { Watch(); });
  }
  ~CaseWatchdog() {
    {
      const std::lock_guard<std::mutex> lock(stop_mutex_);
      stop_ = true;
    }
    stop_changed_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  CaseWatchdog(const CaseWatchdog&) = delete;
  CaseWatchdog& operator=(const CaseWatchdog&) = delete;

 private:
  void Watch() {
    std::unique_lock<std::mutex> stop_lock(stop_mutex_);
    while (!stop_changed_.wait_for(stop_lock, std::chrono::milliseconds(200), [this] { return stop_; })) {
      const std::lock_guard<std::mutex> lock(RunRecord::mutex);
      if (!RunRecord::current.empty() && std::chrono::steady_clock::now() - RunRecord::current_started > limit_) {
        std::cerr << "doctest_main: test case \"" << RunRecord::current << "\" ran past its timeout of "
                  << limit_.count() << " s\n"
                  << std::flush;
        std::_Exit(1);
      }
    }
  }

  std::chrono::seconds limit_;
  std::mutex stop_mutex_;
  std::condition_variable stop_changed_;
  bool stop_ = false;
  std::thread thread_;
};

// doctest's filter match: '*' and '?' wildcards, letter case ignored.
bool WildcardMatch(const char* pattern, const char* text) {
  if (*pattern == '\0') return *text == '\0';
  if (*pattern == '*') return WildcardMatch(pattern + 1, text) || (*text != '\0' && WildcardMatch(pattern, text + 1));
  return *text != '\0' &&
         (*pattern == '?' || std::tolower(static_cast<unsigned char>(*pattern)) == std::tolower(static_cast<unsigned char>(*text))) &&
         WildcardMatch(pattern + 1, text + 1);
}

// The patterns of one --test-case value, as doctest splits it: separated by ',', "\," an escaped
// comma and "\\" an escaped backslash.
std::vector<std::string> Patterns(const std::string& value) {
  std::vector<std::string> patterns(1);
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size() && (value[i + 1] == ',' || value[i + 1] == '\\')) {
      patterns.back() += value[++i];
    } else if (value[i] == ',') {
      patterns.emplace_back();
    } else {
      patterns.back() += value[i];
    }
  }
  return patterns;
}

bool MatchesAny(const std::string& pattern, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (WildcardMatch(pattern.c_str(), name.c_str())) return true;
  }
  return false;
}

// The value of --NAME=VALUE (or -NAME=VALUE) among the arguments; empty when absent.
std::vector<std::string> OptionValues(int argc, char** argv, const std::vector<std::string>& names) {
  std::vector<std::string> values;
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    const std::size_t equals = argument.find('=');
    if (equals == std::string::npos) continue;
    std::string option = argument.substr(0, equals);
    while (!option.empty() && option.front() == '-') option.erase(0, 1);
    for (const auto& name : names) {
      if (option == name) values.push_back(argument.substr(equals + 1));
    }
  }
  return values;
}

}  // namespace

int main(int argc, char** argv) {
  std::chrono::seconds case_timeout(0);
  for (const auto& value : OptionValues(argc, argv, {"backplane-case-timeout"})) {
    case_timeout = std::chrono::seconds(std::atoi(value.c_str()));
  }
  std::atexit(FailExitDuringCase);
  doctest::Context context(argc, argv);
  int result = 0;
  {
    const CaseWatchdog watchdog(case_timeout);
    result = context.run();
  }
  if (context.shouldExit()) return result;  // --help, --list-test-cases, ...
  for (const auto& name : RunRecord::failed) {
    std::cerr << "doctest_main: failed: " << name << "\n";
  }
  for (const auto& value : OptionValues(argc, argv, {"test-case", "tc", "dt-test-case", "dt-tc"})) {
    for (const auto& pattern : Patterns(value)) {
      if (!MatchesAny(pattern, RunRecord::started) && !MatchesAny(pattern, RunRecord::decorator_skipped)) {
        std::cerr << "doctest_main: no test case matches \"" << pattern << "\" (of --test-case=" << value << ")\n";
        if (result == 0) result = 1;
      }
    }
  }
  return result;
}
