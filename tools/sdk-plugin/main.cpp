// sdk-plugin: installs, lists, verifies and removes third-party backend drops, manages the
// trusted publisher keys, and makes keys and signatures for vendors.
//
// Every check of a drop is the runtime's (public API only): install stages the drop in a hidden
// folder and creates a Runtime over it with plugin isolation, so the library is first loaded in
// a child process. Exits with a code scripts can test (exit_code.hpp, docs/sdk-plugin.md); with
// --json every outcome, errors included, is one JSON document on stdout.
#include "command_line.hpp"
#include "drop_folders.hpp"
#include "drop_install.hpp"
#include "drop_verification.hpp"
#include "exit_code.hpp"
#include "json_output.hpp"
#include "key_commands.hpp"
#include "terminal.hpp"
#include "text_output.hpp"
#include "text_style.hpp"
#include "tool_main.hpp"

#include <backplane/exception.hpp>

#include <exception>
#include <iostream>
#include <string>

namespace {

using namespace backplane;
using namespace backplane::sdk_plugin;

int Exit(ExitCode code) { return static_cast<int>(code); }

TrustOptions TrustOf(const CommandLine& command_line) {
  TrustOptions trust;
  trust.policy = command_line.policy;
  trust.key_folders = command_line.trust_folders;
  return trust;
}

// Writes what is buffered to stdout; throws ToolError (kCannotCreate) when stdout cannot take it.
void FlushStdout() {
  std::cout.flush();
  if (!std::cout) throw ToolError(ExitCode::kCannotCreate, "could not write to stdout");
}

int ReportError(bool json, Command command, const ToolError& error, bool usage_hint) {
  if (json) {
    std::cout << ErrorJson(command, error);
    std::cout.flush();
  } else {
    std::cerr << "sdk-plugin: " << error.what() << '\n';
    if (usage_hint) {
      std::cerr << "Try 'sdk-plugin " << (command == Command::kNone ? "" : std::string(ToString(command)) + " ")
                << "--help'.\n";
    }
  }
  return Exit(error.code());
}

int Install(const CommandLine& command_line, const tools::TextStyle& style) {
  InstallRequest request;
  request.drop = command_line.path;
  request.scope = command_line.scope;
  request.force = command_line.force;
  request.trust = TrustOf(command_line);
  request.timeout_seconds = command_line.timeout_seconds;
  const InstallResult result = InstallDrop(request);
  if (command_line.json) {
    std::cout << InstallJson(result);
  } else if (result.exit_code == ExitCode::kOk) {
    WriteInstallText(std::cout, result, style);
  } else {
    std::cerr << "sdk-plugin: " << result.error << '\n';
  }
  FlushStdout();
  return Exit(result.exit_code);
}

int Survey(const CommandLine& command_line, const tools::TextStyle& style) {
  const DropSurvey survey = SurveyDrops(command_line.scope, TrustOf(command_line), command_line.id);
  const bool verify = command_line.command == Command::kVerify;
  const ExitCode exit_code = verify && survey.Failed() > 0 ? ExitCode::kRejected : ExitCode::kOk;
  if (command_line.json) {
    std::cout << SurveyJson(command_line.command, survey, exit_code);
  } else if (verify) {
    WriteVerifyText(std::cout, survey, style);
    if (exit_code != ExitCode::kOk) {
      std::cerr << "sdk-plugin: " << survey.Failed() << " of " << tools::Plural(survey.drops.size(), "drop", "drops")
                << " failed verification\n";
    }
  } else {
    WriteListText(std::cout, survey, style);
  }
  FlushStdout();
  return Exit(exit_code);
}

int RunCommand(const CommandLine& command_line) {
  const tools::TextStyle style(!command_line.json && tools::ShouldColourStdout());
  std::ostream& out = std::cout;
  switch (command_line.command) {
    case Command::kInstall: return Install(command_line, style);
    case Command::kList:
    case Command::kVerify: return Survey(command_line, style);
    case Command::kRemove: {
      const RemovalResult result = RemoveDrops(command_line.id, command_line.version_filter, command_line.scope);
      if (command_line.json) out << RemovalJson(result); else WriteRemovalText(out, result, style);
      break;
    }
    case Command::kKeysList: {
      const TrustSettings settings = ListKeys();
      if (command_line.json) out << KeysJson(settings); else WriteKeysText(out, settings, style);
      break;
    }
    case Command::kKeysAdd: {
      const KeyAddResult result = AddKey(command_line.path, command_line.scope);
      if (command_line.json) out << KeyAddJson(result); else WriteKeyAddText(out, result, style);
      break;
    }
    case Command::kKeysRemove: {
      const KeyRemoveResult result = RemoveKeys(command_line.key_selector, command_line.scope);
      if (command_line.json) out << KeyRemoveJson(result); else WriteKeyRemoveText(out, result, style);
      break;
    }
    case Command::kKeygen: {
      const KeygenResult result = MakeKey(command_line.publisher, command_line.out_prefix);
      if (command_line.json) out << KeygenJson(result); else WriteKeygenText(out, result, style);
      break;
    }
    case Command::kSign: {
      const SignatureInfo signature = SignManifest(command_line.path, command_line.key_file, command_line.publisher);
      if (command_line.json) out << SignJson(command_line.path, signature); else WriteSignText(out, signature, style);
      break;
    }
    case Command::kNone: break;
  }
  FlushStdout();
  return Exit(ExitCode::kOk);
}

int Run(int argc, const char* const argv[]) {
  const bool json = WantsJson(argc, argv);
  CommandLine command_line;
  try {
    command_line = ParseCommandLine(argc, argv);
  } catch (const ToolError& error) {
    return ReportError(json, CommandOf(argc, argv), error, true);
  }
  if (command_line.help) {
    std::cout << (command_line.command == Command::kNone ? HelpText() : CommandHelpText(command_line.command));
    return Exit(ExitCode::kOk);
  }
  if (command_line.version) {
    std::cout << VersionText();
    return Exit(ExitCode::kOk);
  }
  try {
    return RunCommand(command_line);
  } catch (const ToolError& error) {
    return ReportError(command_line.json, command_line.command, error, false);
  } catch (const Exception& error) {
    return ReportError(command_line.json, command_line.command,
                       ToolError(ExitCode::kInternal, std::string("the runtime failed (") + ToString(error.code()) +
                                                          "): " + error.what()),
                       false);
  } catch (const std::exception& error) {
    return ReportError(command_line.json, command_line.command,
                       ToolError(ExitCode::kInternal, std::string("unexpected error: ") + error.what()), false);
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  // A plugin that ends the process while it is checked does not make the command look done.
  return tools::ToolMain("sdk-plugin", Exit(ExitCode::kInternal), argc, argv, Run);
}
