#include "isolated_probe.hpp"

#include "process_status.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/process/args.hpp>
#include <boost/process/async.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/io.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <future>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace backplane::sdk_info {

namespace bp = boost::process;
using Clock = std::chrono::steady_clock;

namespace {

// True when `out` holds the child's probe document for `library` (it reached the end of the
// probe rather than exiting from inside the library).
bool FinishedProbe(const std::string& out, const std::string& library) {
  const nlohmann::json document = nlohmann::json::parse(out, nullptr, false);
  if (document.is_discarded() || !document.is_object()) return false;
  if (document.value("kind", "") != "probe") return false;
  const auto record = document.find("record");
  return record != document.end() && record->is_object() &&
         record->value("library_path", "") == library;
}

std::vector<std::string> ChildArguments(const ProbeSettings& settings, const std::string& library) {
  std::vector<std::string> arguments = {"--probe-one", library};
  for (const std::string& path : settings.paths) {
    arguments.push_back("--path");
    arguments.push_back(path);
  }
  if (settings.verbose) arguments.push_back("--verbose");
  return arguments;
}

}  // namespace

std::string FormatSeconds(double seconds) {
  std::ostringstream text;
  text << seconds << " s";
  return text.str();
}

std::string ProbeInChildProcess(const ProbeSettings& settings, const DiscoveryRecord& candidate) {
  const std::string& library = candidate.library_path;
  boost::asio::io_context io;
  std::future<std::string> out;
  std::error_code start_error;
  bp::child child = settings.verbose
      ? bp::child(bp::exe = settings.program, bp::args = ChildArguments(settings, library),
                  bp::std_in < bp::null, bp::std_out > out, io, start_error)
      : bp::child(bp::exe = settings.program, bp::args = ChildArguments(settings, library),
                  bp::std_in < bp::null, bp::std_out > out, bp::std_err > bp::null, io,
                  start_error);
  if (start_error) {
    throw std::runtime_error("cannot start " + settings.program + " to probe " + library + ": " +
                             start_error.message());
  }

  // Reads the child's stdout until it closes, then polls until the child is gone: a child
  // that closed stdout but kept running must not make this wait past the deadline.
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(settings.timeout_seconds));
  io.run_until(deadline);
  std::error_code error;
  while (child.running(error) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (child.running(error)) {
    child.terminate(error);  // SIGKILL / TerminateProcess; also reaps the child
    return library + " did not finish loading within " + FormatSeconds(settings.timeout_seconds) +
           " (the probe process was killed; sdk-info did not load it)";
  }
  child.wait(error);
  io.run_for(std::chrono::milliseconds(100));  // deliver what the pipe still holds

  const bool finished = out.wait_for(std::chrono::seconds(0)) == std::future_status::ready &&
                        FinishedProbe(out.get(), library);
  const ProcessStatus status = DecodeNativeExitStatus(child.native_exit_code());
  if (status.crashed) {
    return library + (finished ? " crashed after loading, while being unloaded ("
                               : " crashed while loading (") +
           status.crash + ") in the probe process; sdk-info did not load it";
  }
  if (!finished || status.exit_code != 0) {
    return library + " made the probe process exit with status " +
           std::to_string(status.exit_code) +
           " before it finished loading; sdk-info did not load it";
  }
  return "";
}

}  // namespace backplane::sdk_info
