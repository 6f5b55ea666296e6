// The options and value types of the application API that the runtime's layers share:
// RuntimeOptions and what it holds (plugin isolation, the environment variables it stands in for),
// BackendInfo (a registered backend as Runtime::GetBackends reports it) and BackendFolders. Kept
// apart from runtime.hpp, which includes this header, so discovery, loading and isolation use
// these types without depending on the Runtime class (applications include runtime.hpp).
#pragma once

#include <backplane/backend/backend.hpp>
#include <backplane/backend_id.hpp>
#include <backplane/discovery_report.hpp>
#include <backplane/logging.hpp>
#include <backplane/trust.hpp>
#include <backplane/version.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace backplane {

// Environment variable with the backend folders to search instead of every other layer
// (path-list separated: ':' or ';' on Windows). Read with a secure getenv: ignored in set-uid
// or elevated processes, as are all the variables below.
inline constexpr const char* kBackendPathsEnvVar = "BACKPLANE_BACKEND_PATHS";
// Environment variable with backend folders searched before the drop folders, the compiled-in
// list and the installation's own folder (same separator).
inline constexpr const char* kAddBackendPathsEnvVar = "BACKPLANE_ADD_BACKEND_PATHS";
// Environment variables with comma-separated id patterns ('*' any run, '?' one character):
// only matching backends are considered (SELECT), matching ones never are (DISABLE). Used when
// the RuntimeOptions of the same name are empty.
inline constexpr const char* kSelectBackendsEnvVar = "BACKPLANE_BACKENDS_SELECT";
inline constexpr const char* kDisableBackendsEnvVar = "BACKPLANE_BACKENDS_DISABLE";

// RuntimeOptions::backend_options key for options given to every backend.
inline constexpr const char* kAllBackends = "*";

// Environment variable naming the folder of the plugin verdict store (PluginIsolation). Read
// with a secure getenv, like kBackendPathsEnvVar.
inline constexpr const char* kPluginVerdictStoreEnvVar = "BACKPLANE_PLUGIN_VERDICT_STORE";

// Opt-in protection against plugin libraries that crash, hang or exit while they are loaded
// (see docs/app-developers.md "What in-process loading can and cannot protect against").
// When enabled, each candidate library that passed its manifest checks is first loaded by the
// probe program (backplane-plugin-probe) in a child process, which opens it, resolves its entry
// points and registers it exactly as Runtime::Create does; only a library whose probe got
// through is opened in this process. A probe that crashed, ran past the timeout (it is killed)
// or exited before reporting quarantines the library: it is rejected at stage library_opened
// with code kLibraryRefused and a message that says why, since when, and how to clear it. Each
// verdict is remembered in the verdict store, keyed by the library's canonical path, size,
// modification time and sha256 (and this runtime's version), so every app with isolation on
// skips a quarantined library without probing it again, and a library that passed is not probed
// again until it changes. Isolation covers loading and registration only, not later calls.
struct PluginIsolation {
  bool enabled = false;
  // How long one probe may take (open, entry points, factory, context) before it is killed.
  double timeout_seconds = 10;
  // Folder of the verdict store (created when missing). "": the environment variable
  // kPluginVerdictStoreEnvVar, else the per-user cache folder's backplane/plugin-verdicts:
  // $XDG_CACHE_HOME or ~/.cache on POSIX, %LOCALAPPDATA% on Windows. When none can be found
  // or written, verdicts last one Create.
  std::string verdict_store;
  // True: ignore stored verdicts, probe every library again and store the new verdicts
  // (sdk-info --isolate does this, so it always shows the current state and clears a stale
  // quarantine after the machine was fixed).
  bool reprobe = false;
  // The probe program. "": backplane-plugin-probe in the libexec folder of the install tree
  // libbackplane was loaded from (<libdir>/../libexec/backplane/). When it cannot be started,
  // every plugin library is refused, saying so: isolation never silently turns itself off.
  std::string probe_program;
};

struct RuntimeOptions {
  // Folders to search for plugins, in order. When non-empty, replaces every other layer (the
  // environment variables, the drop folders, the compiled-in list and the installation's own
  // folder; docs/backend-discovery.md §1).
  std::vector<std::string> backend_paths;
  // Folders searched first (layer "added"): before kBackendPathsEnvVar's folders when it is
  // set, else before kAddBackendPathsEnvVar's, the drop folders, the compiled-in list and the
  // installation's own folder. Ignored only when backend_paths replaces every layer.
  std::vector<std::string> add_backend_paths;
  // Backend id patterns ('*' any run of characters, '?' one; ids are case-sensitive). When
  // `select_backends` is non-empty only ids matching one of its patterns are considered; ids
  // matching one of `disable_backends` never are (disable wins). A candidate left out keeps a
  // record (Verdict::kFiltered, ReasonCode::kFilteredOut) naming the pattern and where it came
  // from, and its library is never opened. Static backends are filtered the same way. Empty:
  // kSelectBackendsEnvVar / kDisableBackendsEnvVar. A pattern with other characters than
  // letters, digits, '*' and '?' makes Create throw Exception (kInvalidArgument).
  std::vector<std::string> select_backends;
  std::vector<std::string> disable_backends;
  // A version range per backend id: "1.2.3" (that version), "0.1.x" or "1.*" (every version
  // starting so), ">=1.0.0 <2.0.0" (comparators, all must hold). Only a plugin whose version is
  // in its id's range is registered; the others keep a kFiltered record and are not opened (a
  // library found by the naming scheme, whose version is known only once it is open, is closed
  // again). A range that does not parse makes Create throw Exception (kInvalidArgument).
  std::map<BackendId, std::string> backend_versions;
  // False: load no plugin at all (static backends only).
  bool enable_dynamic_backends = true;
  // False: ignore backends linked into the runtime.
  bool enable_static_backends = true;
  // True: Create succeeds even when no backend is registered (diagnostic tools).
  bool allow_no_backends = false;
  // Passed to every backend's CreateBackendContext, keyed by backend id, after they were
  // checked against the options each backend declares (BackendInfo::options): a key the backend
  // does not declare or a value that does not parse as its type makes Create throw Exception
  // (kInvalidArgument) naming the backend, key, value and what it accepts. The key "*" applies
  // to every backend that declares the option (a "*" key no registered backend declares is the
  // same error); a backend's own entry overrides it key by key. Entries for backends that are
  // not registered are not used.
  std::map<BackendId, backend::BackendOptions> backend_options;
  // Receives all log messages of this runtime; null: DefaultLogSink().
  std::shared_ptr<ILogSink> log_sink;
  // Consulted once per plugin library, after its manifest and checksum checks and just before
  // the runtime would open it, with the candidate's record so far (manifest_path, library_path
  // as found, found_by, backend_id when the manifest gives one). Returns "" to let the runtime
  // open the library, or why it must not: the candidate is then rejected at stage
  // library_opened with code kLibraryRefused and that text as its message, and the library is
  // never opened by this runtime. Called on the thread that calls Create, in scan order; an
  // exception it throws propagates out of Create. Not kept beyond Create. Null: open every
  // candidate.
  std::function<std::string(const DiscoveryRecord& candidate)> library_filter;
  // Probe new or changed plugin libraries in a child process first (off by default). Runs
  // after library_filter, for the candidates it let through.
  PluginIsolation isolation;
  // Signature policy and trusted keys (trust.hpp, docs/backend-discovery.md §8). Default: the
  // environment's or the machine's policy (warn when neither says), the default key folders.
  TrustOptions trust;
};

// A registered backend, as reported by the runtime. Value type.
struct BackendInfo {
  BackendId id;
  std::string vendor;
  std::string version;           // the plugin's semver
  BackendApiVersion api_version;
  FoundBy found_by = FoundBy::kManifest;
  // The search layer it came from (SearchPath::source), "static" when linked into the runtime.
  std::string layer;
  // Why it stands where it does in the default preference order (Runtime::GetBackends), e.g.
  // "gpu backend", "cpu backend from a drop folder (user): after the SDK's own",
  // "reference implementation: last".
  std::string preference;
  std::string library_path;      // empty for static backends
  std::string manifest_path;     // empty when found by naming scheme or static
  // Its signature as discovery checked it (publisher, verified or not); kNotChecked for static
  // backends and under policy off.
  SignatureInfo signature;
  backend::BackendCapabilities capabilities;
  std::vector<backend::DeviceInfo> devices;
  // The options it accepts in RuntimeOptions::backend_options (IBackend::GetOptionSpecs).
  std::vector<backend::OptionSpec> options;
  bool available = true;
  std::string unavailable_reason;
};

// Where backends live on this machine, for installers and tools; each "" when unknown. The
// folders need not exist (GetBackendFolders).
struct BackendFolders {
  // <libdir>/backplane/backends beside the libbackplane in use: the SDK's own backends, and
  // where packages of third-party backends install (CMake Backplane_BACKEND_DIR, pkg-config
  // backenddir).
  std::string installed;
  // The current user's drop folder: $XDG_DATA_HOME/backplane/backends (default
  // ~/.local/share/backplane/backends); %LOCALAPPDATA%\Backplane\backends on Windows. "" in a
  // set-uid process.
  std::string user_drops;
  // The machine's drop folder: <prefix>/share/backplane/backends as configured
  // (BACKPLANE_SYSTEM_DROP_DIR); %ProgramData%\Backplane\backends on Windows.
  std::string system_drops;
};

}  // namespace backplane
