// backplane_onnx_conformance: runs the ONNX backend test suite (onnx_backend_suite.hpp) on one or
// more runners (backend preference lists) and reports each case, the totals, the refusals by
// reason and, against the committed expected-pass lists, what regressed.
//
//   backplane_onnx_conformance --suite DIR --runner CpuRef [--runner CpuOneDnn,CpuRef ...]
//       [--expected DIR] [--write-expected] [--table FILE] [--cases SUBSTRING]
//
// --expected DIR: DIR/<runner>.txt (commas as '_') lists the cases that pass there; one that
//   does not pass now is a regression. --write-expected rewrites those files from this run.
// --table FILE: a Markdown table of pass / refused / wrong per op and runner.
// Exit status: 0; 1 when any case gives a wrong result or an expected pass regressed; 64 for a
// bad command line; 2 when a runner's backend is not registered or the suite has no cases.
#include "onnx_backend_suite.hpp"

#include <backplane/runtime.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using backplane::BackendId;
using backplane::Runtime;
using backplane::conformance::CaseResult;
using backplane::conformance::SuiteCase;
using backplane::conformance::Verdict;

namespace {

struct Options {
  fs::path suite;
  std::vector<std::string> runners;
  fs::path expected;
  bool write_expected = false;
  fs::path table;
  std::string cases;
};

std::vector<BackendId> SplitRunner(const std::string& runner) {
  std::vector<BackendId> backends;
  std::stringstream stream(runner);
  for (std::string id; std::getline(stream, id, ',');) backends.push_back(id);
  return backends;
}

fs::path ExpectedFile(const fs::path& folder, std::string runner) {
  std::replace(runner.begin(), runner.end(), ',', '_');
  return folder / (runner + ".txt");
}

std::set<std::string> ReadExpected(const fs::path& file) {
  std::set<std::string> names;
  std::ifstream stream(file);
  for (std::string line; std::getline(stream, line);) {
    if (!line.empty() && line[0] != '#') names.insert(line);
  }
  return names;
}

// The reason with what is particular to one case taken out, so that alike refusals count together.
std::string ReasonClass(const std::string& detail) {
  static const std::regex op_prefix(R"(^(\w[\w ]*): [A-Za-z0-9_]+ \(opset \d+\): )");
  static const std::regex model_path(R"((\S*[/\\])?model\.onnx: )");
  static const std::regex quoted(R"('[^']*')");
  static const std::regex numbers(R"(\[[-0-9, ]*\]|\b\d+\b)");
  std::string text = std::regex_replace(std::regex_replace(detail, model_path, ""), op_prefix, "$1: ");
  text = std::regex_replace(text, quoted, "'…'");
  text = std::regex_replace(text, numbers, "N");
  return text.size() > 140 ? text.substr(0, 140) + "…" : text;
}

struct RunnerResults {
  std::string runner;
  std::map<std::string, CaseResult> cases;  // by case name
};

RunnerResults RunSuite(const std::vector<SuiteCase>& cases, const std::string& runner, Runtime& runtime) {
  RunnerResults results{runner, {}};
  for (const auto& test : cases) {
    std::cout << runner << " " << test.name << ": " << std::flush;  // a crash leaves the case named
    CaseResult result = backplane::conformance::RunCase(test, runtime, SplitRunner(runner));
    std::cout << backplane::conformance::ToString(result.verdict) << (result.detail.empty() ? "" : ": " + result.detail) << "\n";
    results.cases.emplace(test.name, std::move(result));
  }
  return results;
}

// Prints the totals and the refusals by reason; checks against the expected list. False when a
// result is wrong or an expected pass regressed.
bool Report(const RunnerResults& results, const Options& options) {
  std::map<Verdict, int> totals;
  std::map<std::string, int> reasons;
  std::vector<std::string> passes, wrong;
  for (const auto& [name, result] : results.cases) {
    ++totals[result.verdict];
    if (result.verdict == Verdict::kPass) passes.push_back(name);
    if (result.verdict == Verdict::kWrong) wrong.push_back(name + ": " + result.detail);
    if (result.verdict == Verdict::kRefused) ++reasons[ReasonClass(result.detail)];
  }
  const int measured = static_cast<int>(results.cases.size()) - totals[Verdict::kSetAside];
  std::cout << "\n==== " << results.runner << ": " << results.cases.size() << " cases, " << totals[Verdict::kSetAside]
            << " set aside; of the " << measured << " measured: " << totals[Verdict::kPass] << " pass, "
            << totals[Verdict::kRefused] << " refused, " << totals[Verdict::kWrong] << " wrong\n";
  std::vector<std::pair<int, std::string>> by_count;
  for (const auto& [reason, count] : reasons) by_count.emplace_back(count, reason);
  std::sort(by_count.rbegin(), by_count.rend());
  std::cout << "refusals by reason (the 25 most frequent):\n";
  for (std::size_t i = 0; i < by_count.size() && i < 25; ++i) {
    std::cout << "  " << by_count[i].first << "  " << by_count[i].second << "\n";
  }
  for (const auto& line : wrong) std::cout << "WRONG " << results.runner << " " << line << "\n";

  bool ok = wrong.empty();
  if (!options.expected.empty()) {
    const fs::path file = ExpectedFile(options.expected, results.runner);
    if (options.write_expected) {
      std::ofstream out(file);
      out << "# ONNX backend suite cases that pass on " << results.runner
          << " (tests/conformance; rewritten with --write-expected)\n";
      for (const auto& name : passes) out << name << "\n";
      std::cout << "wrote " << file.string() << " (" << passes.size() << " cases)\n";
    } else {
      const std::set<std::string> expected = ReadExpected(file);
      int regressed = 0, added = 0;
      for (const auto& name : expected) {
        const auto found = results.cases.find(name);
        if (!options.cases.empty() && name.find(options.cases) == std::string::npos) continue;
        if (found == results.cases.end() || found->second.verdict != Verdict::kPass) {
          std::cout << "REGRESSED " << results.runner << " " << name << ": listed in " << file.string() << ", now "
                    << (found == results.cases.end() ? "not in the suite" : backplane::conformance::ToString(found->second.verdict)) << "\n";
          ++regressed;
        }
      }
      for (const auto& name : passes) added += expected.count(name) ? 0 : 1;
      if (added) std::cout << added << " cases pass that " << file.string() << " does not list (--write-expected adds them)\n";
      ok = ok && regressed == 0;
    }
  }
  return ok;
}

void WriteTable(const std::vector<RunnerResults>& all, const fs::path& file) {
  std::map<std::string, std::vector<std::map<Verdict, int>>> by_op;
  for (std::size_t r = 0; r < all.size(); ++r) {
    for (const auto& [name, result] : all[r].cases) {
      if (result.verdict == Verdict::kSetAside) continue;
      auto& row = by_op[result.op.empty() ? "?" : result.op];
      row.resize(all.size());
      ++row[r][result.verdict];
    }
  }
  std::ofstream out(file);
  out << "| op |";
  for (const auto& runner : all) out << " " << runner.runner << " pass / refused / wrong |";
  out << "\n|---|";
  for (std::size_t r = 0; r < all.size(); ++r) out << "---|";
  out << "\n";
  for (auto& [op, row] : by_op) {
    out << "| " << op << " |";
    for (auto& counts : row) {
      out << " " << counts[Verdict::kPass] << " / " << counts[Verdict::kRefused] << " / " << counts[Verdict::kWrong] << " |";
    }
    out << "\n";
  }
}

int Usage(const std::string& why) {
  std::cerr << "backplane_onnx_conformance: " << why << "\n"
            << "usage: backplane_onnx_conformance --suite DIR --runner ID[,ID...] [--runner ...] [--expected DIR]\n"
            << "       [--write-expected] [--table FILE] [--cases SUBSTRING]\n";
  return 64;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    const bool has_value = i + 1 < argc;
    if (argument == "--write-expected") {
      options.write_expected = true;
    } else if (!has_value) {
      return Usage("unknown option or missing value: " + argument);
    } else if (argument == "--suite") {
      options.suite = argv[++i];
    } else if (argument == "--runner") {
      options.runners.push_back(argv[++i]);
    } else if (argument == "--expected") {
      options.expected = argv[++i];
    } else if (argument == "--table") {
      options.table = argv[++i];
    } else if (argument == "--cases") {
      options.cases = argv[++i];
    } else {
      return Usage("unknown option: " + argument);
    }
  }
  if (options.suite.empty() || options.runners.empty()) return Usage("--suite and --runner are required");
  if (options.write_expected && options.expected.empty()) return Usage("--write-expected needs --expected");

  std::vector<SuiteCase> cases = backplane::conformance::FindCases(options.suite);
  if (!options.cases.empty()) {
    cases.erase(std::remove_if(cases.begin(), cases.end(),
                               [&](const SuiteCase& c) { return c.name.find(options.cases) == std::string::npos; }),
                cases.end());
  }
  if (cases.empty()) {
    std::cerr << "backplane_onnx_conformance: no cases under " << options.suite.string() << "\n";
    return 2;
  }
  auto runtime = Runtime::Create();
  std::vector<RunnerResults> all;
  bool ok = true;
  for (const auto& runner : options.runners) {
    for (const auto& id : SplitRunner(runner)) {
      if (!runtime->HasBackend(id)) {
        std::cerr << "backplane_onnx_conformance: backend " << id.Get() << " is not registered in this runtime\n";
        return 2;
      }
    }
    all.push_back(RunSuite(cases, runner, *runtime));
    ok = Report(all.back(), options) && ok;
  }
  if (!options.table.empty()) WriteTable(all, options.table);
  return ok ? 0 : 1;
}
