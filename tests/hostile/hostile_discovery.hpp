// The harness of the hostile plugin and manifest cases (issue 18): each case plants hostile
// files in a temporary backend folder BESIDE a good plugin (valid_a with its manifest), creates
// a Runtime over the folder, and checks that (a) Runtime::Create returns, within a time limit,
// (b) the good backend is registered, (c) the hostile candidate has the expected record, whose
// message names the file.
#pragma once

#include "discovery_records.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace backplane::hostile {

using namespace backplane::unit;

// Longer than any case takes by far (each is milliseconds), short enough for ctest's 120 s.
inline constexpr std::chrono::seconds kCreateLimit{20};

// Runtime::Create(options), but a hang fails the test run instead of hanging it: after
// `limit` the process prints which case hung and aborts (a thread blocked in open(), read() or
// dlopen() cannot be cancelled, and doctest cannot go on past it). Rethrows what Create threw.
inline std::unique_ptr<Runtime> CreateWithin(const RuntimeOptions& options, const std::string& what,
                                             std::chrono::seconds limit = kCreateLimit) {
  auto task = std::make_shared<std::packaged_task<std::unique_ptr<Runtime>()>>(
      [options] { return Runtime::Create(options); });
  std::future<std::unique_ptr<Runtime>> result = task->get_future();
  std::thread([task] { (*task)(); }).detach();
  if (result.wait_for(limit) != std::future_status::ready) {
    std::fprintf(stderr, "\nhostile case \"%s\": Runtime::Create did not return within %lld s; aborting\n",
                 what.c_str(), static_cast<long long>(limit.count()));
    std::fflush(stderr);
    std::abort();
  }
  return result.get();
}

// One hostile case: `plant` puts the hostile files into the folder (which already holds
// valid_a) and returns the candidate's file name (a manifest's, or a library's found by name).
// `expected.message_contains` need not list the file name: a rejection's message must always
// name the file at fault, the candidate's own file unless `at_fault` names another (the library
// of a manifest candidate).
struct HostileCase {
  std::string name;
  std::function<std::string(const TestFolder&)> plant;
  ExpectedRecord expected;
  std::string at_fault = {};  // the file the record must name; "" = the planted file
};

// Runs `hostile` as described at the top of this file.
inline void RunHostileCase(const HostileCase& hostile) {
  INFO("case: " << hostile.name);
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  const std::string file = hostile.plant(folder);
  std::unique_ptr<Runtime> runtime;
  try {
    runtime = CreateWithin(OptionsFor({folder.path()}), hostile.name);
  } catch (const std::exception& error) {
    FAIL_CHECK("Runtime::Create threw " << std::string(error.what()));
    return;
  } catch (...) {
    FAIL_CHECK("Runtime::Create threw something that is not a std::exception");
    return;
  }
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(runtime->HasBackend("TestValidA"));
  CHECK(VerdictOf(report, ManifestFileName("Test", "ValidA")) == "registered");
  ExpectedRecord expected = hostile.expected;
  if (expected.verdict == Verdict::kRejected) {
    expected.message_contains.push_back(hostile.at_fault.empty() ? file : hostile.at_fault);
  }
  CHECK(Mismatch(RecordFor(report, file), expected) == "");
  // No message quotes unbounded input (the largest hostile value is 200 KB).
  for (const auto& record : report.records) CHECK(record.message.size() < 2000);
}

// The bytes of a built test plugin.
inline std::string PluginBytes(const TestPlugin& plugin) {
  std::ifstream in(plugin.path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Whether the runtime was built for the machine and format the ELF cases patch around.
inline constexpr bool kLinuxX86_64 =
#if defined(__linux__) && defined(__x86_64__)
    true;
#else
    false;
#endif

// Whether the cases written for ELF libraries and POSIX file kinds (FIFOs, devices, symlinks)
// apply: not in a Windows build, whose PE header checks have their own unit tests
// (runtime/src/loading/library_header_test.cpp) and whose std::filesystem makes no symlinks.
inline constexpr bool kElfAndPosixFiles =
#if defined(_WIN32)
    false;
#else
    true;
#endif

}  // namespace backplane::hostile
