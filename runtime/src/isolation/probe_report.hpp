// backplane-plugin-probe's command line and the document it prints on stdout for the library it
// loaded: both written and read here, one owner for both ends of the pipe.
#pragma once

#include <backplane/discovery_report.hpp>
#include <backplane/trust.hpp>

#include <optional>
#include <string>
#include <vector>

namespace backplane::isolation {

// What the runtime asks of one probe: the library, and the trust settings the runtime itself
// applies, so that the child loads exactly what the parent would (under require: only verified
// bytes), whatever the child's environment and system configuration say. Value type.
struct ProbeRequest {
  std::string library;  // absolute, UTF-8
  TrustPolicy policy = TrustPolicy::kWarn;
  std::vector<std::string> key_folders;  // the parent's resolved folders, in order
};

// The probe's arguments (after the program): [--trust-policy P] [--trusted-keys FOLDER]... LIBRARY.
std::vector<std::string> ProbeArguments(const ProbeRequest& request);
// Reads ProbeArguments' output; nullopt with `error` set (what is wrong, for the usage line) for
// anything else. Never throws but for std::bad_alloc.
std::optional<ProbeRequest> ParseProbeArguments(const std::vector<std::string>& arguments, std::string& error);

// {"kind": "backplane-plugin-probe", "record": {library_path, verdict, stage, code, message,
// backend_id}} on one line. Never throws but for std::bad_alloc.
std::string ProbeReportJson(const DiscoveryRecord& record);

// True when `output` is a complete probe report for `library`: the child got through loading
// it (whatever the record's verdict). Never throws but for std::bad_alloc.
bool IsProbeReportFor(const std::string& output, const std::string& library);

}  // namespace backplane::isolation
