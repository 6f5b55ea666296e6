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

// --summary: the header line, one line per registered backend (id, version, vendor, Backend
// API, availability, devices by name and kind), one line per rejected candidate (its file and
// reason code) and the summary line. options.verbose changes nothing.
void WriteSummaryText(std::ostream& out, const Inventory& inventory,
                      const TextReportOptions& options);

// --backend ID: the header line, inventory.backends[backend] as the full report shows it with
// its record's stage, code, message and warnings, and then "Other candidates with id ID": every
// other record that carried its id (duplicates, superseded, rejected copies).
void WriteBackendText(std::ostream& out, const Inventory& inventory, std::size_t backend,
                      const TextReportOptions& options);

}  // namespace backplane::sdk_info
