// Issue 2's discovery benchmark: what Runtime::Create costs per rejected candidate.
//
// Five folders are built in a scratch folder: (a) copies of the bundled plugins with their
// manifests, (b) the same plus M = 1000 unrelated files and N = 100 invalid manifests of mixed
// kinds, (c) only that junk, (d) nothing, (e) only the unrelated files. Runtime::Create is timed
// over each, interleaved in rotating order for several rounds; the table shows medians. The
// junk costs (b)-(a) in all, which is the total apart from the plugins' own load time; per
// rejected candidate ((b)-(a))/N and (c)/N. The plugins' own load time is (a)-(d); (e) splits
// the junk's cost between listing files and checking manifests. Targets (issue 2): < 20 µs per
// rejected candidate, < 5 ms in all. Logging goes to a sink that drops everything.
#include <backplane/plugin.hpp>
#include <backplane/runtime.hpp>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;
using nlohmann::json;

#if defined(_WIN32)
constexpr const char* kLibrarySuffix = ".dll";
#elif defined(__APPLE__)
constexpr const char* kLibrarySuffix = ".dylib";
#else
constexpr const char* kLibrarySuffix = ".so";
#endif

// Drops every message without formatting it: the benchmark measures discovery, not stderr.
class NullLogSink final : public backplane::ILogSink {
 public:
  bool IsEnabled(backplane::LogLevel, backplane::LogCategory) const override { return false; }
  void Write(backplane::LogLevel, backplane::LogCategory, std::string_view) override {}
};

// A uniquely named scratch folder, removed with its contents at the end unless kept.
class ScratchFolder {
 public:
  explicit ScratchFolder(bool keep) : keep_(keep) {
    std::random_device entropy;
    std::mt19937_64 generator(entropy());
    const fs::path base = fs::temp_directory_path();
    for (int attempt = 0; attempt < 100 && path_.empty(); ++attempt) {
      const fs::path candidate = base / ("backplane-bench-" + std::to_string(generator()));
      if (fs::create_directory(candidate)) path_ = fs::canonical(candidate);
    }
    if (path_.empty()) throw std::runtime_error("cannot create a scratch folder in " + base.string());
  }
  ~ScratchFolder() {
    if (keep_) return;
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool keep_;
};

void WriteFile(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// Copies the plugin folder's manifests and libraries (symlinks kept as symlinks). Returns the
// number of manifests copied.
std::size_t CopyPlugins(const fs::path& from, const fs::path& to) {
  std::size_t manifests = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(from)) {
    if (!entry.is_regular_file() && !entry.is_symlink()) continue;
    fs::copy(entry.path(), to / entry.path().filename(), fs::copy_options::copy_symlinks);
    if (entry.path().extension() == ".json") ++manifests;
  }
  return manifests;
}

// Files that are no candidates at all: names near the naming scheme but not on it.
void WriteUnrelatedFiles(const fs::path& folder, std::size_t count) {
  struct Pattern {
    const char* prefix;
    const char* suffix;
  };
  const std::array<Pattern, 8> patterns{{{"readme_", ".txt"},
                                         {"data_", ".bin"},
                                         {"libthing_", ".so"},
                                         {"config_", ".json"},
                                         {"Acme_Tool", ".so"},
                                         {"Acme-X", "_backend.json"},
                                         {"acme_x", "_backend.json.bak"},
                                         {"Acme_X", "_backend.so.old"}}};
  for (std::size_t i = 0; i < count; ++i) {
    const Pattern& pattern = patterns[i % patterns.size()];
    const std::string name = pattern.prefix + std::to_string(i) + pattern.suffix;
    WriteFile(folder / name, "unrelated file " + std::to_string(i) + ", not a backend\n");
  }
}

json ValidManifest(const std::string& id, const std::string& library) {
  return {{"manifest_version", "1.0"},
          {"id", id},
          {"vendor", "Junk"},
          {"version", "1.0.0"},
          {"api_version", backplane::ToString(backplane::kBackendApiVersion)},
          {"library", library},
          {"platform", BACKPLANE_PLATFORM_TAG},
          {"abi", BACKPLANE_ABI_TAG},
          {"capabilities",
           {{"device_kind", "cpu"},
            {"data_types", {"f32"}},
            {"layer_types", {"Activation"}},
            {"values", json::object()}}}};
}

// Manifests that each fail one check before their library is opened, cycling through the
// kinds below; where the check needs the library file, a small non-library file stands in.
constexpr std::size_t kInvalidManifestKinds = 9;
void WriteInvalidManifests(const fs::path& folder, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    std::string id = std::to_string(i);
    id = "M" + std::string(id.size() < 3 ? 3 - id.size() : 0, '0') + id;  // M000, M001, ...
    const std::string stem = "Junk_" + id + "_backend";
    const std::string library = stem + kLibrarySuffix;
    json manifest = ValidManifest(id, library);
    bool library_present = true;
    switch (i % kInvalidManifestKinds) {
      case 0: WriteFile(folder / (stem + ".json"), "{ \"manifest_version\": \"1.0\", \"id\": ");
              continue;                                                  // invalid JSON
      case 1: manifest.erase("library"); library_present = false; break;  // field missing
      case 2: manifest["api_version"] = 1; break;                         // wrong type
      case 3: manifest["manifest_version"] = "2.0"; break;                // unknown major
      case 4: manifest["library"] = "../" + library; break;              // escapes the folder
      case 5: library_present = false; break;                             // library missing
      case 6: manifest["platform"] = "plan9-mips"; break;                 // other platform
      case 7: manifest["abi"] = "itanium-libc++-other"; break;            // other ABI
      case 8: manifest["sha256"] = std::string(64, '0'); break;           // checksum mismatch
    }
    WriteFile(folder / (stem + ".json"), manifest.dump(2));
    if (library_present) WriteFile(folder / library, "not a library\n");
  }
}

struct Case {
  Case(std::string label_text, fs::path folder_path)
      : label(std::move(label_text)), folder(std::move(folder_path)) {}
  std::string label;
  fs::path folder;
  std::vector<double> micros;
  std::size_t backends = 0;
  std::size_t rejected = 0;
  std::size_t records = 0;
  std::map<std::string, std::size_t> codes;  // rejected records by reason code
};

backplane::RuntimeOptions OptionsFor(const Case& c, const std::shared_ptr<backplane::ILogSink>& sink) {
  backplane::RuntimeOptions options;
  options.backend_paths = {c.folder.string()};
  options.enable_static_backends = false;
  options.allow_no_backends = true;
  options.log_sink = sink;
  return options;
}

// One Create, timed; the runtime is destroyed outside the timed region.
double TimeCreate(const backplane::RuntimeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<backplane::Runtime> runtime = backplane::Runtime::Create(options);
  const auto stop = std::chrono::steady_clock::now();
  runtime.reset();
  return std::chrono::duration<double, std::micro>(stop - start).count();
}

// Creates one runtime over the case's folder (timed: for (a), the process's first load of the
// plugins) and records what it registered and rejected.
double Describe(Case& c, const std::shared_ptr<backplane::ILogSink>& sink) {
  const auto start = std::chrono::steady_clock::now();
  const std::unique_ptr<backplane::Runtime> runtime = backplane::Runtime::Create(OptionsFor(c, sink));
  const auto stop = std::chrono::steady_clock::now();
  c.backends = runtime->GetBackends().size();
  for (const backplane::DiscoveryRecord& record : runtime->GetDiscoveryReport().records) {
    ++c.records;
    if (record.verdict == backplane::Verdict::kRejected) {
      ++c.rejected;
      ++c.codes[backplane::ToString(record.code)];
    }
  }
  return std::chrono::duration<double, std::micro>(stop - start).count();
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Pads on the left to `width` characters, counting UTF-8 code points (for "µs").
std::string PadLeft(const std::string& text, std::size_t width) {
  const std::size_t length = static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
  return length >= width ? text : std::string(width - length, ' ') + text;
}

// "  1234.5 µs", 13 characters wide.
std::string Micros(double value) {
  char number[32];
  std::snprintf(number, sizeof number, "%.1f", value);
  return PadLeft(std::string(number) + " µs", 13);
}

int Run(int argc, char* argv[]) {
  std::string plugins = BACKPLANE_BENCH_BACKEND_DIR;
  std::size_t rounds = 51;
  std::size_t unrelated = 1000;
  std::size_t invalid = 100;
  bool keep = false;
  bool help = false;
  po::options_description description("Options", 100, 50);
  description.add_options()
      ("help,h", po::bool_switch(&help), "print this help and exit")
      ("plugins", po::value(&plugins)->value_name("DIR"), "folder whose plugins and manifests are copied (default: the build tree's)")
      ("rounds", po::value(&rounds)->value_name("N"), "timed rounds (default 51), after one warm-up round")
      ("unrelated", po::value(&unrelated)->value_name("N"), "unrelated files (default 1000)")
      ("invalid", po::value(&invalid)->value_name("N"), "invalid manifests (default 100)")
      ("keep", po::bool_switch(&keep), "keep the scratch folder");
  try {
    po::variables_map values;
    po::store(po::parse_command_line(argc, argv, description), values);
    po::notify(values);
  } catch (const po::error& error) {
    std::cerr << "backplane_discovery_bench: " << error.what() << '\n';
    return 64;
  }
  if (help) {
    std::cout << "Usage: backplane_discovery_bench [options]\n"
                 "Times Runtime::Create over plugins, junk and both (issue 2's benchmark).\n\n"
              << description;
    return 0;
  }
  if (rounds == 0 || invalid == 0) {
    std::cerr << "backplane_discovery_bench: --rounds and --invalid must be at least 1\n";
    return 64;
  }

  std::error_code error;
  if (!fs::is_directory(plugins, error)) {
    std::cerr << "backplane_discovery_bench: no plugin folder " << plugins
              << " (build with BACKPLANE_BACKENDS_AS_PLUGINS=ON or give --plugins DIR)\n";
    return 1;
  }

  ScratchFolder scratch(keep);
  std::vector<Case> cases{{"(a) plugins only", scratch.path() / "plugins"},
                          {"(b) plugins + junk", scratch.path() / "mixed"},
                          {"(c) junk only", scratch.path() / "junk"},
                          {"(d) empty folder", scratch.path() / "empty"},
                          {"(e) unrelated files only", scratch.path() / "unrelated"}};
  for (const Case& c : cases) fs::create_directory(c.folder);
  const std::size_t plugin_count = CopyPlugins(plugins, cases[0].folder);
  if (plugin_count == 0) {
    std::cerr << "backplane_discovery_bench: no plugin manifest in " << plugins << '\n';
    return 1;
  }
  CopyPlugins(plugins, cases[1].folder);
  for (const fs::path& folder : {cases[1].folder, cases[2].folder}) {
    WriteUnrelatedFiles(folder, unrelated);
    WriteInvalidManifests(folder, invalid);
  }
  WriteUnrelatedFiles(cases[4].folder, unrelated);

  const auto sink = std::make_shared<NullLogSink>();
  std::vector<double> first_create;
  for (Case& c : cases) first_create.push_back(Describe(c, sink));
  // The derived figures are only meaningful when every folder gave what it was built for.
  const bool as_built = plugin_count > 0 && cases[0].backends == plugin_count &&
                        cases[0].rejected == 0 && cases[1].backends == plugin_count &&
                        cases[1].rejected == invalid && cases[2].backends == 0 &&
                        cases[2].rejected == invalid && cases[2].records == invalid &&
                        cases[3].records == 0 && cases[4].records == 0;

  for (std::size_t round = 0; round <= rounds; ++round) {  // round 0 warms up, not counted
    for (std::size_t k = 0; k < cases.size(); ++k) {
      Case& c = cases[(round + k) % cases.size()];
      const double micros = TimeCreate(OptionsFor(c, sink));
      if (round > 0) c.micros.push_back(micros);
    }
  }

  std::vector<double> median;
  for (const Case& c : cases) median.push_back(Median(c.micros));
  const double plugins_load = median[0] - median[3];
  const double junk_total = median[1] - median[0];
  const double per_rejected_mixed = junk_total / static_cast<double>(invalid);
  const double per_rejected_junk = median[2] / static_cast<double>(invalid);
  const bool total_met = junk_total < 5000.0;
  const bool per_mixed_met = per_rejected_mixed < 20.0;
  const bool per_junk_met = per_rejected_junk < 20.0;

  std::printf("Backplane discovery benchmark (Runtime::Create, dynamic backends only)\n");
  std::printf("  plugins      %zu manifest(s) copied from %s\n", plugin_count, plugins.c_str());
  std::printf("  junk         %zu unrelated files, %zu invalid manifests (%zu kinds)\n", unrelated,
              invalid, kInvalidManifestKinds);
  std::printf("  scratch      %s%s\n", scratch.path().string().c_str(), keep ? " (kept)" : "");
  std::printf("  rounds       %zu, interleaved in rotating order after 1 warm-up; medians\n\n",
              rounds);
  std::printf("  %-26s %13s %13s %13s %9s %9s\n", "case", "median", "min", "max", "backends",
              "rejected");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const auto [low, high] = std::minmax_element(c.micros.begin(), c.micros.end());
    std::printf("  %-26s %s %s %s %9zu %9zu\n", c.label.c_str(), Micros(median[i]).c_str(),
                Micros(*low).c_str(), Micros(*high).c_str(), c.backends, c.rejected);
  }
  std::printf("\n  rejected in (c) by code:");
  for (const auto& [code, count] : cases[2].codes) std::printf(" %s %zu;", code.c_str(), count);
  std::printf("\n\n  %-46s %13s %10s %5s\n", "derived (from medians)", "value", "target", "met");
  const auto row = [](const char* label, double value, const char* target, const char* met) {
    std::printf("  %-46s %s %s %5s\n", label, Micros(value).c_str(), PadLeft(target, 10).c_str(),
                met);
  };
  row("plugins' own load time            (a)-(d)", plugins_load, "-", "-");
  row("  (first load in the process, (a) once)", first_create[0], "-", "-");
  row("junk in all, apart from plugins   (b)-(a)", junk_total, "< 5 ms", total_met ? "yes" : "NO");
  row("per rejected candidate     ((b)-(a))/N", per_rejected_mixed, "< 20 µs",
      per_mixed_met ? "yes" : "NO");
  row("per rejected candidate           (c)/N", per_rejected_junk, "< 20 µs",
      per_junk_met ? "yes" : "NO");
  row("  (same, runtime baseline apart) ((c)-(d))/N",
      (median[2] - median[3]) / static_cast<double>(invalid), "-", "-");
  std::printf("  where the junk's cost goes:\n");
  row("  per unrelated file          ((e)-(d))/M",
      unrelated == 0 ? 0.0 : (median[4] - median[3]) / static_cast<double>(unrelated), "-", "-");
  row("  per invalid manifest            ((c)-(e))/N",
      (median[2] - median[4]) / static_cast<double>(invalid), "-", "-");
  if (!as_built) {
    std::printf("\n  WARNING: the folders did not give what they were built for (see the backends and\n"
                "  rejected columns); the derived figures do not mean what their labels say.\n");
    return 1;
  }
  std::printf("\n  targets: %s\n", total_met && per_mixed_met && per_junk_met ? "all met" : "NOT all met");
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "backplane_discovery_bench: " << error.what() << '\n';
    return 1;
  }
}
