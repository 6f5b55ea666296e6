#include "loading/backend_registry.hpp"

#include "loading/backend_options.hpp"
#include "loading/c_backend.hpp"
#include "loading/plugin_call.hpp"
#include "platform/message_text.hpp"

#include <backplane/path_text.hpp>

namespace backplane::loading {

namespace {

// A backend's log channel (BackendConfig::log): the runtime's sink, each message prefixed with
// the backend's id and made safe to print (bounded, control characters escaped). Thread-safe.
class BackendLogChannel final : public ILogSink {
 public:
  BackendLogChannel(std::shared_ptr<ILogSink> sink, const BackendId& id)
      : sink_(std::move(sink)), prefix_(id.Get() + ": ") {}
  bool IsEnabled(LogLevel level, LogCategory category) const override { return sink_->IsEnabled(level, category); }
  void Write(LogLevel level, LogCategory category, std::string_view message) override {
    sink_->Write(level, category, prefix_ + platform::Bounded(message, kMaxMessageBytes));
  }

 private:
  static constexpr std::size_t kMaxMessageBytes = 4096;
  std::shared_ptr<ILogSink> sink_;
  std::string prefix_;
};

}  // namespace

BackendRegistry::~BackendRegistry() {
  for (auto& backend : backends_) backend.context.reset();
  for (auto& backend : backends_) backend.instance.reset();
  for (auto& backend : backends_) backend.factory = nullptr;
  // The libraries close as backends_ is destroyed, in registration order.
}

const RegisteredBackend* BackendRegistry::Find(const BackendId& id) const {
  for (const auto& backend : backends_) {
    if (backend.info.id == id) return &backend;
  }
  return nullptr;
}

BackendInfo BackendRegistry::Describe(const RegisteredBackend& backend) {
  DeviceAnswer& answer = *backend.device;
  std::call_once(answer.asked, [&] {
    const BackendId& id = backend.info.id;
    const std::string no_layer;
    try {
      answer.devices = CallPlugin(id, "GetDevices", no_layer, [&] { return backend.instance->GetDevices(); });
      answer.available = CallPlugin(id, "IsAvailable", no_layer, [&] {
        return backend.instance->IsAvailable(backend.context.get(), &answer.unavailable_reason);
      });
      if (answer.available) answer.unavailable_reason.clear();
    } catch (const std::exception& error) {
      answer.available = false;
      answer.unavailable_reason = std::string("asking for its devices failed: ") + error.what();
    } catch (...) {
      answer.available = false;
      answer.unavailable_reason = "asking for its devices threw a non-standard exception";
    }
  });
  BackendInfo info = backend.info;
  info.devices = answer.devices;
  info.available = answer.available;
  info.unavailable_reason = answer.unavailable_reason;
  return info;
}

void BackendRegistry::Add(RegisteredBackend backend) { backends_.push_back(std::move(backend)); }

BackendFactory MakePluginFactory(std::shared_ptr<SharedLibrary> library,
                                 const BackplanePluginIdentity* identity,
                                 BpBackendFactoryFunction entry_point) {
  const std::string id = identity && identity->backend_id ? identity->backend_id : "";
  const std::string where = library ? "BackendFactory() of " + PathToUtf8(library->Path())
                                    : "the factory of static backend " + id;
  auto origin = std::make_shared<const PluginOrigin>(PluginOrigin{BackendId(id), std::move(library)});
  return [origin = std::move(origin), identity, entry_point, where]() {
    void* created = nullptr;
    try {
      const PluginCallScope scope(origin->id, "BackendFactory", nullptr);
      created = entry_point();
    } catch (const std::exception& error) {
      // A hand-written factory let an exception cross its extern "C" boundary.
      throw Exception(ErrorCode::kBackendFailure,
                      where + " threw: " + platform::Bounded(error.what(), kMaxMessageBytes));
    } catch (...) {
      throw Exception(ErrorCode::kBackendFailure, where + " threw a non-standard exception");
    }
    if (created == nullptr) {
      // The plugin's text, bounded: a message of any length must not become the record's.
      const std::string why = identity->last_factory_error ? BoundedMessage(identity->last_factory_error()) : "";
      throw Exception(ErrorCode::kBackendFailure, where + " returned null" + (why.empty() ? "" : ": " + why));
    }
    return WrapBackend(static_cast<BpBackend*>(created), origin);
  };
}

std::string RegisterBackend(BackendRegistry& registry, RegisteredBackend backend,
                            const backend::BackendOptions* all_options, const backend::BackendOptions* own_options,
                            std::shared_ptr<ILogSink> log) {
  const std::string id = backend.info.id.Get();
  const BackendId& backend_id = backend.info.id;
  const std::string no_layer;
  try {
    // The factory wrapper reports its own failures (MakePluginFactory); the instance's calls
    // are backend code too.
    std::unique_ptr<backend::IBackend> instance = backend.factory();
    const BackendId reported = CallPlugin(backend_id, "GetId", no_layer, [&] { return instance->GetId(); });
    if (reported != backend.info.id) {
      return "BackendFactory() made a backend whose GetId() is \"" + reported.Get() + "\", not \"" + id + "\"";
    }
    backend.info.capabilities =
        CallPlugin(backend_id, "GetCapabilities", no_layer, [&] { return instance->GetCapabilities(); });
    backend.info.options =
        CallPlugin(backend_id, "GetOptionSpecs", no_layer, [&] { return instance->GetOptionSpecs(); });
    backend::BackendConfig config;
    config.options = SelectOptions(backend_id, backend.info.options, all_options, own_options);
    config.log = std::make_shared<BackendLogChannel>(std::move(log), backend_id);
    try {
      backend.context = CallPlugin(backend_id, "CreateBackendContext", no_layer,
                                   [&] { return instance->CreateBackendContext(config); });
    } catch (const Exception& error) {
      // The backend's own checks of the option values (a range, a combination) are the
      // application's error too, as the declared types are.
      if (error.code() == ErrorCode::kInvalidArgument && !config.options.empty()) throw OptionError(error.what());
      throw;
    }
    backend.instance = std::move(instance);
  } catch (const OptionError&) {
    throw;  // the application's mistake, not the plugin's
  } catch (const std::exception& error) {
    return error.what();
  } catch (...) {
    return "backend " + id + " threw a non-standard exception while being set up";
  }
  registry.Add(std::move(backend));
  return {};
}

}  // namespace backplane::loading
