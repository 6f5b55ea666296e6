#include "command_line.hpp"

#include "documentation.hpp"

#include <backplane/path_text.hpp>
#include <backplane/runtime.hpp>
#include <backplane/version.hpp>

#include <boost/program_options.hpp>

#include <filesystem>
#include <sstream>

namespace backplane::sdk_info {

namespace po = boost::program_options;

namespace {

po::options_description Describe(CommandLine& into) {
  po::options_description options("Options", 100, 50);
  options.add_options()
      ("help,h", po::bool_switch(&into.help), "print this help and exit")
      ("version", po::bool_switch(&into.version), "print the SDK and Backend API versions and exit")
      ("path", po::value<std::vector<std::string>>(&into.paths)->value_name("DIR")->composing(),
       "search DIR for backends; repeatable, in order. Replaces every other search layer "
       "(BACKPLANE_BACKEND_PATHS, the added and drop folders, the compiled-in list and the "
       "default folder). A relative DIR is taken from the current folder")
      ("no-dynamic", po::bool_switch(&into.no_dynamic),
       "load no plugin at all (static backends only)")
      ("no-static", po::bool_switch(&into.no_static),
       "ignore backends linked into the runtime")
      ("summary", po::bool_switch(&into.summary),
       "one line per registered backend (id, version, availability, devices) and per rejected "
       "candidate (file and reason code), then the summary line")
      ("backend", po::value<std::string>(&into.backend_id)->value_name("ID"),
       "show the registered backend ID alone, in full: details, devices, the options it accepts "
       "(sdk-run --backend-option), its discovery record and any other candidate with the same "
       "id. When ID is not registered, exits 66 naming the ids that are")
      ("validate-manifest",
       po::value<std::vector<std::string>>(&into.manifests)->value_name("FILE...")->multitoken(),
       "check each manifest FILE as discovery would before opening its library, report every "
       "problem of each, and exit 0 when all are valid, 1 otherwise. Creates no runtime")
      ("isolate", po::bool_switch(&into.isolate),
       "load each plugin library first in a child process (the runtime's plugin isolation, "
       "backplane-plugin-probe) with a time limit: a library that crashes or hangs while "
       "loading is reported as rejected (code library_refused) and never loaded by sdk-info. "
       "Every library is probed again and the verdicts are stored for apps that use isolation")
      ("timeout", po::value<double>(&into.timeout_seconds)->value_name("SECONDS"),
       "with --isolate: how long one library may take to load before its probe is killed "
       "(default 10)")
      ("json", po::bool_switch(&into.json),
       "print one JSON document instead of text, errors included (shape: docs/sdk-info.md and "
       "share/backplane/sdk-info.schema.json)")
      ("output,o", po::value<std::string>(&into.output_file)->value_name("FILE"),
       "write the report (text or JSON) to FILE, created or truncated, instead of stdout; no "
       "colour. Errors still go to stderr (or, with --json, to stdout). Exits 73 when FILE cannot "
       "be written")
      ("verbose,v", po::bool_switch(&into.verbose),
       "more detail (stages and warnings of registered backends), and every log message of the "
       "runtime, debug level included, on stderr");
  return options;
}

std::string MakeAbsolute(const std::string& path, const char* option, const char* what) {
  if (path.empty()) {
    throw UsageError(std::string(option) + " needs " + what + ", not an empty string");
  }
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(PathFromUtf8(path), error);
  // Keep what the user wrote when the current folder is unknown: the runtime then reports the
  // path as it is, which says more than a usage error would.
  if (error) return path;
  return PathToUtf8(absolute.lexically_normal());
}

}  // namespace

CommandLine ParseCommandLine(int argc, const char* const argv[]) {
  CommandLine command_line;
  po::options_description options = Describe(command_line);
  po::variables_map values;
  try {
    const int style = po::command_line_style::default_style &
                      ~po::command_line_style::allow_guessing;
    const po::positional_options_description no_positional_arguments;
    po::store(po::command_line_parser(argc, argv)
                  .options(options)
                  .positional(no_positional_arguments)
                  .style(style)
                  .run(),
              values);
    po::notify(values);
  } catch (const po::error& error) {
    throw UsageError(error.what());
  }
  if (!command_line.manifests.empty() &&
      (!command_line.paths.empty() || command_line.no_dynamic || command_line.no_static)) {
    throw UsageError(
        "--validate-manifest checks files and creates no runtime: it takes no --path, "
        "--no-dynamic or --no-static");
  }
  if (!command_line.manifests.empty() && command_line.isolate) {
    throw UsageError("--validate-manifest opens no library: it takes no --isolate");
  }
  const bool backend_given = values.count("backend") != 0;
  if (!command_line.manifests.empty() && (command_line.summary || backend_given)) {
    throw UsageError("--validate-manifest reports on files, not backends: it takes no --summary or "
                     "--backend");
  }
  if (command_line.summary && backend_given) {
    throw UsageError("--summary and --backend choose different reports: give one of them");
  }
  if (backend_given && command_line.backend_id.empty()) {
    throw UsageError("--backend needs a backend id, not an empty string");
  }
  if (values.count("output") != 0 && command_line.output_file.empty()) {
    throw UsageError("--output needs a file name, not an empty string");
  }
  if (!command_line.isolate && values.count("timeout") != 0) {
    throw UsageError("--timeout applies to --isolate only");
  }
  if (!(command_line.timeout_seconds > 0) || command_line.timeout_seconds > 86400) {
    throw UsageError("--timeout needs a number of seconds above 0 and at most 86400");
  }
  for (std::string& dir : command_line.paths) dir = MakeAbsolute(dir, "--path", "a folder");
  for (std::string& file : command_line.manifests) {
    file = MakeAbsolute(file, "--validate-manifest", "a file");
  }
  return command_line;
}

bool WantsJson(int argc, const char* const argv[]) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--json") return true;
  }
  return false;
}

std::string HelpText() {
  CommandLine unused;
  std::ostringstream text;
  text << "Usage: sdk-info [--path DIR]... [--no-dynamic] [--no-static] [--isolate [--timeout S]]\n"
          "                [--summary | --backend ID] [--json] [--output FILE] [--verbose]\n"
          "       sdk-info --validate-manifest FILE... [--json] [--output FILE]\n"
          "       sdk-info --help | --version\n"
          "\n"
          "Shows which Backplane backends this machine can use and why the others are not\n"
          "loaded: the SDK and Backend API versions, the backend search folders, every\n"
          "registered backend (capabilities, devices, options, availability) and every rejected\n"
          "candidate with its stage, reason code and message. --summary shortens this to one\n"
          "line per backend and per rejected candidate; --backend ID shows one backend alone.\n"
          "\n"
       << Describe(unused)
       << "\n"
          "With --validate-manifest, sdk-info checks backend manifests instead (for backend\n"
          "authors' CI): readable, JSON, format version, every field, library file name and\n"
          "presence, platform, ABI and sha256, reporting every problem of each file.\n"
          "\n"
          "Errors go to stderr, one line starting with 'sdk-info: '. With --json they are one\n"
          "JSON document on stdout instead (\"kind\": \"error\", with the code and message), never\n"
          "in the --output file, and the exit status is the same.\n"
          "\n"
          "Exit status:\n"
          "  0   at least one backend registered and no candidate rejected (duplicates are\n"
          "      informational and do not count as rejected)\n"
          "  1   at least one backend registered, but some candidates were rejected\n"
          "  2   no backend registered at all\n"
          "  64  usage error\n"
          "  66  --backend ID: no backend with that id is registered\n"
          "  70  internal error in the runtime\n"
          "  73  the report could not be written (the --output FILE, or stdout)\n"
          "  With --summary: as without it. With --backend ID: 0 when ID is registered (available\n"
          "  or not), else 66. With --validate-manifest: 0 when every manifest is valid, 1 when\n"
          "  some are not.\n"
          "\n"
          "Environment:\n"
          "  " << kBackendPathsEnvVar << "  backend folders, used when no --path is given\n"
          "  BACKPLANE_LOG            runtime log categories to stderr, e.g. discovery:debug\n"
          "  NO_COLOR                 when set and not empty, no colour even on a terminal\n"
          "  TERM                     when \"dumb\", no colour even on a terminal\n"
          "\n"
          "More: " << tools::DocumentationPath("sdk-info.md") << "\n";
  return text.str();
}

std::string VersionText() {
  return "sdk-info (Backplane SDK " + ToString(kSdkVersion) + ")\nBackend API " +
         ToString(kBackendApiVersion) + "\n";
}

}  // namespace backplane::sdk_info
