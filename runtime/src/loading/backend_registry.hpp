// The backends registered in one runtime, with what keeps them alive.
#pragma once

#include "loading/shared_library.hpp"

#include <backplane/plugin.hpp>
#include <backplane/runtime_options.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace backplane::loading {

using BackendFactory = std::function<std::unique_ptr<backend::IBackend>()>;

// A backend's devices and availability (BackendInfo::devices, available, unavailable_reason),
// asked of it once, on first need (BackendRegistry::Describe): asking may initialise its device
// (OpenCL enumerates its platforms, loading the vendors' drivers), which a runtime where the
// backend takes no layer never needs.
struct DeviceAnswer {
  std::once_flag asked;
  bool available = false;
  std::string unavailable_reason;
  std::vector<backend::DeviceInfo> devices;
};

struct RegisteredBackend {
  // Everything but the device answer, which Describe adds: `devices`, `available` and
  // `unavailable_reason` are left empty here.
  BackendInfo info;
  BackendFactory factory;                          // throws Exception when the plugin fails
  std::shared_ptr<SharedLibrary> library;          // null for static backends
  std::unique_ptr<backend::IBackendContext> context;
  // The instance registration made, kept to answer Describe (its const methods are thread-safe).
  std::unique_ptr<backend::IBackend> instance;
  std::unique_ptr<DeviceAnswer> device = std::make_unique<DeviceAnswer>();
};

// Owned by one runtime; filled during Runtime::Create, read-only afterwards but for the device
// answers (Describe; thread-safe), so const access is thread-safe. Destruction order: every
// backend context and instance first, then the factories, then the libraries — nothing a
// plugin created outlives its code.
class BackendRegistry {
 public:
  BackendRegistry() = default;
  ~BackendRegistry();
  BackendRegistry(const BackendRegistry&) = delete;
  BackendRegistry& operator=(const BackendRegistry&) = delete;

  // Null when no backend has this id.
  const RegisteredBackend* Find(const BackendId& id) const;
  // `backend.info` with its devices and availability, asked of the backend (GetDevices, then
  // IsAvailable with this runtime's context) on the first call for it, from any thread; a call
  // that throws makes it unavailable with the reason. Never throws but std::bad_alloc.
  static BackendInfo Describe(const RegisteredBackend& backend);
  // The caller checked that the id is new.
  void Add(RegisteredBackend backend);
  const std::vector<RegisteredBackend>& All() const { return backends_; }
  bool Empty() const { return backends_.empty(); }
  // For Runtime::Create to put the backends in their preference order once all are
  // registered (discovery/preference_order.hpp); never afterwards.
  std::vector<RegisteredBackend>& Entries() { return backends_; }

 private:
  std::vector<RegisteredBackend> backends_;
};

// The factory of a registered backend: a plugin's BackendFactory entry point (or a static
// backend's factory, `library` null) whose BpBackend each call wraps as an IBackend
// (c_backend.hpp). A null result becomes an Exception carrying the identity's
// last_factory_error. The factory, and every object made through it, keeps `library` open.
BackendFactory MakePluginFactory(std::shared_ptr<SharedLibrary> library,
                                 const BackplanePluginIdentity* identity,
                                 BpBackendFactoryFunction entry_point);

}  // namespace backplane::loading

namespace backplane::loading {

// Creates one instance through `backend.factory` to fill in what the runtime reports
// (capabilities, option specs; not the devices and availability: Describe asks those on first
// need) and the context this runtime holds, then adds it. `backend.info` must already carry id, vendor, version, API version and paths.
// `all_options` and `own_options` (either may be null) are the application's kAllBackends entry
// and this backend's entry of RuntimeOptions::backend_options: they are checked against the
// backend's option specs before the context is created (SelectOptions), and a bad one throws
// OptionError, adding nothing; so does a context refused with kInvalidArgument when options
// were given (the backend's own checks of their values). `log` is the runtime's sink: the backend's log channel writes
// into it, each message prefixed with "<id>: ". Returns an empty string on success, else why it
// failed (the factory or a backend call failed, or the instance reports another id); nothing is
// added then.
std::string RegisterBackend(BackendRegistry& registry, RegisteredBackend backend,
                            const backend::BackendOptions* all_options, const backend::BackendOptions* own_options,
                            std::shared_ptr<ILogSink> log);

}  // namespace backplane::loading
