#include "loading/plugin_library.hpp"

#include "loading/api_version.hpp"
#include "loading/plugin_call.hpp"
#include "platform/message_text.hpp"

#include <backplane/backend_id.hpp>
#include <backplane/path_text.hpp>

#include <array>
#include <cstring>
#include <exception>

namespace backplane::loading {

namespace {

PluginCheck Reject(DiscoveryStage stage, ReasonCode code, std::string message) {
  PluginCheck check;
  check.rejection = {stage, code, std::move(message)};
  return check;
}

// A string a plugin returned or holds in its identity, bounded for messages.
std::string Quote(const char* text) { return text ? platform::Quoted(text) : "null"; }

// Calls `call`, which calls into the plugin. Returns "" when it returned, else what it threw
// ("threw an exception: ...", "threw something that is not a std::exception"), so that no
// exception of a plugin's leaves discovery. What counts as thrown is plugin_call.hpp's rule;
// std::bad_alloc from the plugin is the plugin's failure too, not the runtime's.
template <typename Call>
std::string CallEntryPoint(Call&& call) {
  try {
    call();
    return {};
  } catch (...) {
    const PluginFailure failure = CurrentPluginFailure();
    return failure.standard ? "threw an exception: " + platform::Bounded(failure.what, 200)
                            : "threw something that is not a std::exception";
  }
}

// Added to the loader's message when it could not open a pinned image.
constexpr const char* kPinnedImageNote =
    "it was loaded from a sealed copy of its verified bytes (trust policy require), where the loader finds no "
    "libraries beside it ($ORIGIN; docs/backend-discovery.md section 8)";

}  // namespace

std::optional<PluginRejection> CheckIdentity(const BackplanePluginIdentity* identity,
                                             const std::string& where,
                                             const TargetTags& target, BackendApiVersion api) {
  auto reject = [&](ReasonCode code, const std::string& why) {
    return PluginRejection{DiscoveryStage::kIdentity, code, where + ": " + why};
  };
  if (identity == nullptr) {
    return reject(ReasonCode::kForeignLibrary,
                  "exports no " BACKPLANE_PLUGIN_IDENTITY_SYMBOL
                  " descriptor; it was not built with the Backplane SDK");
  }
  if (identity->magic != BACKPLANE_PLUGIN_MAGIC) {
    return reject(ReasonCode::kForeignLibrary,
                  BACKPLANE_PLUGIN_IDENTITY_SYMBOL " has the wrong magic number; it was not built with the Backplane SDK");
  }
  if (identity->struct_size < sizeof(BackplanePluginIdentity)) {
    return reject(ReasonCode::kForeignLibrary,
                  "identity descriptor is " + std::to_string(identity->struct_size) +
                      " bytes, smaller than the " + std::to_string(sizeof(BackplanePluginIdentity)) +
                      " bytes of format V1");
  }
  if (identity->sdk_name == nullptr || std::strcmp(identity->sdk_name, kSdkName) != 0) {
    return reject(ReasonCode::kForeignLibrary,
                  "identity names SDK " + Quote(identity->sdk_name) + ", not \"" + kSdkName + "\"");
  }
  // Another major is another boundary (1.x was C++): refused before any function is called,
  // and before the ABI tag, which differs too but says less. A newer minor of the same major is
  // GetVersion's check below.
  if (identity->api_major != api.major) {
    return reject(ReasonCode::kApiVersionIncompatible,
                  ApiVersionProblem({identity->api_major, identity->api_minor}, api));
  }
  if (identity->platform == nullptr || target.platform != identity->platform) {
    return reject(ReasonCode::kPlatformMismatch, "built for platform " + Quote(identity->platform) +
                                                     ", but this runtime is " + target.platform);
  }
  if (identity->abi == nullptr || target.abi != identity->abi) {
    return reject(ReasonCode::kAbiMismatch, "built with C++ ABI " + Quote(identity->abi) +
                                                ", but this runtime uses " + target.abi);
  }
  return std::nullopt;
}

PluginCheck OpenAndCheckPlugin(const LibraryToOpen& to_open, const TargetTags& target, BackendApiVersion api) {
  const std::string where = PathToUtf8(to_open.path);
  const bool pinned = !to_open.loader_path.empty();
  std::shared_ptr<SharedLibrary> library;
  try {
    library = SharedLibrary::Open(pinned ? to_open.loader_path : to_open.path, to_open.path);
  } catch (const std::exception& error) {
    std::string message = error.what();
    if (pinned) message += std::string("; ") + kPinnedImageNote;
    return Reject(DiscoveryStage::kLibraryOpened, ReasonCode::kOpenFailed, std::move(message));
  }
  if (to_open.checked_file) {
    std::optional<platform::FileIdentity> mapped = library->MappedFile();
    if (!mapped) mapped = platform::IdentityOf(pinned ? to_open.loader_path : to_open.path);
    if (mapped != to_open.checked_file) {
      return Reject(DiscoveryStage::kLibraryOpened, ReasonCode::kOpenFailed,
                    where + ": the loader mapped another file than the one checked (it was replaced while it " +
                        "was being opened); not used");
    }
  }

  // Entry points: report every missing one at once.
  static constexpr std::array<const char*, 3> kEntryPoints{"GetBackendId", "GetVersion",
                                                            "BackendFactory"};
  std::string missing;
  for (const char* name : kEntryPoints) {
    if (!library->Has(name)) missing += (missing.empty() ? "" : ", ") + std::string(name);
  }
  if (!missing.empty()) {
    return Reject(DiscoveryStage::kEntryPoints, ReasonCode::kEntryPointMissing,
                  where + ": does not export " + missing +
                      " (entry points must be extern \"C\"; use BACKPLANE_BACKEND_PLUGIN)");
  }

  const auto* identity =
      library->FindAs<const BackplanePluginIdentity>(BACKPLANE_PLUGIN_IDENTITY_SYMBOL);
  if (auto rejection = CheckIdentity(identity, where, target, api)) {
    return Reject(rejection->stage, rejection->code, rejection->message);
  }

  // Only now is it safe to call into the library. Neither call may throw (the macro's
  // functions do not); one that does is rejected, not let through.
  const char* raw_id = nullptr;
  auto* get_backend_id = library->FindAs<GetBackendIdFunction>("GetBackendId");
  if (std::string thrown = CallEntryPoint([&] { raw_id = get_backend_id(); }); !thrown.empty()) {
    return Reject(DiscoveryStage::kBackendChecked, ReasonCode::kEntryPointFailed,
                  where + ": GetBackendId() " + thrown + "; entry points must not throw");
  }
  if (raw_id == nullptr || !IsWellFormedBackendId(raw_id)) {
    return Reject(DiscoveryStage::kBackendChecked, ReasonCode::kBackendIdInvalid,
                  where + ": GetBackendId() returned " + Quote(raw_id) +
                      "; an id must be 1 to 64 letters or digits");
  }
  if (identity->backend_id == nullptr || std::strcmp(identity->backend_id, raw_id) != 0) {
    return Reject(DiscoveryStage::kBackendChecked, ReasonCode::kBackendIdInvalid,
                  where + ": GetBackendId() returned " + Quote(raw_id) + " but the identity descriptor says " +
                      Quote(identity->backend_id));
  }
  BackendApiVersion version;
  auto* get_version = library->FindAs<GetVersionFunction>("GetVersion");
  if (std::string thrown = CallEntryPoint([&] { get_version(&version.major, &version.minor); });
      !thrown.empty()) {
    return Reject(DiscoveryStage::kBackendChecked, ReasonCode::kEntryPointFailed,
                  where + ": GetVersion() " + thrown + "; entry points must not throw");
  }
  if (std::string problem = ApiVersionProblem(version, api); !problem.empty()) {
    return Reject(DiscoveryStage::kBackendChecked, ReasonCode::kApiVersionIncompatible,
                  where + ": backend " + raw_id + " was " + problem);
  }
  if (BackendApiVersion{identity->api_major, identity->api_minor} != version) {
    return Reject(DiscoveryStage::kBackendChecked, ReasonCode::kApiVersionIncompatible,
                  where + ": GetVersion() reports Backend API " + ToString(version) +
                      " but the identity descriptor says " +
                      ToString(BackendApiVersion{identity->api_major, identity->api_minor}));
  }

  CheckedPlugin plugin;
  plugin.library = std::move(library);
  plugin.identity = identity;
  plugin.id = BackendId(raw_id);
  plugin.api_version = version;
  plugin.factory = plugin.library->FindAs<BackendFactoryFunction>("BackendFactory");
  PluginCheck check;
  check.plugin = std::move(plugin);
  return check;
}

}  // namespace backplane::loading
