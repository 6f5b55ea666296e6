#include "loading/backend_registry.hpp"

#include "loading/plugin_call.hpp"

namespace backplane::loading {

BackendRegistry::~BackendRegistry() {
  for (auto& backend : backends_) backend.context.reset();
  for (auto& backend : backends_) backend.factory = nullptr;
  // The libraries close as backends_ is destroyed, in registration order.
}

const RegisteredBackend* BackendRegistry::Find(const BackendId& id) const {
  for (const auto& backend : backends_) {
    if (backend.info.id == id) return &backend;
  }
  return nullptr;
}

void BackendRegistry::Add(RegisteredBackend backend) { backends_.push_back(std::move(backend)); }

BackendFactory MakePluginFactory(std::shared_ptr<SharedLibrary> library,
                                 const BackplanePluginIdentity* identity,
                                 BackendFactoryFunction* entry_point) {
  return [library = std::move(library), identity, entry_point]() {
    void* created = nullptr;
    try {
      created = entry_point();
    } catch (const std::exception& error) {
      // A hand-written factory let an exception cross its extern "C" boundary.
      throw Exception(ErrorCode::kBackendFailure, "BackendFactory() of " + library->Path().string() +
                                                      " threw: " + error.what());
    } catch (...) {
      throw Exception(ErrorCode::kBackendFailure,
                      "BackendFactory() of " + library->Path().string() + " threw a non-standard exception");
    }
    if (created == nullptr) {
      const char* why = identity->last_factory_error ? identity->last_factory_error() : "";
      throw Exception(ErrorCode::kBackendFailure,
                      "BackendFactory() of " + library->Path().string() + " returned null" +
                          (why && *why ? std::string(": ") + why : std::string()));
    }
    return std::unique_ptr<backend::IBackend>(static_cast<backend::IBackend*>(created));
  };
}

}  // namespace backplane::loading

namespace backplane::loading {

std::string RegisterBackend(BackendRegistry& registry, RegisteredBackend backend,
                            const backend::BackendOptions& options) {
  const std::string id = backend.info.id.Get();
  const BackendId& backend_id = backend.info.id;
  const std::string no_layer;
  try {
    // The factory wrapper reports its own failures (MakePluginFactory); the instance's calls
    // are backend code too.
    const std::unique_ptr<backend::IBackend> instance = backend.factory();
    const BackendId reported = CallPlugin(backend_id, "GetId", no_layer, [&] { return instance->GetId(); });
    if (reported != backend.info.id) {
      return "BackendFactory() made a backend whose GetId() is \"" + reported.Get() + "\", not \"" + id + "\"";
    }
    backend.info.capabilities =
        CallPlugin(backend_id, "GetCapabilities", no_layer, [&] { return instance->GetCapabilities(); });
    backend.info.devices = CallPlugin(backend_id, "GetDevices", no_layer, [&] { return instance->GetDevices(); });
    backend.context = CallPlugin(backend_id, "CreateBackendContext", no_layer,
                                 [&] { return instance->CreateBackendContext(options); });
    // Backends built for API 1.0 do not have the 1.1 entry in their vtable.
    backend.info.available = CallPlugin(backend_id, "IsAvailable", no_layer, [&] {
      return backend.info.api_version.minor >= 1
                 ? instance->IsAvailableInContext(backend.context.get(), &backend.info.unavailable_reason)
                 : instance->IsAvailable(&backend.info.unavailable_reason);
    });
    if (backend.info.available) backend.info.unavailable_reason.clear();
  } catch (const std::exception& error) {
    return error.what();
  } catch (...) {
    return "backend " + id + " threw a non-standard exception while being set up";
  }
  registry.Add(std::move(backend));
  return {};
}

}  // namespace backplane::loading
