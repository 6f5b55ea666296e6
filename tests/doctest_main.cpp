// The main() of every doctest executable: link the backplane_test_main object library.
//
// ctest runs each test case as its own test (doctest_discover_tests: --test-case=NAME). A filter
// that matches no test case makes doctest pass having run nothing, so a test that cannot fail:
// CMake splits a name at ';' (42 cases once ran nothing that way). Here such a run fails,
// naming the filter. A case its decorator skips (doctest::skip) counts as matched.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cctype>
#include <iostream>
#include <string>
#include <vector>

namespace {

// The test cases that ran, and the names of those their decorator skipped. Filled during
// Context::run by doctest's listener (one run per process).
class MatchedCases : public doctest::IReporter {
 public:
  static inline int started = 0;
  static inline std::vector<std::string> decorator_skipped;
  explicit MatchedCases(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override { ++started; }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  // Also called for every case the filters leave out; m_skip tells the decorator's.
  void test_case_skipped(const doctest::TestCaseData& data) override {
    if (data.m_skip) decorator_skipped.emplace_back(data.m_name);
  }
};
REGISTER_LISTENER("matched_cases", 1, MatchedCases);

// doctest's filter match: '*' and '?' wildcards, letter case ignored.
bool WildcardMatch(const char* pattern, const char* text) {
  if (*pattern == '\0') return *text == '\0';
  if (*pattern == '*') return WildcardMatch(pattern + 1, text) || (*text != '\0' && WildcardMatch(pattern, text + 1));
  return *text != '\0' &&
         (*pattern == '?' || std::tolower(static_cast<unsigned char>(*pattern)) == std::tolower(static_cast<unsigned char>(*text))) &&
         WildcardMatch(pattern + 1, text + 1);
}

// The patterns of one --test-case value: separated by ',', "\," an escaped comma.
std::vector<std::string> Patterns(const std::string& value) {
  std::vector<std::string> patterns(1);
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '\\' && i + 1 < value.size() && value[i + 1] == ',') {
      patterns.back() += ',';
      ++i;
    } else if (value[i] == ',') {
      patterns.emplace_back();
    } else {
      patterns.back() += value[i];
    }
  }
  return patterns;
}

bool MatchesSomething(const std::string& value) {
  if (MatchedCases::started > 0) return true;
  for (const auto& pattern : Patterns(value)) {
    for (const auto& name : MatchedCases::decorator_skipped) {
      if (WildcardMatch(pattern.c_str(), name.c_str())) return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;  // --help, --list-test-cases, ...
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    const std::size_t equals = argument.find('=');
    const std::string option = argument.substr(0, equals);
    if ((option == "--test-case" || option == "-tc") && equals != std::string::npos &&
        !MatchesSomething(argument.substr(equals + 1))) {
      std::cerr << "doctest_main: no test case matches " << argument << "\n";
      return result == 0 ? 1 : result;
    }
  }
  return result;
}
