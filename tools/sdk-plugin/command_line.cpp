#include "command_line.hpp"

#include "documentation.hpp"

#include <backplane/path_text.hpp>
#include <backplane/version.hpp>

#include <boost/program_options.hpp>

#include <filesystem>
#include <iterator>
#include <sstream>

namespace backplane::sdk_plugin {

namespace po = boost::program_options;

namespace {

// The options a command accepts (--json and --help: all of them).
enum OptionSet : unsigned {
  kUserSystem = 1u << 0,  // --user, --system
  kAll = 1u << 1,         // --all
  kForce = 1u << 2,       // --force
  kTrust = 1u << 3,       // --policy, --trust-folder
  kTimeout = 1u << 4,     // --timeout
  kVersionFilter = 1u << 5,  // --version V
  kPublisher = 1u << 6,   // --publisher
  kOut = 1u << 7,         // --out
  kKey = 1u << 8,         // --key
};

// One command of the tool: how it is typed, what it takes, what it does. The table below is the
// single description the parser and both help texts are made from.
struct CommandSpec {
  Command command;
  const char* name;
  const char* synopsis;  // after "sdk-plugin "
  const char* summary;
  unsigned options;
  const char* operand;  // the positional argument's name; nullptr: none
  bool operand_required;
  Scope default_scope;
};

const CommandSpec kCommands[] = {
    {Command::kInstall, "install",
     "install DROP [--user|--system] [--force] [--policy P] [--trust-folder DIR]... [--timeout S]",
     "Checks a drop (a folder, or a .tar.gz, .tgz or .zip archive, holding one manifest, its\n"
     "library and optionally its .sig) with the runtime, loading its library first in a child\n"
     "process, and installs it into its own folder <manifest stem>-<version> of the drop folder.",
     kUserSystem | kForce | kTrust | kTimeout, "DROP", true, Scope::kUser},
    {Command::kList, "list", "list [--user|--system|--all] [--policy P] [--trust-folder DIR]...",
     "Lists the installed drops: id, version, vendor, signature and publisher, whether the\n"
     "manifest is valid, the folder. Opens no library.",
     kUserSystem | kAll | kTrust, nullptr, false, Scope::kAll},
    {Command::kVerify, "verify", "verify [ID] [--user|--system|--all] [--policy P] [--trust-folder DIR]...",
     "Checks each installed drop (of backend ID): its manifest and the library's sha256, and its\n"
     "signature under the policy. Prints every problem; exits 1 when a drop fails. Opens no\n"
     "library.",
     kUserSystem | kAll | kTrust, "ID", false, Scope::kAll},
    {Command::kRemove, "remove", "remove ID [--version V] [--user|--system]",
     "Removes the installed drops of backend ID (every version, or V only). ID may also be a\n"
     "drop's folder name, for a drop whose manifest cannot be read.",
     kUserSystem | kVersionFilter, "ID", true, Scope::kUser},
    {Command::kKeysList, "keys list", "keys list",
     "Lists the trusted-key folders with their source, every trusted key (publisher, key id,\n"
     "file) and the key files that are not used, with why.",
     0, nullptr, false, Scope::kAll},
    {Command::kKeysAdd, "keys add", "keys add FILE [--user|--system]",
     "Checks a publisher's key file (made by keygen) and copies it into the user's or the\n"
     "system's trusted-key folder as <key id>.json.",
     kUserSystem, "FILE", true, Scope::kUser},
    {Command::kKeysRemove, "keys remove", "keys remove KEY_ID_OR_PUBLISHER [--user|--system]",
     "Removes the trusted keys with that key id, or of that publisher, from the user's or the\n"
     "system's trusted-key folder.",
     kUserSystem, "KEY_ID_OR_PUBLISHER", true, Scope::kUser},
    {Command::kKeygen, "keygen", "keygen --publisher NAME --out PREFIX",
     "Makes an Ed25519 signing key for a vendor: PREFIX.key (the private key, mode 0600; keep it\n"
     "secret) and PREFIX.pub.json (the public key file users add with `keys add`).",
     kPublisher | kOut, nullptr, false, Scope::kUser},
    {Command::kSign, "sign", "sign MANIFEST --key KEY [--publisher NAME]",
     "Signs a manifest (which must give its library's sha256) with a private key: writes\n"
     "MANIFEST.sig beside it and prints the key id.",
     kKey | kPublisher, "MANIFEST", true, Scope::kUser},
};

const CommandSpec* FindSpec(Command command) {
  for (const CommandSpec& spec : kCommands) {
    if (spec.command == command) return &spec;
  }
  return nullptr;
}

// The values of one command's options, before they are checked.
struct RawOptions {
  bool help = false;
  bool json = false;
  bool user = false;
  bool system = false;
  bool all = false;
  bool force = false;
  std::string policy;
  std::vector<std::string> trust_folders;
  double timeout_seconds = 10;
  std::string version_filter;
  std::string publisher;
  std::string out_prefix;
  std::string key_file;
  std::string operand;
};

po::options_description Describe(const CommandSpec& spec, RawOptions& into) {
  po::options_description options("Options", 100, 50);
  auto add = options.add_options();
  if (spec.options & kUserSystem) {
    add("user", po::bool_switch(&into.user),
        spec.command == Command::kKeysAdd || spec.command == Command::kKeysRemove
            ? "the user's trusted-key folder (the default)"
            : (spec.default_scope == Scope::kUser ? "the user's drop folder (the default)"
                                                  : "the user's drop folder only"));
    add("system", po::bool_switch(&into.system),
        spec.command == Command::kKeysAdd || spec.command == Command::kKeysRemove
            ? "the machine's trusted-key folder (needs the right to write it)"
            : (spec.default_scope == Scope::kUser
                   ? "the machine's drop folder (needs the right to write it)"
                   : "the machine's drop folder only"));
  }
  if (spec.options & kAll) add("all", po::bool_switch(&into.all), "both drop folders (the default)");
  if (spec.options & kForce) {
    add("force", po::bool_switch(&into.force),
        "replace an installed drop of the same id and version");
  }
  if (spec.options & kTrust) {
    add("policy", po::value<std::string>(&into.policy)->value_name("P"),
        "signature policy: off, warn or require (default: BACKPLANE_TRUST_POLICY, else the "
        "machine's configuration, else warn)");
    add("trust-folder", po::value<std::vector<std::string>>(&into.trust_folders)->value_name("DIR")->composing(),
        "a folder of trusted keys; repeatable. Replaces the default folders (user, system, "
        "installation)");
  }
  if (spec.options & kTimeout) {
    add("timeout", po::value<double>(&into.timeout_seconds)->value_name("S"),
        "how long the library may take to load in the child process before it is killed "
        "(default 10)");
  }
  if (spec.options & kVersionFilter) {
    add("version", po::value<std::string>(&into.version_filter)->value_name("V"),
        "remove only version V");
  }
  if (spec.options & kPublisher) {
    add("publisher", po::value<std::string>(&into.publisher)->value_name("NAME"),
        spec.command == Command::kKeygen ? "who the key belongs to (required)"
                                         : "the publisher the signature claims (default: the "
                                           "manifest's vendor)");
  }
  if (spec.options & kOut) {
    add("out", po::value<std::string>(&into.out_prefix)->value_name("PREFIX"),
        "write PREFIX.key and PREFIX.pub.json (required; neither may exist)");
  }
  if (spec.options & kKey) {
    add("key", po::value<std::string>(&into.key_file)->value_name("KEY"),
        "the PEM private key file (from keygen, or `openssl genpkey -algorithm ed25519`; required)");
  }
  add("json", po::bool_switch(&into.json), "print one JSON document instead of text");
  add("help,h", po::bool_switch(&into.help), "print this help and exit");
  if (spec.operand != nullptr) {
    // Hidden: the positional operand.
    add("operand", po::value<std::string>(&into.operand));
  }
  return options;
}

std::string MakeAbsolute(const std::string& path, const std::string& what) {
  if (path.empty()) throw ToolError(ExitCode::kUsage, what + " needs a path, not an empty string");
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(PathFromUtf8(path), error);
  if (error) return path;  // the command then reports the path as it is
  return PathToUtf8(absolute.lexically_normal());
}

// The command words at the start of `arguments`; how many were used goes to `words`.
const CommandSpec* ParseCommandWords(const std::vector<std::string>& arguments, std::size_t& words) {
  if (arguments.empty()) return nullptr;
  std::string name = arguments[0];
  words = 1;
  if (name == "keys") {
    if (arguments.size() < 2 || arguments[1].empty() || arguments[1][0] == '-') {
      throw ToolError(ExitCode::kUsage, "keys needs a second word: list, add or remove");
    }
    name += " " + arguments[1];
    words = 2;
  }
  for (const CommandSpec& spec : kCommands) {
    if (name == spec.name) return &spec;
  }
  throw ToolError(ExitCode::kUsage, "unknown command '" + name + "'");
}

void CheckScope(const CommandSpec& spec, const RawOptions& raw, CommandLine& command_line) {
  const int chosen = (raw.user ? 1 : 0) + (raw.system ? 1 : 0) + (raw.all ? 1 : 0);
  if (chosen > 1) {
    throw ToolError(ExitCode::kUsage,
                    std::string(spec.options & kAll ? "--user, --system and --all" : "--user and --system") +
                        " exclude each other");
  }
  command_line.scope = raw.user ? Scope::kUser : raw.system ? Scope::kSystem : raw.all ? Scope::kAll
                                                                                : spec.default_scope;
}

}  // namespace

const char* ToString(Command command) {
  const CommandSpec* spec = FindSpec(command);
  return spec != nullptr ? spec->name : "";
}

const char* ToString(Scope scope) {
  switch (scope) {
    case Scope::kUser: return "user";
    case Scope::kSystem: return "system";
    case Scope::kAll: return "all";
  }
  return "unknown";
}

bool WantsJson(int argc, const char* const argv[]) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--json") return true;
  }
  return false;
}

Command CommandOf(int argc, const char* const argv[]) {
  const std::vector<std::string> arguments(argv + (argc > 0 ? 1 : 0), argv + argc);
  try {
    std::size_t words = 0;
    const CommandSpec* spec = ParseCommandWords(arguments, words);
    return spec != nullptr ? spec->command : Command::kNone;
  } catch (const ToolError&) {
    return Command::kNone;
  }
}

CommandLine ParseCommandLine(int argc, const char* const argv[]) {
  const std::vector<std::string> arguments(argv + (argc > 0 ? 1 : 0), argv + argc);
  CommandLine command_line;
  if (arguments.empty()) throw ToolError(ExitCode::kUsage, "no command given");
  if (arguments[0] == "--help" || arguments[0] == "-h" || arguments[0] == "--version") {
    if (arguments.size() > 1) {
      throw ToolError(ExitCode::kUsage, arguments[0] + " takes nothing after it; for a command's "
                                                       "help: sdk-plugin COMMAND --help");
    }
    command_line.help = arguments[0] != "--version";
    command_line.version = arguments[0] == "--version";
    return command_line;
  }
  if (!arguments[0].empty() && arguments[0][0] == '-') {
    throw ToolError(ExitCode::kUsage, "the command comes first, not the option '" + arguments[0] + "'");
  }

  std::size_t words = 0;
  const CommandSpec& spec = *ParseCommandWords(arguments, words);
  command_line.command = spec.command;
  const std::vector<std::string> rest(arguments.begin() + static_cast<std::ptrdiff_t>(words), arguments.end());

  RawOptions raw;
  const po::options_description options = Describe(spec, raw);
  po::positional_options_description positional;
  if (spec.operand != nullptr) positional.add("operand", 1);
  po::variables_map values;
  try {
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(rest).options(options).positional(positional).style(style).run(), values);
    po::notify(values);
  } catch (const po::too_many_positional_options_error&) {
    throw ToolError(ExitCode::kUsage, std::string(spec.name) + " takes " +
                                          (spec.operand != nullptr ? std::string("one ") + spec.operand
                                                                   : std::string("no operand")) +
                                          ": too many arguments");
  } catch (const po::error& error) {
    throw ToolError(ExitCode::kUsage, std::string(spec.name) + ": " + error.what());
  }
  command_line.help = raw.help;
  command_line.json = raw.json;
  if (command_line.help) return command_line;

  CheckScope(spec, raw, command_line);
  command_line.force = raw.force;
  if (values.count("policy") != 0) {
    command_line.policy = TrustPolicyFromString(raw.policy);
    if (!command_line.policy) {
      throw ToolError(ExitCode::kUsage, "--policy '" + raw.policy + "': expected off, warn or require");
    }
  }
  for (const std::string& folder : raw.trust_folders) {
    command_line.trust_folders.push_back(MakeAbsolute(folder, "--trust-folder"));
  }
  if (values.count("timeout") != 0 &&
      (!(raw.timeout_seconds > 0) || raw.timeout_seconds > 86400)) {
    throw ToolError(ExitCode::kUsage, "--timeout needs a number of seconds above 0 and at most 86400");
  }
  command_line.timeout_seconds = raw.timeout_seconds;
  if (values.count("version") != 0 && raw.version_filter.empty()) {
    throw ToolError(ExitCode::kUsage, "--version needs a version, not an empty string");
  }
  command_line.version_filter = raw.version_filter;

  if (spec.operand != nullptr && spec.operand_required && values.count("operand") == 0) {
    throw ToolError(ExitCode::kUsage, std::string(spec.name) + " needs " + spec.operand);
  }
  if (values.count("operand") != 0 && raw.operand.empty()) {
    throw ToolError(ExitCode::kUsage, std::string(spec.name) + " needs " + spec.operand + ", not an empty string");
  }
  switch (spec.command) {
    case Command::kInstall:
    case Command::kKeysAdd:
    case Command::kSign:
      command_line.path = MakeAbsolute(raw.operand, spec.operand);
      break;
    case Command::kVerify:
    case Command::kRemove:
      command_line.id = raw.operand;
      break;
    case Command::kKeysRemove:
      command_line.key_selector = raw.operand;
      break;
    default:
      break;
  }

  if (spec.command == Command::kKeygen) {
    if (values.count("publisher") == 0) throw ToolError(ExitCode::kUsage, "keygen needs --publisher NAME");
    if (values.count("out") == 0) throw ToolError(ExitCode::kUsage, "keygen needs --out PREFIX");
    command_line.out_prefix = MakeAbsolute(raw.out_prefix, "--out");
  }
  if (spec.command == Command::kSign) {
    if (values.count("key") == 0) throw ToolError(ExitCode::kUsage, "sign needs --key KEY");
    command_line.key_file = MakeAbsolute(raw.key_file, "--key");
  }
  if (values.count("publisher") != 0 && raw.publisher.empty()) {
    throw ToolError(ExitCode::kUsage, "--publisher needs a name, not an empty string");
  }
  command_line.publisher = raw.publisher;
  return command_line;
}

std::string HelpText() {
  std::ostringstream text;
  text << "Usage: sdk-plugin COMMAND [OPTIONS] [--json]\n"
          "       sdk-plugin COMMAND --help | sdk-plugin --help | sdk-plugin --version\n"
          "\n"
          "Installs, lists, verifies and removes third-party Backplane backend drops, manages\n"
          "the trusted publisher keys, and makes keys and signatures for vendors.\n"
          "\n"
          "Commands:\n";
  for (const CommandSpec& spec : kCommands) text << "  sdk-plugin " << spec.synopsis << "\n";
  text << "\n"
          "Every command takes --json (one JSON document on stdout, errors included) and --help.\n"
          "\n"
          "Exit status:\n"
          "  0   ok\n"
          "  1   a drop, manifest or key was rejected, or a verification failed\n"
          "  64  usage error\n"
          "  66  input missing: no such drop, file, backend id or key\n"
          "  70  internal error\n"
          "  73  cannot create: the drop or key is already there (install without --force,\n"
          "      keygen), or the destination cannot be written\n"
          "  77  permission denied (e.g. --system without the right to write its folder)\n"
          "\n"
          "Environment:\n"
          "  XDG_DATA_HOME           the user's drop folder is $XDG_DATA_HOME/backplane/backends\n"
          "  XDG_CONFIG_HOME         the user's trusted keys are in $XDG_CONFIG_HOME/backplane/trusted-keys\n"
          "  " << kTrustPolicyEnvVar << "  the default signature policy (off, warn, require)\n"
          "  NO_COLOR                when set and not empty, no colour even on a terminal\n"
          "  TERM                    when \"dumb\", no colour even on a terminal\n"
          "\n"
          "More: " << tools::DocumentationPath("sdk-plugin.md") << "\n";
  return text.str();
}

std::string CommandHelpText(Command command) {
  const CommandSpec* spec = FindSpec(command);
  if (spec == nullptr) return HelpText();
  RawOptions unused;
  po::options_description options = Describe(*spec, unused);
  // The operand is described by the synopsis, not as an option.
  po::options_description visible("Options", 100, 50);
  for (const auto& option : options.options()) {
    if (option->long_name() != "operand") visible.add(option);
  }
  std::ostringstream text;
  text << "Usage: sdk-plugin " << spec->synopsis << " [--json]\n\n" << spec->summary << "\n\n" << visible
       << "\nExit status: see sdk-plugin --help.\n";
  return text.str();
}

std::string VersionText() { return "sdk-plugin (Backplane SDK " + ToString(kSdkVersion) + ")\n"; }

}  // namespace backplane::sdk_plugin
