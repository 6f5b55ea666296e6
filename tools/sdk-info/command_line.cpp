#include "command_line.hpp"

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
       "print one JSON document instead of text (shape: docs/sdk-info.md)")
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
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  // Keep what the user wrote when the current folder is unknown: the runtime then reports the
  // path as it is, which says more than a usage error would.
  if (error) return path;
  return absolute.lexically_normal().string();
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

std::string HelpText() {
  CommandLine unused;
  std::ostringstream text;
  text << "Usage: sdk-info [--path DIR]... [--no-dynamic] [--no-static] [--isolate [--timeout S]]\n"
          "                [--json] [--verbose]\n"
          "       sdk-info --validate-manifest FILE... [--json]\n"
          "       sdk-info --help | --version\n"
          "\n"
          "Shows which Backplane backends this machine can use and why the others are not\n"
          "loaded: the SDK and Backend API versions, the backend search folders, every\n"
          "registered backend (capabilities, devices, availability) and every rejected\n"
          "candidate with its stage, reason code and message.\n"
          "\n"
       << Describe(unused)
       << "\n"
          "With --validate-manifest, sdk-info checks backend manifests instead (for backend\n"
          "authors' CI): readable, JSON, format version, every field, library file name and\n"
          "presence, platform, ABI and sha256, reporting every problem of each file.\n"
          "\n"
          "Exit status:\n"
          "  0   at least one backend registered and no candidate rejected (duplicates are\n"
          "      informational and do not count as rejected)\n"
          "  1   at least one backend registered, but some candidates were rejected\n"
          "  2   no backend registered at all\n"
          "  64  usage error (message on stderr)\n"
          "  70  internal error in the runtime (message on stderr)\n"
          "  With --validate-manifest: 0 when every manifest is valid, 1 when some are not.\n"
          "\n"
          "Environment:\n"
          "  " << kBackendPathsEnvVar << "  backend folders, used when no --path is given\n"
          "  BACKPLANE_LOG            runtime log categories to stderr, e.g. discovery:debug\n"
          "  NO_COLOR                 when set and not empty, no colour even on a terminal\n";
  return text.str();
}

std::string VersionText() {
  return "sdk-info (Backplane SDK " + ToString(kSdkVersion) + ")\nBackend API " +
         ToString(kBackendApiVersion) + "\n";
}

}  // namespace backplane::sdk_info
