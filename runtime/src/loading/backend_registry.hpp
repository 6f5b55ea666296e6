// The backends registered in one runtime, with what keeps them alive.
#pragma once

#include "loading/shared_library.hpp"

#include <backplane/plugin.hpp>
#include <backplane/runtime.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace backplane::loading {

using BackendFactory = std::function<std::unique_ptr<backend::IBackend>()>;

struct RegisteredBackend {
  BackendInfo info;
  BackendFactory factory;                          // throws Exception when the plugin fails
  std::shared_ptr<SharedLibrary> library;          // null for static backends
  std::unique_ptr<backend::IBackendContext> context;
};

// Owned by one runtime; filled during Runtime::Create, read-only afterwards (so const access
// is thread-safe). Destruction order: every backend context first, then the factories, then
// the libraries — nothing a plugin created outlives its code.
class BackendRegistry {
 public:
  BackendRegistry() = default;
  ~BackendRegistry();
  BackendRegistry(const BackendRegistry&) = delete;
  BackendRegistry& operator=(const BackendRegistry&) = delete;

  // Null when no backend has this id.
  const RegisteredBackend* Find(const BackendId& id) const;
  // The caller checked that the id is new.
  void Add(RegisteredBackend backend);
  const std::vector<RegisteredBackend>& All() const { return backends_; }
  bool Empty() const { return backends_.empty(); }

 private:
  std::vector<RegisteredBackend> backends_;
};

// Wraps a plugin's BackendFactory entry point: a null result becomes an Exception carrying the
// plugin's last_factory_error; the returned factory keeps `library` open.
BackendFactory MakePluginFactory(std::shared_ptr<SharedLibrary> library,
                                 const BackplanePluginIdentity* identity,
                                 BackendFactoryFunction* entry_point);

}  // namespace backplane::loading

namespace backplane::loading {

// Creates one instance through `backend.factory` to fill in what the runtime reports
// (capabilities, devices, availability) and the context this runtime holds, then adds it.
// `backend.info` must already carry id, vendor, version, API version and paths. Returns an
// empty string on success, else why it failed (the factory or a backend call threw, or the
// instance reports another id); nothing is added then.
std::string RegisterBackend(BackendRegistry& registry, RegisteredBackend backend,
                            const backend::BackendOptions& options);

}  // namespace backplane::loading
