// sdk-plugin's command line: which command, on what, with which options.
#pragma once

#include "exit_code.hpp"

#include <backplane/trust.hpp>

#include <optional>
#include <string>
#include <vector>

namespace backplane::sdk_plugin {

enum class Command {
  kNone,  // --help or --version without a command
  kInstall,
  kList,
  kVerify,
  kRemove,
  kKeysList,
  kKeysAdd,
  kKeysRemove,
  kKeygen,
  kSign,
};

// The command's name as typed: "install", ..., "keys list", "keygen", "sign"; "" for kNone.
const char* ToString(Command command);

// Which drop folders (GetBackendFolders) or key folders (TrustSettings) a command works on.
enum class Scope {
  kUser,    // --user: the current user's
  kSystem,  // --system: the machine's
  kAll,     // --all: both (list and verify only)
};
const char* ToString(Scope scope);  // "user", "system", "all"

struct CommandLine {
  Command command = Command::kNone;
  bool help = false;     // --help: of the command, or of the tool when there is none
  bool version = false;  // --version (only without a command)
  bool json = false;
  // --user / --system / --all; the default is the command's: kUser for install, remove and
  // keys add/remove, kAll for list and verify.
  Scope scope = Scope::kUser;
  bool force = false;  // install --force
  // --policy and --trust-folder (install, list, verify): RuntimeOptions::trust. The folders are
  // absolute; empty: the default key folders.
  std::optional<TrustPolicy> policy;
  std::vector<std::string> trust_folders;
  double timeout_seconds = 10;  // install --timeout: the isolation probe's time limit
  // install DROP, keys add FILE, sign MANIFEST: absolute.
  std::string path;
  std::string id;              // verify [ID], remove ID
  std::string version_filter;  // remove --version V; "" = every version
  std::string key_selector;    // keys remove KEY_ID_OR_PUBLISHER
  std::string publisher;       // keygen --publisher, sign --publisher ("" = the manifest's vendor)
  std::string out_prefix;      // keygen --out PREFIX, absolute
  std::string key_file;        // sign --key KEY, absolute
};

// True when argv asks for JSON (a "--json" argument anywhere), so that even a usage error can be
// reported as a JSON document.
bool WantsJson(int argc, const char* const argv[]);

// The command named by argv ("install", "keys add", ...), kNone when there is none or it is
// unknown: for error reports made before or without a full parse.
Command CommandOf(int argc, const char* const argv[]);

// Parses argv: the command first (`keys` takes a second word), then its options and operands
// with Boost.Program_options. Options must be spelled out (no abbreviations), each command
// accepts only its own options, and paths are made absolute against the current folder.
// Throws ToolError (kUsage) for anything it cannot accept; what() says what was wrong.
CommandLine ParseCommandLine(int argc, const char* const argv[]);

// The tool's --help, a command's --help, and --version; each ends in a newline.
std::string HelpText();
std::string CommandHelpText(Command command);
std::string VersionText();

}  // namespace backplane::sdk_plugin
