#include "loading/c_backend.hpp"

#include "loading/c_layer.hpp"
#include "loading/c_tensor_handle.hpp"
#include "platform/message_text.hpp"

#include <backplane/backend/c_status.hpp>
#include <backplane/backend/op_attributes.hpp>
#include <backplane/exception.hpp>

#include <cstring>
#include <mutex>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace backplane::loading {

namespace {

using backend::DeviceKind;
using backend::LayerType;

// ---- Log channel ----------------------------------------------------------------------------------

// The runtime's log sink for one backend as the BpLogger its backend context keeps. Lives as long
// as the context (CBackendContext owns it). Thread-safe (the sink is).
class LogBridge {
 public:
  explicit LogBridge(std::shared_ptr<ILogSink> sink) : sink_(std::move(sink)) {
    c_ = {sizeof(BpLogger), this, &LogBridge::IsEnabled, &LogBridge::Write};
  }
  LogBridge(const LogBridge&) = delete;
  LogBridge& operator=(const LogBridge&) = delete;
  const BpLogger* Get() const { return &c_; }

 private:
  static LogLevel Level(std::uint32_t level) {
    return level <= BP_LOG_ERROR ? static_cast<LogLevel>(level) : LogLevel::kError;
  }
  static LogCategory Category(std::uint32_t category) {
    return category <= BP_LOG_EXECUTE ? static_cast<LogCategory>(category) : LogCategory::kPlugin;
  }
  static std::uint32_t IsEnabled(void* context, std::uint32_t level, std::uint32_t category) {
    try {
      return static_cast<LogBridge*>(context)->sink_->IsEnabled(Level(level), Category(category)) ? 1u : 0u;
    } catch (...) {
      return 0;  // a sink that throws is not called across the boundary
    }
  }
  static void Write(void* context, std::uint32_t level, std::uint32_t category, BpString message) {
    try {
      const auto* self = static_cast<LogBridge*>(context);
      const std::string_view text = message.data ? std::string_view(message.data, message.size) : std::string_view();
      self->sink_->Write(Level(level), Category(category), text);
    } catch (...) {
      // Logging never fails the plugin's call.
    }
  }

  std::shared_ptr<ILogSink> sink_;
  BpLogger c_{};
};

// ---- Backend context ------------------------------------------------------------------------------

class CBackendContext final : public backend::IBackendContext {
 public:
  CBackendContext(BpBackendContext* context, std::unique_ptr<LogBridge> logger, OriginPtr origin)
      : origin_(std::move(origin)), logger_(std::move(logger)), context_(context, *origin_) {}
  // The context goes before its log channel (member order), and both before the library.
  ~CBackendContext() override = default;

  bool BeforeLoadNetwork(backend::NetworkId network) override {
    return Notify(context_.table().before_load_network, network, "before_load_network");
  }
  bool AfterLoadNetwork(backend::NetworkId network) override {
    return Notify(context_.table().after_load_network, network, "after_load_network");
  }
  bool BeforeUnloadNetwork(backend::NetworkId network) override {
    return Notify(context_.table().before_unload_network, network, "before_unload_network");
  }
  bool AfterUnloadNetwork(backend::NetworkId network) override {
    return Notify(context_.table().after_unload_network, network, "after_unload_network");
  }

  BpBackendContext* Get() const { return context_.get(); }
  const PluginOrigin& Origin() const { return *origin_; }
  std::string TakeRefusal() { return std::exchange(refusal_, std::string()); }

 private:
  using Notification = BpStatus* (*)(BpBackendContext*, std::uint64_t);

  // Missing: accepts. BP_STATUS_UNSUPPORTED: refuses (false, as IBackendContext says), keeping
  // the reason for TakeRefusalReason; other codes throw.
  bool Notify(Notification call, backend::NetworkId network, const char* function) {
    refusal_.clear();
    if (call == nullptr) return true;
    BpStatus* status = call(context_.get(), network);
    if (status == nullptr) return true;
    if (StatusCode(status) == BP_STATUS_UNSUPPORTED) {
      refusal_ = TakeReason(status);
      return false;
    }
    CheckStatus(status, *origin_, function);
    return false;  // not reached
  }

  OriginPtr origin_;
  std::unique_ptr<LogBridge> logger_;
  Owned<BpBackendContext, BpBackendContextTable> context_;
  std::string refusal_;  // of the last notification
};

BpBackendContext* Unwrap(backend::IBackendContext* context) {
  auto* wrapped = dynamic_cast<CBackendContext*>(context);
  return wrapped ? wrapped->Get() : nullptr;
}

// ---- Layer support --------------------------------------------------------------------------------

class CLayerSupport final : public backend::ILayerSupport {
 public:
  CLayerSupport(BpLayerSupport* support, OriginPtr origin) : origin_(std::move(origin)), support_(support, *origin_) {}

  bool IsLayerSupported(const backend::ILayerView& view, std::string* reason) const override {
    const CLayer layer(view);
    BpStatus* status = support_.table().is_layer_supported(support_.get(), layer.Get());
    if (status == nullptr) return true;
    if (StatusCode(status) == BP_STATUS_UNSUPPORTED) {
      std::string why = TakeReason(status);
      if (reason) *reason = std::move(why);
      return false;
    }
    CheckStatus(status, *origin_, "is_layer_supported", view.GetName());
    return false;  // not reached
  }

 private:
  OriginPtr origin_;
  Owned<BpLayerSupport, BpLayerSupportTable> support_;
};

// ---- Memory manager, workloads --------------------------------------------------------------------

class CMemoryManager final : public backend::IMemoryManager {
 public:
  CMemoryManager(BpMemoryManager* manager, OriginPtr origin) : origin_(std::move(origin)), manager_(manager, *origin_) {}

  void Acquire() override {
    if (manager_.table().acquire) CheckStatus(manager_.table().acquire(manager_.get()), *origin_, "BpMemoryManager acquire");
  }
  void Release() override {
    if (manager_.table().release) CheckStatus(manager_.table().release(manager_.get()), *origin_, "BpMemoryManager release");
  }
  BpMemoryManager* Get() const { return manager_.get(); }

 private:
  OriginPtr origin_;
  Owned<BpMemoryManager, BpMemoryManagerTable> manager_;
};

class CWorkload final : public backend::IWorkload {
 public:
  CWorkload(BpWorkload* workload, std::string layer, OriginPtr origin)
      : origin_(std::move(origin)), workload_(workload, *origin_), layer_(std::move(layer)) {}

  // The hot path: the handle arrays live on the stack for the usual arity.
  void Execute(const backend::WorkloadArgs& args) const override {
    const HandleArray inputs(args.inputs);
    const HandleArray outputs(args.outputs);
    const BpWorkloadArgs c{sizeof(BpWorkloadArgs), inputs.data(),  inputs.size(),
                           outputs.data(),         outputs.size(), args.scratch};
    const PluginCallScope scope(origin_->id, "execute", &layer_);
    if (BpStatus* status = workload_.table().execute(workload_.get(), &c)) {
      CheckStatus(status, *origin_, "execute", layer_);
    }
  }
  // Refuses more than kMaxScratchBytes (PluginError naming the layer): the runtime allocates it.
  std::size_t GetScratchSize() const override {
    if (!workload_.table().get_scratch_size) return 0;
    const std::size_t bytes = workload_.table().get_scratch_size(workload_.get());
    if (bytes > kMaxScratchBytes) {
      throw PluginError(ErrorCode::kBackendFailure,
                        DescribeCall(*origin_, "get_scratch_size", layer_) + ": asked for " + std::to_string(bytes) +
                            " bytes of scratch memory; the runtime gives a workload at most " +
                            std::to_string(kMaxScratchBytes));
    }
    return bytes;
  }
  // The plugin's text, bounded and with control characters escaped (it ends up in reports); each
  // field only when the plugin's struct holds it (a later minor may have grown it).
  backend::WorkloadInfo GetInfo() const override {
    const auto text = [](BpString s) {
      return s.data ? platform::Bounded(std::string_view(s.data, s.size), kMaxInfoBytes) : std::string();
    };
    backend::WorkloadInfo info;
    const BpWorkloadInfo* c = workload_.table().get_info ? workload_.table().get_info(workload_.get()) : nullptr;
    if (BP_HAS_FIELD(c, BpWorkloadInfo, implementation)) info.implementation = text(c->implementation);
    if (BP_HAS_FIELD(c, BpWorkloadInfo, slow_path)) info.slow_path = text(c->slow_path);
    return info;
  }

 private:
  static constexpr std::size_t kMaxInfoBytes = 200;

  OriginPtr origin_;
  Owned<BpWorkload, BpWorkloadTable> workload_;
  std::string layer_;  // for messages
};

class CWorkloadFactory final : public backend::IWorkloadFactory {
 public:
  // Keeps `memory_manager` (what the plugin was given, maybe null) as long as the factory.
  CWorkloadFactory(BpWorkloadFactory* factory, std::shared_ptr<backend::IMemoryManager> memory_manager,
                   OriginPtr origin)
      : origin_(std::move(origin)), memory_manager_(std::move(memory_manager)), factory_(factory, *origin_) {}

  std::unique_ptr<backend::IWorkload> CreateWorkload(const backend::ILayerView& view) override {
    const CLayer layer(view);
    BpWorkload* workload = nullptr;
    const PluginCallScope scope(origin_->id, "create_workload", &view.GetName());
    CheckStatus(factory_.table().create_workload(factory_.get(), layer.Get(), &workload), *origin_, "create_workload",
                view.GetName());
    if (workload == nullptr) {
      throw PluginError(ErrorCode::kBackendFailure,
                        DescribeCall(*origin_, "create_workload", view.GetName()) + ": returned no workload");
    }
    return Adopt<CWorkload>(workload, view.GetName(), origin_);
  }

 private:
  OriginPtr origin_;
  std::shared_ptr<backend::IMemoryManager> memory_manager_;
  Owned<BpWorkloadFactory, BpWorkloadFactoryTable> factory_;  // last: destroyed first
};

// ---- What get_info says ---------------------------------------------------------------------------

struct BackendInfoValues {
  backend::BackendCapabilities capabilities;
  std::vector<backend::DeviceInfo> devices;
  std::vector<backend::OptionSpec> options;
  std::vector<backend::FactoryId> preferences;
};

// Reads `data` (the plugin's, returned by `call`: get_info or get_devices; fields only where its
// struct_size reaches), refusing values no Backend API 2.x defines. Throws PluginError naming the
// backend, the call and the field.
BackendInfoValues ReadInfo(const BpBackendInfoData* data, const PluginOrigin& origin, const char* call) {
  auto bad = [&](const std::string& what) {
    return PluginError(ErrorCode::kBackendFailure, DescribeCall(origin, call) + ": " + what);
  };
  if (data == nullptr) throw bad("returned no data");
  // An array the plugin gives as pointer + count: both read only when present, and a count
  // without a pointer, or beyond kMaxEntries, is refused.
  auto array = [&](const auto* pointer, std::size_t count, const char* name) {
    if (count != 0 && pointer == nullptr) throw bad(std::string(name) + " is null but its count is " + std::to_string(count));
    return CheckedCount(count, kMaxEntries, origin, call, name);
  };
  auto text = [&](BpString value) { return FromC(value, kMaxTextBytes, origin, call); };
#define BP_RUNTIME_HAS(field) BP_HAS_FIELD(data, BpBackendInfoData, field)
  BackendInfoValues values;
  if (BP_RUNTIME_HAS(device_kind)) {
    if (data->device_kind > BP_DEVICE_ACCELERATOR) throw bad("unknown device kind " + std::to_string(data->device_kind));
    values.capabilities.device_kind = static_cast<DeviceKind>(data->device_kind);
  }
  if (BP_RUNTIME_HAS(data_type_count)) {
    for (std::size_t i = 0, n = array(data->data_types, data->data_type_count, "data_types"); i < n; ++i) {
      if (data->data_types[i] >= backend::kBpDataTypeCount) throw bad("unknown data type " + std::to_string(data->data_types[i]));
      values.capabilities.data_types.push_back(static_cast<DataType>(data->data_types[i]));
    }
  }
  if (BP_RUNTIME_HAS(layer_type_count)) {
    for (std::size_t i = 0, n = array(data->layer_types, data->layer_type_count, "layer_types"); i < n; ++i) {
      if (data->layer_types[i] >= static_cast<std::uint32_t>(LayerType::kCount)) {
        throw bad("unknown layer type " + std::to_string(data->layer_types[i]));
      }
      values.capabilities.layer_types.push_back(static_cast<LayerType>(data->layer_types[i]));
    }
  }
  if (BP_RUNTIME_HAS(flag_count)) {
    for (std::size_t i = 0, n = array(data->flags, data->flag_count, "flags"); i < n; ++i) {
      values.capabilities.values[text(data->flags[i].name)] = data->flags[i].value != 0;
    }
  }
  if (BP_RUNTIME_HAS(device_count)) {
    for (std::size_t i = 0, n = array(data->devices, data->device_count, "devices"); i < n; ++i) {
      const BpDeviceInfo& device = data->devices[i];
      if (device.kind > BP_DEVICE_ACCELERATOR) throw bad("device " + std::to_string(i) + " has unknown kind " + std::to_string(device.kind));
      values.devices.push_back({text(device.name), static_cast<DeviceKind>(device.kind), device.available != 0,
                                text(device.reason)});
    }
  }
  if (BP_RUNTIME_HAS(option_count)) {
    std::set<std::string> keys;
    for (std::size_t i = 0, n = array(data->options, data->option_count, "options"); i < n; ++i) {
      const BpOptionSpec& spec = data->options[i];
      std::string key = text(spec.key);
      if (key.empty()) throw bad("option " + std::to_string(i) + " has an empty key");
      if (spec.type > BP_OPTION_BOOLEAN) {
        throw bad("option " + platform::Quoted(key) + " has unknown type " + std::to_string(spec.type));
      }
      if (!keys.insert(key).second) throw bad("option " + platform::Quoted(key) + " is declared twice");
      values.options.push_back({std::move(key), static_cast<backend::OptionSpec::Type>(spec.type),
                                text(spec.default_value), text(spec.doc)});
    }
  }
  if (BP_RUNTIME_HAS(handle_factory_preference_count)) {
    for (std::size_t i = 0, n = array(data->handle_factory_preferences, data->handle_factory_preference_count,
                                      "handle_factory_preferences");
         i < n; ++i) {
      values.preferences.push_back(text(data->handle_factory_preferences[i]));
    }
  }
#undef BP_RUNTIME_HAS
  return values;
}

// ---- What optimize_subgraph returns ---------------------------------------------------------------

// The smallest BpSubstitution a 2.x plugin can fill: every field of 2.0.
constexpr std::size_t kMinSubstitutionSize = offsetof(BpSubstitution, destroy_payload) + sizeof(void (*)(void*));

// Checks `result` against the offered `subgraph` and turns it into the C++ lists, taking over
// the payloads of the substitutions. Nothing is taken unless everything is valid: every index in
// range, no layer in two places (two substitutions, or a substitution and the failed or
// untouched list, or both of those), every substitution named. Throws PluginError naming the
// backend and what was wrong.
backend::OptimizationViews ReadOptimization(Owned<BpOptimization, BpOptimizationTable>& result,
                                            const backend::SubgraphView& subgraph, const PluginOrigin& origin) {
  auto bad = [&](const std::string& what) {
    return PluginError(ErrorCode::kBackendFailure, DescribeCall(origin, "optimize_subgraph") + " returned " + what);
  };
  const BpOptimizationTable& table = result.table();
  const std::size_t layer_count = subgraph.layers.size();

  std::size_t substitution_count = 0, failed_count = 0, untouched_count = 0;
  const BpSubstitution* substitutions =
      table.substitutions ? table.substitutions(result.get(), &substitution_count) : nullptr;
  const BpLayerIndices* failed = table.failed ? table.failed(result.get(), &failed_count) : nullptr;
  const BpLayerIndices* untouched = table.untouched ? table.untouched(result.get(), &untouched_count) : nullptr;
  // No more lists than layers offered (each list names layers of its own): a larger count is
  // refused before anything is allocated or read for it.
  auto bounded = [&](const void* list, std::size_t count, const char* what) -> std::size_t {
    if (list == nullptr) return 0;
    if (count > layer_count) {
      throw bad(std::to_string(count) + " " + what + ", but the offered subgraph has " + std::to_string(layer_count) +
                " layers");
    }
    return count;
  };
  substitution_count = bounded(substitutions, substitution_count, "substitutions");
  failed_count = bounded(failed, failed_count, "failed lists");
  untouched_count = bounded(untouched, untouched_count, "untouched lists");

  // Substitutions are read with the stride of the plugin's BpSubstitution (its struct_size).
  std::vector<BpSubstitution> read(substitution_count);
  if (substitution_count != 0) {
    const std::size_t stride = substitutions[0].struct_size;
    if (stride < kMinSubstitutionSize || stride > sizeof(BpSubstitution)) {
      throw bad("substitutions of " + std::to_string(stride) + " bytes; Backend API " +
                std::to_string(BP_BACKEND_API_MAJOR) + ".x has " + std::to_string(kMinSubstitutionSize) + " to " +
                std::to_string(sizeof(BpSubstitution)));
    }
    const auto* bytes = reinterpret_cast<const unsigned char*>(substitutions);
    for (std::size_t i = 0; i < substitution_count; ++i) {
      std::memcpy(&read[i], bytes + i * stride, stride);
      if (read[i].struct_size != stride) throw bad("substitutions of different sizes");
    }
    if (!table.take_payload) throw bad("substitutions, but its BpOptimization table lacks take_payload");
  }

  // Which list claimed each layer so far, for the overlap check.
  std::vector<std::string> claimed(layer_count);
  auto name_of = [&](std::size_t index) { return platform::Quoted(subgraph.layers[index]->GetName()); };
  auto check = [&](const BpLayerIndices& list, const std::string& where) {
    if (list.count != 0 && list.indices == nullptr) {
      throw bad(where + " with " + std::to_string(list.count) + " layers but no indices");
    }
    if (list.count > layer_count) {
      throw bad(where + " with " + std::to_string(list.count) + " layers, but the offered subgraph has " +
                std::to_string(layer_count));
    }
    backend::SubgraphView view;
    for (std::size_t i = 0; i < list.count; ++i) {
      const std::size_t index = list.indices[i];
      if (index >= layer_count) {
        throw bad(where + " naming layer index " + std::to_string(index) + ", but the offered subgraph has " +
                  std::to_string(layer_count) + " layers (indices 0 to " + std::to_string(layer_count - 1) + ")");
      }
      if (!claimed[index].empty()) {
        throw bad(claimed[index] + " and " + where + " both naming layer " + name_of(index) + " (index " +
                  std::to_string(index) + "); a layer may be in one place only");
      }
      claimed[index] = where;
      view.layers.push_back(subgraph.layers[index]);
    }
    return view;
  };

  backend::OptimizationViews views;
  std::vector<backend::SubgraphView> replaced;
  for (std::size_t i = 0; i < substitution_count; ++i) {
    const std::string name = FromC(read[i].name, kMaxTextBytes, origin, "optimize_subgraph");
    if (name.empty()) throw bad("substitution " + std::to_string(i) + " without a name");
    const std::string where = "substitution " + std::to_string(i) + " (" + platform::Quoted(name) + ")";
    replaced.push_back(check(read[i].replaced, where));
    if (replaced.back().layers.empty()) throw bad(where + " replacing no layer");
  }
  for (std::size_t i = 0; i < failed_count; ++i) {
    views.failed.push_back(check(failed[i], "failed list " + std::to_string(i)));
  }
  for (std::size_t i = 0; i < untouched_count; ++i) {
    views.untouched.push_back(check(untouched[i], "untouched list " + std::to_string(i)));
  }

  // Valid: take the payloads over. Each is owned by its descriptor before take_payload is
  // called, so an allocation failure leaves it with the result, which destroys it.
  for (std::size_t i = 0; i < substitution_count; ++i) {
    backend::Substitution substitution;
    substitution.replaced = std::move(replaced[i]);
    substitution.name = FromC(read[i].name, kMaxTextBytes, origin, "optimize_subgraph");
    substitution.descriptor = std::make_shared<backend::PreCompiledPayload>(read[i].payload, read[i].destroy_payload);
    table.take_payload(result.get(), i);
    views.substitutions.push_back(std::move(substitution));
  }
  return views;
}

// ---- The backend ----------------------------------------------------------------------------------

class CBackend final : public backend::IBackend {
 public:
  CBackend(BpBackend* backend, OriginPtr origin) : origin_(std::move(origin)), backend_(backend, *origin_) {
    id_ = BackendId(FromC(backend_.table().get_id(backend_.get()), kMaxIdBytes, *origin_, "get_id"));
    if (id_.IsEmpty()) {
      throw PluginError(ErrorCode::kBackendFailure, DescribeCall(*origin_, "get_id") + ": returned an empty id");
    }
  }

  BackendId GetId() const override { return id_; }
  // get_devices where the plugin has it (2.6; asked each time: the registry asks once), else
  // get_info's devices.
  std::vector<backend::DeviceInfo> GetDevices() const override {
    const auto get_devices = backend_.table().get_devices;
    return get_devices ? Query(get_devices, "get_devices").devices : Info().devices;
  }
  backend::BackendCapabilities GetCapabilities() const override { return Info().capabilities; }
  std::vector<backend::OptionSpec> GetOptionSpecs() const override { return Info().options; }
  std::vector<backend::FactoryId> GetHandleFactoryPreferences() const override { return Info().preferences; }

  std::unique_ptr<backend::IBackendContext> CreateBackendContext(const backend::BackendConfig& config) const override {
    const auto create = backend_.table().create_backend_context;
    if (create == nullptr) return nullptr;
    auto logger = std::make_unique<LogBridge>(config.log ? config.log : DefaultLogSink());
    std::vector<BpOption> options;
    options.reserve(config.options.size());
    for (const auto& [key, value] : config.options) options.push_back({ToC(key), ToC(value)});
    const BpBackendConfig c{sizeof(BpBackendConfig), options.data(), options.size(), logger->Get()};
    BpBackendContext* context = nullptr;
    CheckStatus(create(backend_.get(), &c, &context), *origin_, "create_backend_context");
    if (context == nullptr) return nullptr;
    return Adopt<CBackendContext>(context, std::move(logger), origin_);
  }

  bool IsAvailable(backend::IBackendContext* context, std::string* reason) const override {
    const auto check = backend_.table().check_available;
    if (reason) reason->clear();
    if (check == nullptr) return true;
    BpStatus* status = check(backend_.get(), Unwrap(context));
    if (status == nullptr) return true;
    if (StatusCode(status) == BP_STATUS_UNSUPPORTED) {
      std::string why = TakeReason(status);
      if (reason) *reason = std::move(why);
      return false;
    }
    CheckStatus(status, *origin_, "check_available");
    return false;  // not reached
  }

  std::shared_ptr<backend::ILayerSupport> GetLayerSupport() const override {
    BpLayerSupport* support = nullptr;
    CheckStatus(backend_.table().create_layer_support(backend_.get(), &support), *origin_, "create_layer_support");
    if (support == nullptr) return nullptr;
    return Adopt<CLayerSupport>(support, origin_);
  }

  backend::OptimizationViews OptimizeSubgraph(const backend::SubgraphView& subgraph) const override {
    const auto optimize = backend_.table().optimize_subgraph;
    if (optimize == nullptr) return IBackend::OptimizeSubgraph(subgraph);  // every layer untouched
    std::vector<std::unique_ptr<CLayer>> layers;
    std::vector<const BpLayer*> pointers;
    layers.reserve(subgraph.layers.size());
    pointers.reserve(subgraph.layers.size());
    for (const backend::ILayerView* view : subgraph.layers) {
      layers.push_back(std::make_unique<CLayer>(*view));
      pointers.push_back(layers.back()->Get());
    }
    const BpSubgraph c{sizeof(BpSubgraph), pointers.data(), pointers.size()};
    BpOptimization* result = nullptr;
    CheckStatus(optimize(backend_.get(), &c, &result), *origin_, "optimize_subgraph");
    if (result == nullptr) return IBackend::OptimizeSubgraph(subgraph);
    Owned<BpOptimization, BpOptimizationTable> owned(result, *origin_);
    return ReadOptimization(owned, subgraph, *origin_);
  }

  std::shared_ptr<backend::IMemoryManager> CreateMemoryManager() const override {
    const auto create = backend_.table().create_memory_manager;
    if (create == nullptr) return nullptr;
    BpMemoryManager* manager = nullptr;
    CheckStatus(create(backend_.get(), &manager), *origin_, "create_memory_manager");
    if (manager == nullptr) return nullptr;
    return Adopt<CMemoryManager>(manager, origin_);
  }

  std::unique_ptr<backend::IWorkloadFactory> CreateWorkloadFactory(
      const std::shared_ptr<backend::IMemoryManager>& memory_manager, backend::IBackendContext* context) const override {
    // Only a manager this boundary made can be handed back; any other is the runtime's own
    // business and the plugin sees none.
    auto* manager = dynamic_cast<CMemoryManager*>(memory_manager.get());
    BpWorkloadFactory* factory = nullptr;
    CheckStatus(backend_.table().create_workload_factory(backend_.get(), manager ? manager->Get() : nullptr,
                                                         Unwrap(context), &factory),
                *origin_, "create_workload_factory");
    if (factory == nullptr) {
      throw PluginError(ErrorCode::kBackendFailure,
                        DescribeCall(*origin_, "create_workload_factory") + ": returned no workload factory");
    }
    return Adopt<CWorkloadFactory>(factory, memory_manager, origin_);
  }

  void RegisterTensorHandleFactories(backend::ITensorHandleFactoryRegistry& registry) const override {
    const auto register_factories = backend_.table().register_tensor_handle_factories;
    if (register_factories == nullptr) return;
    CFactoryRegistry c(registry, origin_);
    CheckStatus(register_factories(backend_.get(), c.Get()), *origin_, "register_tensor_handle_factories");
  }

 private:
  // get_info, asked once per instance (instances are cheap and short-lived). Thread-safe.
  const BackendInfoValues& Info() const {
    std::lock_guard<std::mutex> lock(info_mutex_);
    if (!info_) info_ = Query(backend_.table().get_info, "get_info");
    return *info_;
  }

  // What `function` (get_info or get_devices, named `call`) returns, read and checked.
  BackendInfoValues Query(BpStatus* (*function)(const BpBackend*, BpBackendInfo**), const char* call) const {
    BpBackendInfo* info = nullptr;
    CheckStatus(function(backend_.get(), &info), *origin_, call);
    if (info == nullptr) throw PluginError(ErrorCode::kBackendFailure, DescribeCall(*origin_, call) + ": returned no info");
    const Owned<BpBackendInfo, BpBackendInfoTable> owned(info, *origin_);
    return ReadInfo(owned.table().data(owned.get()), *origin_, call);
  }

  OriginPtr origin_;
  Owned<BpBackend, BpBackendTable> backend_;
  BackendId id_;
  mutable std::mutex info_mutex_;
  mutable std::optional<BackendInfoValues> info_;
};

}  // namespace

std::unique_ptr<backend::IBackend> WrapBackend(BpBackend* backend, OriginPtr origin) {
  if (backend == nullptr) {
    throw PluginError(ErrorCode::kBackendFailure, "backend " + origin->id.Get() + ": BackendFactory returned null");
  }
  return Adopt<CBackend>(backend, std::move(origin));
}

std::string TakeRefusalReason(backend::IBackendContext* context) {
  auto* wrapped = dynamic_cast<CBackendContext*>(context);
  return wrapped ? wrapped->TakeRefusal() : std::string();
}

}  // namespace backplane::loading
