// sdk-info --json: the documents it prints (format 1.4; see docs/sdk-info.md and
// docs/sdk-info.schema.json), one per kind: "discovery", "summary", "backend", "error" here and
// "manifest_validation" in manifest_validation_report.hpp.
#pragma once

#include "exit_code.hpp"
#include "inventory.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace backplane::sdk_info {

// The documents' format version. Adding a field bumps the minor; removing, renaming or
// changing the meaning of one bumps the major.
// 1.1: backends[].options (the options each backend accepts).
// 1.2: search_paths[].normally_absent; records[].version and .layer; backends[].layer and
//      .preference; summary.superseded and .filtered (issue "Plugin marketplace drops").
// 1.3: trust, backends[].signature and records[].signature.
// 1.4: the kinds "summary" (--summary), "backend" (--backend ID) and "error" (any failure
//      under --json).
inline constexpr const char* kJsonFormatVersion = "1.4";

// The fields every document starts with, in order: format, kind, sdk_version,
// backend_api_version, platform, abi.
nlohmann::ordered_json DocumentHeader(const char* kind);

// `document` with status and exit_code appended, pretty-printed, ending in a newline. Strings
// are UTF-8; a path that is not valid UTF-8 has its bad bytes replaced with U+FFFD rather than
// failing.
std::string FinishDocument(nlohmann::ordered_json document, const char* status, ExitCode exit_code);

// "kind": "discovery": the whole inventory.
std::string JsonReport(const Inventory& inventory);

// "kind": "summary" (--summary): each registered backend in short (id, vendor, version,
// api_version, available, unavailable_reason, devices), the rejected records and the counts.
std::string JsonSummary(const Inventory& inventory);

// "kind": "backend" (--backend ID): inventory.backends[backend] as in the discovery document,
// and every record that carried its id, its own included. Status ok, exit code 0.
std::string JsonBackend(const Inventory& inventory, std::size_t backend);

// "kind": "error": {"code": ToString(code), "message": message}, with status and exit code
// `code`.
std::string JsonError(ExitCode code, const std::string& message);

}  // namespace backplane::sdk_info
