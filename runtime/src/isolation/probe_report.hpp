// The document backplane-plugin-probe prints on stdout for the library it loaded, and its
// reading on the runtime's side: one owner for both ends of the pipe.
#pragma once

#include <backplane/discovery_report.hpp>

#include <string>

namespace backplane::isolation {

// {"kind": "backplane-plugin-probe", "record": {library_path, verdict, stage, code, message,
// backend_id}} on one line. Never throws but for std::bad_alloc.
std::string ProbeReportJson(const DiscoveryRecord& record);

// True when `output` is a complete probe report for `library`: the child got through loading
// it (whatever the record's verdict). Never throws but for std::bad_alloc.
bool IsProbeReportFor(const std::string& output, const std::string& library);

}  // namespace backplane::isolation
