#include "command_line.hpp"

#include "exit_code.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace backplane::sdk_plugin {
namespace {

namespace fs = std::filesystem;

std::vector<const char*> Argv(std::vector<std::string>& arguments) {
  arguments.insert(arguments.begin(), "sdk-plugin");
  std::vector<const char*> argv;
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  return argv;
}

CommandLine Parse(std::vector<std::string> arguments) {
  const std::vector<const char*> argv = Argv(arguments);
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

// The usage error's message; "" (and a failed check) when parsing succeeds.
std::string UsageError(std::vector<std::string> arguments) {
  try {
    Parse(std::move(arguments));
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kUsage);
    return error.what();
  }
  FAIL_CHECK("the command line was accepted");
  return "";
}

std::string Absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

TEST_CASE("install: the drop made absolute, --user by default, trust and probe options") {
  const CommandLine plain = Parse({"install", "drops/Acme-1.0.tgz"});
  CHECK(plain.command == Command::kInstall);
  CHECK(plain.path == Absolute("drops/Acme-1.0.tgz"));
  CHECK(plain.scope == Scope::kUser);
  CHECK_FALSE(plain.force);
  CHECK_FALSE(plain.policy.has_value());
  CHECK(plain.trust_folders.empty());
  CHECK(plain.timeout_seconds == 10);
  CHECK_FALSE(plain.json);

  const CommandLine full = Parse({"install", "/d", "--system", "--force", "--policy", "require", "--trust-folder",
                                  "keys", "--trust-folder", "/k2", "--timeout", "2.5", "--json"});
  CHECK(full.scope == Scope::kSystem);
  CHECK(full.force);
  REQUIRE(full.policy.has_value());
  CHECK(*full.policy == TrustPolicy::kRequire);
  CHECK(full.trust_folders == std::vector<std::string>{Absolute("keys"), Absolute("/k2")});
  CHECK(full.timeout_seconds == 2.5);
  CHECK(full.json);
}

TEST_CASE("list and verify cover both drop folders unless told otherwise") {
  CHECK(Parse({"list"}).scope == Scope::kAll);
  CHECK(Parse({"list", "--user"}).scope == Scope::kUser);
  CHECK(Parse({"list", "--system"}).scope == Scope::kSystem);
  const CommandLine verify = Parse({"verify", "AcmeFast", "--policy", "off"});
  CHECK(verify.command == Command::kVerify);
  CHECK(verify.id == "AcmeFast");
  CHECK(verify.scope == Scope::kAll);
  CHECK(*verify.policy == TrustPolicy::kOff);
  CHECK(Parse({"verify"}).id.empty());
}

TEST_CASE("remove, keys, keygen and sign take their operands and options") {
  const CommandLine remove = Parse({"remove", "AcmeFast", "--version", "1.2.0"});
  CHECK(remove.command == Command::kRemove);
  CHECK(remove.id == "AcmeFast");
  CHECK(remove.version_filter == "1.2.0");
  CHECK(remove.scope == Scope::kUser);

  CHECK(Parse({"keys", "list"}).command == Command::kKeysList);
  const CommandLine add = Parse({"keys", "add", "acme.pub.json", "--system"});
  CHECK(add.command == Command::kKeysAdd);
  CHECK(add.path == Absolute("acme.pub.json"));
  CHECK(add.scope == Scope::kSystem);
  const CommandLine remove_key = Parse({"keys", "remove", "0123456789abcdef"});
  CHECK(remove_key.command == Command::kKeysRemove);
  CHECK(remove_key.key_selector == "0123456789abcdef");

  const CommandLine keygen = Parse({"keygen", "--publisher", "Acme Corp", "--out", "keys/acme"});
  CHECK(keygen.command == Command::kKeygen);
  CHECK(keygen.publisher == "Acme Corp");
  CHECK(keygen.out_prefix == Absolute("keys/acme"));

  const CommandLine sign = Parse({"sign", "Acme_Fast_backend.json", "--key", "acme.key"});
  CHECK(sign.command == Command::kSign);
  CHECK(sign.path == Absolute("Acme_Fast_backend.json"));
  CHECK(sign.key_file == Absolute("acme.key"));
  CHECK(sign.publisher.empty());
}

TEST_CASE("--help and --version, alone or after a command") {
  CHECK(Parse({"--help"}).help);
  CHECK(Parse({"-h"}).help);
  CHECK(Parse({"--version"}).version);
  const CommandLine install_help = Parse({"install", "--help"});
  CHECK(install_help.help);
  CHECK(install_help.command == Command::kInstall);
  // A command's --help needs none of its required operands.
  CHECK(Parse({"keygen", "--help"}).help);
}

TEST_CASE("bad command lines are usage errors that say what was wrong") {
  CHECK(UsageError({}) == "no command given");
  CHECK(UsageError({"frobnicate"}) == "unknown command 'frobnicate'");
  CHECK(UsageError({"keys"}) == "keys needs a second word: list, add or remove");
  CHECK(UsageError({"keys", "rotate"}) == "unknown command 'keys rotate'");
  CHECK(UsageError({"--json", "list"}) == "the command comes first, not the option '--json'");
  CHECK(UsageError({"install"}) == "install needs DROP");
  CHECK(UsageError({"install", ""}) == "install needs DROP, not an empty string");
  CHECK(UsageError({"install", "a", "b"}) == "install takes one DROP: too many arguments");
  CHECK(UsageError({"list", "x"}) == "list takes no operand: too many arguments");
  CHECK(UsageError({"remove"}) == "remove needs ID");
  CHECK(UsageError({"install", "d", "--user", "--system"}) == "--user and --system exclude each other");
  CHECK(UsageError({"list", "--all", "--user"}) == "--user, --system and --all exclude each other");
  CHECK(UsageError({"install", "d", "--policy", "strict"}) == "--policy 'strict': expected off, warn or require");
  CHECK(UsageError({"install", "d", "--timeout", "0"}) ==
        "--timeout needs a number of seconds above 0 and at most 86400");
  CHECK(UsageError({"remove", "X", "--version", ""}) == "--version needs a version, not an empty string");
  CHECK(UsageError({"keygen", "--out", "k"}) == "keygen needs --publisher NAME");
  CHECK(UsageError({"keygen", "--publisher", "Acme"}) == "keygen needs --out PREFIX");
  CHECK(UsageError({"sign", "m.json"}) == "sign needs --key KEY");
  CHECK(UsageError({"--help", "install"}).find("takes nothing after it") != std::string::npos);
}

TEST_CASE("each command accepts only its own options, spelled out") {
  // Install has no --all; list has no --force; remove has no --policy; keys list has no --user.
  CHECK(UsageError({"install", "d", "--all"}).find("unrecognised option '--all'") != std::string::npos);
  CHECK(UsageError({"list", "--force"}).find("unrecognised option '--force'") != std::string::npos);
  CHECK(UsageError({"remove", "X", "--policy", "off"}).find("unrecognised option '--policy'") != std::string::npos);
  CHECK(UsageError({"keys", "list", "--user"}).find("unrecognised option '--user'") != std::string::npos);
  // No abbreviations.
  CHECK(UsageError({"install", "d", "--forc"}).find("--forc") != std::string::npos);
  CHECK(UsageError({"install", "d", "--timeout", "soon"}).find("timeout") != std::string::npos);
}

TEST_CASE("WantsJson and CommandOf work on command lines that do not parse") {
  std::vector<std::string> arguments = {"install", "--bogus", "--json"};
  const std::vector<const char*> argv = Argv(arguments);
  CHECK(WantsJson(static_cast<int>(argv.size()), argv.data()));
  CHECK(CommandOf(static_cast<int>(argv.size()), argv.data()) == Command::kInstall);
  std::vector<std::string> keys = {"keys", "add"};
  const std::vector<const char*> keys_argv = Argv(keys);
  CHECK(CommandOf(static_cast<int>(keys_argv.size()), keys_argv.data()) == Command::kKeysAdd);
  CHECK_FALSE(WantsJson(static_cast<int>(keys_argv.size()), keys_argv.data()));
  std::vector<std::string> unknown = {"nope"};
  const std::vector<const char*> unknown_argv = Argv(unknown);
  CHECK(CommandOf(static_cast<int>(unknown_argv.size()), unknown_argv.data()) == Command::kNone);
}

TEST_CASE("the help texts name every command, the exit codes and each command's options") {
  const std::string help = HelpText();
  for (const char* text : {"install DROP", "list [", "verify [ID]", "remove ID", "keys list", "keys add FILE",
                           "keys remove KEY_ID_OR_PUBLISHER", "keygen --publisher NAME --out PREFIX",
                           "sign MANIFEST --key KEY", "64", "66", "70", "73", "77", "BACKPLANE_TRUST_POLICY",
                           "XDG_DATA_HOME", "XDG_CONFIG_HOME"}) {
    CHECK_MESSAGE(help.find(text) != std::string::npos, text);
  }
  const std::string install = CommandHelpText(Command::kInstall);
  for (const char* text : {"--user", "--system", "--force", "--policy", "--trust-folder", "--timeout", "--json"}) {
    CHECK_MESSAGE(install.find(text) != std::string::npos, text);
  }
  CHECK(install.find("--operand") == std::string::npos);
  CHECK(install.find("--all") == std::string::npos);
}

}  // namespace
}  // namespace backplane::sdk_plugin
