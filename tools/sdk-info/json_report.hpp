// sdk-info --json: the inventory as one JSON document (format 1.1, "kind": "discovery"; see
// docs/sdk-info.md).
#pragma once

#include "inventory.hpp"

#include <string>

namespace backplane::sdk_info {

// The document's format version. Adding a field bumps the minor; removing, renaming or
// changing the meaning of one bumps the major.
// 1.1: backends[].options (the options each backend accepts).
// 1.2: search_paths[].normally_absent; records[].version and .layer; backends[].layer and
//      .preference; summary.superseded and .filtered (issue "Plugin marketplace drops").
inline constexpr const char* kJsonFormatVersion = "1.3";

// The whole document, pretty-printed, ending in a newline. Strings are UTF-8; a path that is
// not valid UTF-8 has its bad bytes replaced with U+FFFD rather than failing.
std::string JsonReport(const Inventory& inventory);

}  // namespace backplane::sdk_info
