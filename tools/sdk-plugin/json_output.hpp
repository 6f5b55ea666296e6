// sdk-plugin --json: one JSON document on stdout per run, errors included (docs/sdk-plugin.md).
// Every document has "format", "command", "exit_code" and "status" (the exit code's name),
// then the command's own fields; a failed command has "error" (the message).
#pragma once

#include "command_line.hpp"
#include "drop_folders.hpp"
#include "drop_install.hpp"
#include "drop_verification.hpp"
#include "exit_code.hpp"
#include "key_commands.hpp"

#include <string>

namespace backplane::sdk_plugin {

// The documents' format version. Adding a field bumps the minor; removing, renaming or changing
// the meaning of one bumps the major.
inline constexpr const char* kJsonFormatVersion = "1.0";

// Each returns the whole document, pretty-printed, ending in a newline. A string that is not
// valid UTF-8 (a path) has its bad bytes replaced with U+FFFD.
std::string InstallJson(const InstallResult& result);
std::string SurveyJson(Command command, const DropSurvey& survey, ExitCode exit_code);  // list, verify
std::string RemovalJson(const RemovalResult& result);
std::string KeysJson(const TrustSettings& settings);
std::string KeyAddJson(const KeyAddResult& result);
std::string KeyRemoveJson(const KeyRemoveResult& result);
std::string KeygenJson(const KeygenResult& result);
std::string SignJson(const std::string& manifest, const SignatureInfo& signature);
// A command that failed with `error` (or a command line that did not parse: `command` kNone).
std::string ErrorJson(Command command, const ToolError& error);

}  // namespace backplane::sdk_plugin
