// sdk-info's command line: what the user asked for.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace backplane::sdk_info {

struct CommandLine {
  bool help = false;
  bool version = false;
  bool json = false;
  bool verbose = false;
  bool no_dynamic = false;  // RuntimeOptions::enable_dynamic_backends = false
  bool no_static = false;   // RuntimeOptions::enable_static_backends = false
  // --path values in the order given, made absolute against the current folder (the runtime
  // accepts absolute folders only). Empty: the runtime's own precedence applies.
  std::vector<std::string> paths;
  // --validate-manifest FILE...: check these manifests instead of creating a runtime. Made
  // absolute like `paths`. Empty: no validation asked for.
  std::vector<std::string> manifests;
  // --isolate: RuntimeOptions::isolation with reprobe (each library is probed afresh).
  bool isolate = false;
  double timeout_seconds = 10;  // --timeout: per probe, with --isolate
  // --summary: one line per registered backend and per rejected candidate.
  bool summary = false;
  // --backend ID: that backend alone, in full. Empty: every backend.
  std::string backend_id;
  // --output FILE: where the report goes (created or truncated), as given. Empty: stdout.
  std::string output_file;
};

// A bad command line. what() says what was wrong, without a "sdk-info:" prefix.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses argv with Boost.Program_options. Options must be spelled out (no abbreviations);
// positional arguments are refused, and so are --path, --no-dynamic, --no-static, --isolate,
// --summary and --backend together with --validate-manifest (which creates no runtime);
// --summary and --backend exclude each other; --timeout needs --isolate and a positive number;
// --backend and --output need a non-empty value. Throws UsageError for anything it cannot accept.
CommandLine ParseCommandLine(int argc, const char* const argv[]);

// True when an argument is exactly "--json": errors, a bad command line included, are then
// reported as a JSON document. Options are never abbreviated, so no other spelling counts.
bool WantsJson(int argc, const char* const argv[]);

// The --help and --version texts, each ending in a newline.
std::string HelpText();
std::string VersionText();

}  // namespace backplane::sdk_info
