// sdk-info's human-readable output.
#pragma once

#include "inventory.hpp"

#include <ostream>

namespace backplane::sdk_info {

struct TextReportOptions {
  bool colour = false;   // ANSI colour sequences (only when stdout is a terminal)
  bool verbose = false;  // stage, code, message and warnings of registered backends too
};

// Writes the groups "Search paths", "Backends", "Rejected candidates", "Other candidates" and
// a one-line summary. Every record of the report appears exactly once.
void WriteTextReport(std::ostream& out, const Inventory& inventory,
                     const TextReportOptions& options);

}  // namespace backplane::sdk_info
