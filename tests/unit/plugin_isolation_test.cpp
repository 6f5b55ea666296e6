// RuntimeOptions::isolation (issue 18): plugin libraries are probed in a child process
// (backplane-plugin-probe) before the runtime opens them, and each verdict is remembered in the
// verdict store, so that a library that crashed or hung once is quarantined for every later
// runtime until the file changes. Each case uses its own backend folder and its own store.
#include "capturing_log_sink.hpp"
#include "discovery_records.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"
#include "../plugins/misbehaviour_text.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace backplane::unit {
namespace {

// Sanitizers turn a SIGSEGV into a report and exit(1): the crash verdict then says "exit".
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

struct IsolatedRun {
  std::unique_ptr<Runtime> runtime;
  std::shared_ptr<CapturingLogSink> log;

  const DiscoveryReport& report() const { return runtime->GetDiscoveryReport(); }
  // How many probes this runtime started for `library` (its "probing" log lines).
  int Probes(const fs::path& library) const {
    int count = 0;
    for (const auto& entry : log->Entries()) {
      if (Contains(entry.message, "plugin isolation: probing " + library.string() + " ")) ++count;
    }
    return count;
  }
};

IsolatedRun CreateIsolated(const fs::path& plugins, const fs::path& store, double timeout_seconds = 5,
                           bool reprobe = false) {
  RuntimeOptions options = OptionsFor({plugins});
  auto log = std::make_shared<CapturingLogSink>();
  options.log_sink = log;
  options.isolation.enabled = true;
  options.isolation.timeout_seconds = timeout_seconds;
  options.isolation.verdict_store = store.string();
  options.isolation.reprobe = reprobe;
  return {Runtime::Create(options), log};
}

std::vector<fs::path> StoreEntries(const fs::path& store) {
  std::vector<fs::path> entries;
  if (!fs::exists(store)) return entries;
  for (const auto& entry : fs::directory_iterator(store)) entries.push_back(entry.path());
  return entries;
}

TEST_CASE("isolation: a crashing plugin is refused, the good one beside it registered" *
          doctest::skip(kSanitized)) {
  TestFolder folder;
  const fs::path store = folder.MakeFolder("store");
  const fs::path plugins = folder.MakeFolder("plugins");
  const fs::path good = folder.AddLibrary(test_plugins::valid_a, "plugins/" + LibraryFileName("Test", "TestValidA"));
  const fs::path crash =
      folder.AddLibrary(test_plugins::crash_on_load, "plugins/" + LibraryFileName("Test", "TestCrashOnLoad"));

  const IsolatedRun first = CreateIsolated(plugins, store);
  INFO(Describe(first.report()));
  CHECK(first.runtime->HasBackend(BackendId("TestValidA")));
  CHECK_FALSE(first.runtime->HasBackend(BackendId("TestCrashOnLoad")));
  const DiscoveryRecord* refused = RecordFor(first.report(), crash.filename().string());
  if (!test_plugin_text::kCrashOnLoadEndsProcess) {  // the probe survives it and reports the refusal
    REQUIRE(refused != nullptr);
    CHECK(refused->code == ReasonCode::kOpenFailed);
    CHECK(VerdictOf(first.report(), good.filename().string()) == "registered");
    return;
  }
  CHECK(Mismatch(refused, {Verdict::kRejected, ReasonCode::kLibraryRefused, DiscoveryStage::kLibraryOpened,
                           FoundBy::kNamingScheme,
                           {crash.string() + " " + std::string(test_plugin_text::kCrashOnLoadText) + " in the probe process",
                            "the runtime did not load it and quarantined it until the file changes",
                            "verdict stored in " + store.string()}}) == "");
  CHECK(VerdictOf(first.report(), good.filename().string()) == "registered");
  CHECK(first.Probes(crash) == 1);
  CHECK(first.Probes(good) == 1);
  CHECK(StoreEntries(store).size() == 2);

  SUBCASE("a second runtime (another app) refuses it from the store without probing again") {
    const IsolatedRun second = CreateIsolated(plugins, store);
    INFO(Describe(second.report()));
    CHECK(second.runtime->HasBackend(BackendId("TestValidA")));
    CHECK(Mismatch(RecordFor(second.report(), crash.filename().string()),
                   {Verdict::kRejected, ReasonCode::kLibraryRefused, DiscoveryStage::kLibraryOpened,
                    FoundBy::kNamingScheme,
                    {crash.string() + " is quarantined since ",
                     "it " + std::string(test_plugin_text::kCrashOnLoadText) + " in the probe process",
                     "until the file changes or " + store.string(), "is deleted"}}) == "");
    CHECK(second.Probes(crash) == 0);
    CHECK(second.Probes(good) == 0);  // a good verdict is remembered too
  }
  SUBCASE("a changed file is probed again") {
    {
      std::ofstream append(crash, std::ios::binary | std::ios::app);
      append << "changed";
    }
    const IsolatedRun second = CreateIsolated(plugins, store);
    CHECK(second.Probes(crash) == 1);
    CHECK(second.Probes(good) == 0);
    CHECK(Contains(RecordFor(second.report(), crash.filename().string())->message, "crashed while loading"));
  }
  SUBCASE("a file touched (same bytes, new time) is probed again") {
    fs::last_write_time(crash, fs::last_write_time(crash) + std::chrono::seconds(5));
    const IsolatedRun second = CreateIsolated(plugins, store);
    CHECK(second.Probes(crash) == 1);
  }
  SUBCASE("reprobe probes every library again and stores the new verdicts") {
    const IsolatedRun second = CreateIsolated(plugins, store, 5, /*reprobe=*/true);
    CHECK(second.Probes(crash) == 1);
    CHECK(second.Probes(good) == 1);
    CHECK(Contains(RecordFor(second.report(), crash.filename().string())->message, "crashed while loading"));
  }
  SUBCASE("a corrupt store entry is ignored with a warning and replaced") {
    for (const fs::path& entry : StoreEntries(store)) {
      std::ofstream(entry, std::ios::binary | std::ios::trunc) << "{ not json";
    }
    const IsolatedRun second = CreateIsolated(plugins, store);
    INFO(Describe(second.report()));
    CHECK(second.Probes(crash) == 1);
    CHECK(second.Probes(good) == 1);
    CHECK(second.runtime->HasBackend(BackendId("TestValidA")));
    CHECK(second.log->Contains(LogLevel::kWarning, LogCategory::kPlugin, "plugin verdict store: ignoring "));
    CHECK(second.log->Contains(LogLevel::kWarning, LogCategory::kPlugin, "it is not a JSON object"));
    const IsolatedRun third = CreateIsolated(plugins, store);  // the entries were rewritten
    CHECK(third.Probes(crash) == 0);
  }
  SUBCASE("an entry whose library is gone is pruned at the next save") {
    fs::remove(crash);
    // A new library makes the runtime save a verdict, which prunes.
    folder.AddLibrary(test_plugins::valid_b, "plugins/" + LibraryFileName("Test", "TestValidB"));
    const IsolatedRun second = CreateIsolated(plugins, store);
    CHECK(second.runtime->HasBackend(BackendId("TestValidB")));
    CHECK(StoreEntries(store).size() == 2);  // valid_a and valid_b; the crashing one's is gone
  }
}

TEST_CASE("isolation: a library that aborts in its factory is refused") {
  TestFolder folder;
  const fs::path store = folder.MakeFolder("store");
  const fs::path plugins = folder.MakeFolder("plugins");
  const fs::path abort =
      folder.AddLibrary(test_plugins::abort_in_factory, "plugins/" + LibraryFileName("Test", "TestAbortInFactory"));
  const IsolatedRun run = CreateIsolated(plugins, store);
  INFO(Describe(run.report()));
  const DiscoveryRecord* record = RecordFor(run.report(), abort.filename().string());
  REQUIRE(record != nullptr);
  CHECK(record->code == ReasonCode::kLibraryRefused);
  CHECK(Contains(record->message, abort.string() + (kSanitized ? std::string(" ") : " " + std::string(test_plugin_text::kAbortInFactoryText))));
  CHECK(run.runtime->GetBackends().empty());
}

TEST_CASE("isolation: a hanging library is killed after the timeout and quarantined") {
  TestFolder folder;
  const fs::path store = folder.MakeFolder("store");
  const fs::path plugins = folder.MakeFolder("plugins");
  const fs::path hang =
      folder.AddLibrary(test_plugins::hang_on_load, "plugins/" + LibraryFileName("Test", "TestHangOnLoad"));
  const auto start = std::chrono::steady_clock::now();
  const IsolatedRun run = CreateIsolated(plugins, store, /*timeout_seconds=*/0.5);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  INFO(Describe(run.report()));
  CHECK(Mismatch(RecordFor(run.report(), hang.filename().string()),
                 {Verdict::kRejected, ReasonCode::kLibraryRefused, DiscoveryStage::kLibraryOpened,
                  FoundBy::kNamingScheme,
                  {hang.string() + " did not finish loading within 0.5 s (the probe process was killed)",
                   "quarantined"}}) == "");

  // Remembered for the same timeout; a longer timeout than the one that expired probes again.
  CHECK(CreateIsolated(plugins, store, 0.5).Probes(hang) == 0);
  CHECK(CreateIsolated(plugins, store, 0.75).Probes(hang) == 1);
}

TEST_CASE("isolation: a missing probe program refuses every library, saying so") {
  TestFolder folder;
  const fs::path plugins = folder.MakeFolder("plugins");
  const fs::path good = folder.AddLibrary(test_plugins::valid_a, "plugins/" + LibraryFileName("Test", "TestValidA"));
  RuntimeOptions options = OptionsFor({plugins});
  options.isolation.enabled = true;
  options.isolation.verdict_store = (folder / "store").string();
  options.isolation.probe_program = (folder / "no-such-probe").string();
  const auto runtime = Runtime::Create(options);
  INFO(Describe(runtime->GetDiscoveryReport()));
  CHECK(runtime->GetBackends().empty());
  CHECK(Mismatch(RecordFor(runtime->GetDiscoveryReport(), good.filename().string()),
                 {Verdict::kRejected, ReasonCode::kLibraryRefused, DiscoveryStage::kLibraryOpened,
                  FoundBy::kNamingScheme,
                  {good.string() + " was not loaded: plugin isolation is on, but the probe program " +
                       (folder / "no-such-probe").string() + " cannot be started"}}) == "");
  CHECK(StoreEntries(folder / "store").empty());  // nothing is remembered about a probe that never ran
}

TEST_CASE("isolation: the application's library filter still applies first") {
  TestFolder folder;
  const fs::path plugins = folder.MakeFolder("plugins");
  const fs::path good = folder.AddLibrary(test_plugins::valid_a, "plugins/" + LibraryFileName("Test", "TestValidA"));
  RuntimeOptions options = OptionsFor({plugins});
  auto log = std::make_shared<CapturingLogSink>();
  options.log_sink = log;
  options.isolation.enabled = true;
  options.isolation.verdict_store = (folder / "store").string();
  options.library_filter = [](const DiscoveryRecord&) { return std::string("not wanted by the app"); };
  const auto runtime = Runtime::Create(options);
  CHECK(RecordFor(runtime->GetDiscoveryReport(), good.filename().string())->message == "not wanted by the app");
  CHECK_FALSE(log->Contains(LogLevel::kDebug, LogCategory::kPlugin, "plugin isolation: probing"));
}

}  // namespace
}  // namespace backplane::unit
