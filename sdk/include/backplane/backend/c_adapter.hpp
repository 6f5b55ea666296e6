// The plugin side of the C boundary: wraps a backend author's C++ objects (IBackend and what it
// hands out) in the C tables of backend_c_api.h, and shows what the runtime passes in (layers,
// tensor handles, the factory registry, the logger) to the author as the C++ interfaces.
//
// Header-only and compiled into each plugin (plugin.hpp's BACKPLANE_BACKEND_PLUGIN uses
// WrapBackend), so every object below is allocated and freed by the plugin's own code and
// standard library, and the runtime sees only C. Each table is one `inline constexpr` object per
// library: a plugin recognises its own objects when the runtime passes them back (tensor handles,
// memory managers, backend contexts) by comparing table pointers, and hands the author the
// original C++ object (so a backend may dynamic_cast a handle to its own type).
//
// Failure: no function in a table throws. Each body runs in GuardedCall: backplane::Exception
// becomes a status with its code, std::bad_alloc BP_STATUS_OUT_OF_MEMORY, another
// std::exception BP_STATUS_BACKEND_FAILURE with what(), anything else BP_STATUS_BACKEND_FAILURE
// "non-standard exception". Functions that return no status (destroy, get_info, unmap, ...)
// swallow what they cannot report, as stated on each.
//
// Thread safety is that of the wrapped C++ object (backend.hpp and the interfaces it names): the
// adapter adds no shared mutable state except the workload's argument cache (see
// WorkloadObject), which is safe for concurrent execute.
#pragma once

#include <backplane/backend/backend.hpp>
#include <backplane/backend/c_status.hpp>
#include <backplane/backend/op_attributes.hpp>
#include <backplane/backend_c_api.h>
#include <backplane/exception.hpp>
#include <backplane/logging.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace backplane::backend::c_adapter {

static_assert(BP_OPTION_STRING == static_cast<std::uint32_t>(OptionSpec::Type::kString), "option types");
static_assert(BP_OPTION_INTEGER == static_cast<std::uint32_t>(OptionSpec::Type::kInteger), "option types");
static_assert(BP_OPTION_BOOLEAN == static_cast<std::uint32_t>(OptionSpec::Type::kBoolean), "option types");
static_assert(BP_MEMORY_HOST == static_cast<std::uint32_t>(MemorySource::kHost), "memory sources");

// ---- Strings --------------------------------------------------------------------------------

// A view of `text`, valid while `text` lives unchanged.
inline BpString ToC(const std::string& text) noexcept {
  return BpString{text.empty() ? nullptr : text.data(), text.size()};
}

// A copy of `text` (from the other side). Throws Exception (kInvalidArgument) starting with
// `what` when it has bytes but no data.
inline std::string FromC(BpString text, std::string_view what) {
  if (text.size == 0) return {};
  if (text.data == nullptr) {
    throw Exception(ErrorCode::kInvalidArgument,
                    std::string(what) + ": a string of " + std::to_string(text.size) + " bytes with null data");
  }
  return std::string(text.data, text.size);
}

// The id of a backend as get_id returns it: valid as long as the library is loaded (the C
// header's promise), so ids are kept in a set that only grows, one entry per distinct id
// (a library has one backend, so one entry). Thread-safe.
inline const std::string& InternBackendId(const std::string& id) {
  static std::mutex mutex;
  static std::set<std::string, std::less<>> ids;
  std::lock_guard<std::mutex> lock(mutex);
  return *ids.insert(id).first;
}

// ---- Proxies: what the runtime passes in, as the C++ interfaces ------------------------------

// An ILayerView over a BpLayer filled by the runtime. Borrows `layer`, which must outlive the view
// (both are valid during one call: is_layer_supported, optimize_subgraph, create_workload).
// Reads and checks everything when constructed (throws Exception kInvalidArgument naming the
// layer for a malformed one), except a Constant's descriptor, which copies the constant's data
// and is built on the first GetDescriptor(). Thread-safe to read. Not copyable.
//
// The descriptor: op set v1 types get a copy built by DescriptorFromC, owned by the view (valid
// while the view lives). A PreCompiled layer's payload is what this plugin's adapter made in
// optimize_subgraph (the runtime hands a payload back only to the backend that made it), so its
// descriptor is the author's original shared descriptor.
class LayerView final : public ILayerView {
 public:
  explicit LayerView(const BpLayer& layer) : layer_(layer) {
    if (layer.struct_size < sizeof(BpLayer)) {
      throw Exception(ErrorCode::kInvalidArgument, "BpLayer struct_size " + std::to_string(layer.struct_size) +
                                                       " is below " + std::to_string(sizeof(BpLayer)));
    }
    name_ = FromC(layer.name, "layer name");
    if (layer.type >= kBpLayerTypeCount) {
      throw Exception(ErrorCode::kInvalidArgument,
                      "layer '" + name_ + "' has unknown layer type " + std::to_string(layer.type));
    }
    type_ = static_cast<LayerType>(layer.type);
    inputs_ = Infos(layer.inputs, layer.input_count, "input");
    outputs_ = Infos(layer.outputs, layer.output_count, "output");
    if (type_ == LayerType::kPreCompiled) {
      if (layer.attributes == nullptr) {
        throw Exception(ErrorCode::kInvalidArgument, "PreCompiled layer '" + name_ + "' has no attributes");
      }
      const auto& attributes = *static_cast<const BpPreCompiledAttributes*>(layer.attributes);
      if (attributes.struct_size < sizeof(BpPreCompiledAttributes)) {
        throw Exception(ErrorCode::kInvalidArgument, "PreCompiled layer '" + name_ + "': attributes struct_size " +
                                                         std::to_string(attributes.struct_size) + " is below " +
                                                         std::to_string(sizeof(BpPreCompiledAttributes)));
      }
      if (attributes.payload != nullptr) {
        descriptor_ = static_cast<const std::shared_ptr<const LayerDescriptor>*>(attributes.payload)->get();
      }
    } else if (type_ != LayerType::kConstant) {
      owned_ = Describe();
      descriptor_ = owned_.get();
    }
  }
  LayerView(const LayerView&) = delete;
  LayerView& operator=(const LayerView&) = delete;

  LayerType GetType() const override { return type_; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumInputs() const override { return inputs_.size(); }
  std::size_t GetNumOutputs() const override { return outputs_.size(); }
  const TensorInfo& GetInputInfo(std::size_t index) const override {
    return inputs_[CheckIndex(index, inputs_.size(), "input")];
  }
  const TensorInfo& GetOutputInfo(std::size_t index) const override {
    return outputs_[CheckIndex(index, outputs_.size(), "output")];
  }
  const LayerDescriptor* GetDescriptor() const override {
    if (type_ == LayerType::kConstant) {
      std::call_once(constant_once_, [this] { owned_ = Describe(); });
      return owned_.get();
    }
    return descriptor_;
  }
  const void* GetConstantInput(std::size_t index) const override {
    CheckIndex(index, inputs_.size(), "input");
    return layer_.constant_inputs ? layer_.constant_inputs[index] : nullptr;
  }
  std::string GetInputProducer(std::size_t index, std::size_t* output = nullptr) const override {
    CheckIndex(index, inputs_.size(), "input");
    if (output) *output = 0;
    if (layer_.producers == nullptr) return {};
    if (output) *output = layer_.producers[index].output;
    return FromC(layer_.producers[index].layer, "layer '" + name_ + "' producer of input " + std::to_string(index));
  }
  std::size_t GetOutputConsumerCount(std::size_t index) const override {
    CheckIndex(index, outputs_.size(), "output");
    return layer_.output_consumer_counts ? layer_.output_consumer_counts[index]
                                         : std::numeric_limits<std::size_t>::max();
  }

 private:
  std::vector<TensorInfo> Infos(const BpTensorInfo* infos, std::size_t count, const char* what) const {
    if (count > 0 && infos == nullptr) {
      throw Exception(ErrorCode::kInvalidArgument, "layer '" + name_ + "' has " + std::to_string(count) + " " + what +
                                                       "s but a null " + what + " array");
    }
    std::vector<TensorInfo> result;
    result.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      result.push_back(TensorInfoFromC(infos[i], "layer '" + name_ + "' " + what + " " + std::to_string(i)));
    }
    return result;
  }
  std::unique_ptr<LayerDescriptor> Describe() const {
    try {
      return DescriptorFromC(layer_.type, layer_.attributes);
    } catch (const Exception& error) {
      throw Exception(error.code(), "layer '" + name_ + "': " + error.what());
    }
  }
  std::size_t CheckIndex(std::size_t index, std::size_t count, const char* what) const {
    if (index >= count) {
      throw Exception(ErrorCode::kInvalidArgument, "layer '" + name_ + "' has " + std::to_string(count) + " " + what +
                                                       "s; " + what + " " + std::to_string(index) + " asked for");
    }
    return index;
  }

  const BpLayer& layer_;
  LayerType type_ = LayerType::kInput;
  std::string name_;
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
  mutable std::unique_ptr<LayerDescriptor> owned_;  // Constant: set once under constant_once_
  const LayerDescriptor* descriptor_ = nullptr;     // owned_ or a PreCompiled payload's
  mutable std::once_flag constant_once_;
};

// An ITensorHandle over a tensor handle the runtime (or another plugin) created. Borrows the
// handle, which must outlive the proxy (during one execute). Cheap to make: the TensorInfo is
// read on the first GetInfo(). Not thread-safe (as every ITensorHandle). Map and Import throw
// Exception with the status' code and message when the handle reports a failure.
class TensorHandleProxy final : public ITensorHandle {
 public:
  TensorHandleProxy() noexcept = default;
  explicit TensorHandleProxy(BpTensorHandle* handle) noexcept : handle_(handle) {}
  TensorHandleProxy(const TensorHandleProxy&) = delete;
  TensorHandleProxy& operator=(const TensorHandleProxy&) = delete;

  // Points the proxy at `handle` (not null, with a table), forgetting any info read before.
  void Reset(BpTensorHandle* handle) noexcept {
    handle_ = handle;
    info_.reset();
  }
  BpTensorHandle* Get() const noexcept { return handle_; }

  const TensorInfo& GetInfo() const override {
    if (!info_) {
      if (!BP_HAS_FUNCTION(handle_->table, BpTensorHandleTable, get_info)) {
        throw Exception(ErrorCode::kUnsupported, "tensor handle has no get_info");
      }
      BpTensorInfo info{};
      info.struct_size = sizeof(BpTensorInfo);
      handle_->table->get_info(handle_, &info);
      info_ = TensorInfoFromC(info, "tensor handle info");
    }
    return *info_;
  }
  void* Map() override {
    if (!BP_HAS_FUNCTION(handle_->table, BpTensorHandleTable, map)) {
      throw Exception(ErrorCode::kUnsupported, "tensor handle cannot be mapped (no map function)");
    }
    void* data = nullptr;
    // The context string is made only on failure: Map runs per execute.
    if (BpStatus* status = handle_->table->map(handle_, &data)) ThrowIfFailed(status, "mapping a tensor handle");
    if (data == nullptr) {
      Unmap();  // the map succeeded: pair it before reporting the null pointer
      throw Exception(ErrorCode::kBackendFailure, "mapping a tensor handle gave a null pointer");
    }
    return data;
  }
  void Unmap() override {
    if (BP_HAS_FUNCTION(handle_->table, BpTensorHandleTable, unmap)) handle_->table->unmap(handle_);
  }
  bool Import(void* memory, MemorySource source) override {
    if (!BP_HAS_FUNCTION(handle_->table, BpTensorHandleTable, import_memory)) return false;
    std::uint32_t imported = 0;
    if (BpStatus* status = handle_->table->import_memory(handle_, memory, static_cast<std::uint32_t>(source), &imported)) {
      ThrowIfFailed(status, "importing memory into a tensor handle");
    }
    return imported != 0;
  }

 private:
  BpTensorHandle* handle_ = nullptr;
  mutable std::optional<TensorInfo> info_;
};

// An ILogSink over the runtime's BpLogger (BackendConfig::log). Copies the BpLogger struct; its
// `context` must stay valid as long as the sink is used (the runtime keeps it as long as the
// backend context created with it). A null logger, one too small for `write`, or one without
// `write` gives a sink that drops every message. Thread-safe (the runtime's logger is).
class LogSinkProxy final : public ILogSink {
 public:
  explicit LogSinkProxy(const BpLogger* logger) noexcept {
    if (BP_HAS_FUNCTION(logger, BpLogger, write)) {
      context_ = logger->context;
      write_ = logger->write;
      if (BP_HAS_FUNCTION(logger, BpLogger, is_enabled)) is_enabled_ = logger->is_enabled;
    }
  }
  bool IsEnabled(LogLevel level, LogCategory category) const override {
    if (write_ == nullptr) return false;
    if (is_enabled_ == nullptr) return true;
    return is_enabled_(context_, static_cast<std::uint32_t>(level), static_cast<std::uint32_t>(category)) != 0;
  }
  void Write(LogLevel level, LogCategory category, std::string_view message) override {
    if (write_ == nullptr) return;
    write_(context_, static_cast<std::uint32_t>(level), static_cast<std::uint32_t>(category),
           BpString{message.empty() ? nullptr : message.data(), message.size()});
  }

 private:
  void* context_ = nullptr;
  std::uint32_t (*is_enabled_)(void*, std::uint32_t, std::uint32_t) = nullptr;
  void (*write_)(void*, std::uint32_t, std::uint32_t, BpString) = nullptr;
};

// ---- Tensor handles and their factories -------------------------------------------------

// A tensor handle this plugin created (BpTensorHandle), owning the author's ITensorHandle.
// Owned by whoever received it from create_handle; destroyed with its table's destroy.
struct TensorHandleObject : BpTensorHandle {
  explicit TensorHandleObject(std::unique_ptr<ITensorHandle> wrapped) noexcept;
  std::unique_ptr<ITensorHandle> handle;

  static void Destroy(BpTensorHandle* self) noexcept { delete static_cast<TensorHandleObject*>(self); }
  // Fills `info` from the author's GetInfo() (dims valid as long as the handle). When GetInfo()
  // throws, fills an info whose data type is UINT32_MAX, which any reader refuses by name.
  static void GetInfo(const BpTensorHandle* self, BpTensorInfo* info) noexcept {
    if (info == nullptr) return;
    try {
      *info = CTensorInfo(static_cast<const TensorHandleObject*>(self)->handle->GetInfo());
    } catch (...) {
      *info = BpTensorInfo{sizeof(BpTensorInfo), std::numeric_limits<std::uint32_t>::max(), nullptr, 0};
    }
  }
  static BpStatus* Map(BpTensorHandle* self, void** data) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (data == nullptr) return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "map: null data pointer");
      *data = static_cast<TensorHandleObject*>(self)->handle->Map();
      return nullptr;
    });
  }
  // What Unmap throws is lost (unmap returns nothing).
  static void Unmap(BpTensorHandle* self) noexcept {
    try {
      static_cast<TensorHandleObject*>(self)->handle->Unmap();
    } catch (...) {
    }
  }
  static BpStatus* ImportMemory(BpTensorHandle* self, void* memory, std::uint32_t source,
                                std::uint32_t* imported) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (imported == nullptr) return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "import_memory: null result pointer");
      *imported = 0;
      *imported = static_cast<TensorHandleObject*>(self)->handle->Import(memory, static_cast<MemorySource>(source))
                      ? 1u
                      : 0u;
      return nullptr;
    });
  }
};

inline constexpr BpTensorHandleTable kTensorHandleTable{
    sizeof(BpTensorHandleTable), &TensorHandleObject::Destroy, &TensorHandleObject::GetInfo,
    &TensorHandleObject::Map,    &TensorHandleObject::Unmap,   &TensorHandleObject::ImportMemory};

inline TensorHandleObject::TensorHandleObject(std::unique_ptr<ITensorHandle> wrapped) noexcept
    : BpTensorHandle{&kTensorHandleTable}, handle(std::move(wrapped)) {}

// The author's handle behind `handle` when this plugin created it, else null. Never throws.
inline ITensorHandle* OwnTensorHandle(const BpTensorHandle* handle) noexcept {
  if (handle == nullptr || handle->table != &kTensorHandleTable) return nullptr;
  return static_cast<const TensorHandleObject*>(handle)->handle.get();
}

// A tensor-handle factory this plugin registered, owning the author's factory. Owned by the
// runtime's registry. Thread-safe as the author's factory is.
struct TensorHandleFactoryObject : BpTensorHandleFactory {
  explicit TensorHandleFactoryObject(std::unique_ptr<ITensorHandleFactory> wrapped);
  std::unique_ptr<ITensorHandleFactory> factory;
  std::string id;  // a copy of GetId(), made once

  static void Destroy(BpTensorHandleFactory* self) noexcept {
    delete static_cast<TensorHandleFactoryObject*>(self);
  }
  static BpString GetId(const BpTensorHandleFactory* self) noexcept {
    return ToC(static_cast<const TensorHandleFactoryObject*>(self)->id);
  }
  // Fills the fields that fit in properties->struct_size; leaves them when GetProperties throws.
  static void GetProperties(const BpTensorHandleFactory* self, BpTensorHandleFactoryProperties* properties) noexcept {
    if (properties == nullptr) return;
    try {
      const TensorHandleFactoryProperties values =
          static_cast<const TensorHandleFactoryObject*>(self)->factory->GetProperties();
      if (BP_HAS_FIELD(properties, BpTensorHandleFactoryProperties, supports_map_unmap)) {
        properties->supports_map_unmap = values.supports_map_unmap ? 1u : 0u;
      }
      if (BP_HAS_FIELD(properties, BpTensorHandleFactoryProperties, import_sources)) {
        properties->import_sources = values.import_sources;
      }
      if (BP_HAS_FIELD(properties, BpTensorHandleFactoryProperties, export_sources)) {
        properties->export_sources = values.export_sources;
      }
    } catch (...) {
    }
  }
  static BpStatus* CreateHandle(const BpTensorHandleFactory* self, const BpTensorInfo* info,
                                BpTensorHandle** handle) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      const auto& object = *static_cast<const TensorHandleFactoryObject*>(self);
      if (handle == nullptr || info == nullptr) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT,
                          "tensor-handle factory '" + object.id + "': create_handle with a null argument");
      }
      *handle = nullptr;
      auto created = object.factory->CreateTensorHandle(
          TensorInfoFromC(*info, "tensor-handle factory '" + object.id + "': create_handle info"));
      if (!created) {
        return MakeStatus(BP_STATUS_BACKEND_FAILURE,
                          "tensor-handle factory '" + object.id + "' returned no handle");
      }
      *handle = new TensorHandleObject(std::move(created));
      return nullptr;
    });
  }
};

inline constexpr BpTensorHandleFactoryTable kTensorHandleFactoryTable{
    sizeof(BpTensorHandleFactoryTable), &TensorHandleFactoryObject::Destroy, &TensorHandleFactoryObject::GetId,
    &TensorHandleFactoryObject::GetProperties, &TensorHandleFactoryObject::CreateHandle};

inline TensorHandleFactoryObject::TensorHandleFactoryObject(std::unique_ptr<ITensorHandleFactory> wrapped)
    : BpTensorHandleFactory{&kTensorHandleFactoryTable}, factory(std::move(wrapped)), id(factory->GetId()) {}

// An ITensorHandleFactoryRegistry over the runtime's registry, for one
// register_tensor_handle_factories call (borrows `registry`, which must outlive it).
// RegisterFactory wraps the factory and hands it to the runtime, which owns it from then on;
// throws Exception (kInvalidArgument) for a null factory, and the status' code and message when
// the registry refuses it.
class TensorHandleFactoryRegistryProxy final : public ITensorHandleFactoryRegistry {
 public:
  explicit TensorHandleFactoryRegistryProxy(BpTensorHandleFactoryRegistry* registry) noexcept
      : registry_(registry) {}

  void RegisterFactory(std::unique_ptr<ITensorHandleFactory> factory) override {
    if (!factory) throw Exception(ErrorCode::kInvalidArgument, "RegisterFactory: null tensor-handle factory");
    if (!BP_HAS_FUNCTION(registry_->table, BpTensorHandleFactoryRegistryTable, register_factory)) {
      throw Exception(ErrorCode::kInternal, "the runtime's tensor-handle factory registry has no register_factory");
    }
    auto wrapped = std::make_unique<TensorHandleFactoryObject>(std::move(factory));
    const std::string id = wrapped->id;
    // The registry owns the factory from the call on, also when it refuses it.
    ThrowIfFailed(registry_->table->register_factory(registry_, wrapped.release()),
                  "registering tensor-handle factory '" + id + "'");
  }

 private:
  BpTensorHandleFactoryRegistry* registry_;
};

// ---- Workloads ------------------------------------------------------------------------------

// The ITensorHandle* the author sees for the handles of one execute, in order: this plugin's own
// handles unwrapped, the others behind proxies that live in this object. Proxy storage for up to
// kInline handles lives inside the object (on the caller's stack: no heap allocation for typical
// arity) and a proxy is constructed only for a handle this plugin did not create; more handles
// take two allocations. Borrows `handles`; valid during one execute. Throws Exception
// (kInvalidArgument) for a null array with entries or a null handle or table.
class HandleArguments {
 public:
  static constexpr std::size_t kInline = 8;

  HandleArguments(BpTensorHandle* const* handles, std::size_t count, const char* what) : count_(count) {
    if (count > 0 && handles == nullptr) {
      throw Exception(ErrorCode::kInvalidArgument,
                      std::string("execute: ") + std::to_string(count) + " " + what + "s but a null array");
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (handles[i] == nullptr || handles[i]->table == nullptr) {
        throw Exception(ErrorCode::kInvalidArgument,
                        std::string("execute: ") + what + " " + std::to_string(i) + " is a null tensor handle");
      }
    }
    if (count > kInline) {
      overflow_slots_.reset(new Slot[count]);
      overflow_pointers_.reset(new ITensorHandle*[count]);
    }
    slots_ = count > kInline ? overflow_slots_.get() : inline_slots_.data();
    pointers_ = count > kInline ? overflow_pointers_.get() : inline_pointers_.data();
    // Nothing below throws, so the destructor sees every proxy constructed here.
    for (std::size_t i = 0; i < count; ++i) {
      if (ITensorHandle* own = OwnTensorHandle(handles[i])) {
        pointers_[i] = own;
      } else {
        pointers_[i] = new (&slots_[i].proxy) TensorHandleProxy(handles[i]);
      }
    }
  }
  ~HandleArguments() {
    for (std::size_t i = 0; i < count_; ++i) {
      if (pointers_[i] == &slots_[i].proxy) slots_[i].proxy.~TensorHandleProxy();
    }
  }
  HandleArguments(const HandleArguments&) = delete;
  HandleArguments& operator=(const HandleArguments&) = delete;

  ITensorHandle* const* begin() const noexcept { return pointers_; }
  ITensorHandle* const* end() const noexcept { return pointers_ + count_; }

 private:
  // Room for one proxy, constructed only when needed.
  union Slot {
    Slot() noexcept {}
    ~Slot() {}
    TensorHandleProxy proxy;
  };

  std::size_t count_;
  Slot* slots_ = nullptr;
  ITensorHandle** pointers_ = nullptr;
  std::array<Slot, kInline> inline_slots_;
  std::array<ITensorHandle*, kInline> inline_pointers_;
  std::unique_ptr<Slot[]> overflow_slots_;
  std::unique_ptr<ITensorHandle*[]> overflow_pointers_;
};

// The two vectors WorkloadArgs refers to, kept by a workload between runs so that execute does
// not allocate: the first caller takes them (one atomic exchange) and gives them back; a caller
// that finds them taken (another thread executing the same workload now) uses vectors of its own.
// Not a thread_local: one with a destructor would keep a dlopen'ed plugin mapped until each
// thread that ran it exits.
struct ArgumentCache {
  std::atomic<bool> busy{false};
  std::vector<ITensorHandle*> inputs;
  std::vector<ITensorHandle*> outputs;
};

// One execute's hold on an ArgumentCache (or on vectors of its own); gives it back, emptied,
// when destroyed.
class ArgumentVectors {
 public:
  explicit ArgumentVectors(ArgumentCache& cache) noexcept
      : cache_(cache.busy.exchange(true, std::memory_order_acquire) ? nullptr : &cache) {}
  ~ArgumentVectors() {
    if (cache_) {
      cache_->inputs.clear();
      cache_->outputs.clear();
      cache_->busy.store(false, std::memory_order_release);
    }
  }
  ArgumentVectors(const ArgumentVectors&) = delete;
  ArgumentVectors& operator=(const ArgumentVectors&) = delete;

  std::vector<ITensorHandle*>& inputs() noexcept { return cache_ ? cache_->inputs : own_inputs_; }
  std::vector<ITensorHandle*>& outputs() noexcept { return cache_ ? cache_->outputs : own_outputs_; }

 private:
  ArgumentCache* cache_;
  std::vector<ITensorHandle*> own_inputs_;
  std::vector<ITensorHandle*> own_outputs_;
};

// A workload this plugin created, owning the author's IWorkload. Owned by the runtime. execute
// may run concurrently (the author's Execute must allow it, spec 004); the scratch size and the
// info are read once, at creation (a workload is immutable once created), so get_info returns
// what the object holds, from any thread.
//
// Per-call cost of execute: no heap allocation for up to HandleArguments::kInline inputs and
// outputs once the cached vectors have grown (first run) and while no other thread executes the
// same workload; one atomic exchange and store; a proxy (three stores) per handle this plugin
// did not create.
struct WorkloadObject : BpWorkload {
  WorkloadObject(std::unique_ptr<IWorkload> wrapped, std::size_t scratch, WorkloadInfo info) noexcept;
  WorkloadObject(const WorkloadObject&) = delete;  // c_info points into info
  WorkloadObject& operator=(const WorkloadObject&) = delete;
  std::unique_ptr<IWorkload> workload;
  std::size_t scratch_size;
  WorkloadInfo info;
  BpWorkloadInfo c_info;
  mutable ArgumentCache cache;

  static void Destroy(BpWorkload* self) noexcept { delete static_cast<WorkloadObject*>(self); }
  static BpStatus* Execute(const BpWorkload* self, const BpWorkloadArgs* args) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (args == nullptr || args->struct_size < sizeof(BpWorkloadArgs)) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "execute: null or too small BpWorkloadArgs");
      }
      const auto& object = *static_cast<const WorkloadObject*>(self);
      const HandleArguments inputs(args->inputs, args->input_count, "input");
      const HandleArguments outputs(args->outputs, args->output_count, "output");
      ArgumentVectors vectors(object.cache);
      vectors.inputs().assign(inputs.begin(), inputs.end());
      vectors.outputs().assign(outputs.begin(), outputs.end());
      object.workload->Execute(WorkloadArgs{vectors.inputs(), vectors.outputs(), args->scratch});
      return nullptr;
    });
  }
  static std::size_t GetScratchSize(const BpWorkload* self) noexcept {
    return static_cast<const WorkloadObject*>(self)->scratch_size;
  }
  static const BpWorkloadInfo* GetInfo(const BpWorkload* self) noexcept {
    return &static_cast<const WorkloadObject*>(self)->c_info;
  }
};

inline constexpr BpWorkloadTable kWorkloadTable{sizeof(BpWorkloadTable),          &WorkloadObject::Destroy,
                                                &WorkloadObject::Execute,         &WorkloadObject::GetScratchSize,
                                                &WorkloadObject::GetInfo};

inline WorkloadObject::WorkloadObject(std::unique_ptr<IWorkload> wrapped, std::size_t scratch,
                                      WorkloadInfo described) noexcept
    : BpWorkload{&kWorkloadTable},
      workload(std::move(wrapped)),
      scratch_size(scratch),
      info(std::move(described)),
      c_info{sizeof(BpWorkloadInfo), ToC(info.implementation), ToC(info.slow_path)} {}

// A workload factory this plugin created, owning the author's IWorkloadFactory. Owned by the
// runtime; called from one thread at a time (as the author's factory expects).
struct WorkloadFactoryObject : BpWorkloadFactory {
  explicit WorkloadFactoryObject(std::unique_ptr<IWorkloadFactory> wrapped) noexcept;
  std::unique_ptr<IWorkloadFactory> factory;

  static void Destroy(BpWorkloadFactory* self) noexcept { delete static_cast<WorkloadFactoryObject*>(self); }
  static BpStatus* CreateWorkload(BpWorkloadFactory* self, const BpLayer* layer, BpWorkload** workload) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (layer == nullptr || workload == nullptr) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "create_workload with a null argument");
      }
      *workload = nullptr;
      const LayerView view(*layer);
      auto created = static_cast<WorkloadFactoryObject*>(self)->factory->CreateWorkload(view);
      if (!created) {
        return MakeStatus(BP_STATUS_BACKEND_FAILURE,
                          "CreateWorkload returned no workload for layer '" + view.GetName() + "'");
      }
      const std::size_t scratch = created->GetScratchSize();
      WorkloadInfo info = created->GetInfo();
      *workload = new WorkloadObject(std::move(created), scratch, std::move(info));
      return nullptr;
    });
  }
};

inline constexpr BpWorkloadFactoryTable kWorkloadFactoryTable{
    sizeof(BpWorkloadFactoryTable), &WorkloadFactoryObject::Destroy, &WorkloadFactoryObject::CreateWorkload};

inline WorkloadFactoryObject::WorkloadFactoryObject(std::unique_ptr<IWorkloadFactory> wrapped) noexcept
    : BpWorkloadFactory{&kWorkloadFactoryTable}, factory(std::move(wrapped)) {}

// ---- Memory manager, backend context, layer support ---------------------------------------

// A memory manager this plugin created, sharing the author's IMemoryManager (the workload
// factories created with it share it too). Owned by the runtime; calls are serialized by it.
struct MemoryManagerObject : BpMemoryManager {
  explicit MemoryManagerObject(std::shared_ptr<IMemoryManager> wrapped) noexcept;
  std::shared_ptr<IMemoryManager> manager;

  static void Destroy(BpMemoryManager* self) noexcept { delete static_cast<MemoryManagerObject*>(self); }
  static BpStatus* Acquire(BpMemoryManager* self) noexcept {
    return GuardedCall([&] { static_cast<MemoryManagerObject*>(self)->manager->Acquire(); });
  }
  static BpStatus* Release(BpMemoryManager* self) noexcept {
    return GuardedCall([&] { static_cast<MemoryManagerObject*>(self)->manager->Release(); });
  }
};

inline constexpr BpMemoryManagerTable kMemoryManagerTable{sizeof(BpMemoryManagerTable), &MemoryManagerObject::Destroy,
                                                          &MemoryManagerObject::Acquire, &MemoryManagerObject::Release};

inline MemoryManagerObject::MemoryManagerObject(std::shared_ptr<IMemoryManager> wrapped) noexcept
    : BpMemoryManager{&kMemoryManagerTable}, manager(std::move(wrapped)) {}

// The author's memory manager behind `manager` (null for null). Throws Exception
// (kInvalidArgument) for a manager this plugin did not create.
inline const std::shared_ptr<IMemoryManager>& UnwrapMemoryManager(const BpMemoryManager* manager) {
  static const std::shared_ptr<IMemoryManager> kNone;
  if (manager == nullptr) return kNone;
  if (manager->table != &kMemoryManagerTable) {
    throw Exception(ErrorCode::kInvalidArgument, "the memory manager passed in was not created by this backend");
  }
  return static_cast<const MemoryManagerObject*>(manager)->manager;
}

// A backend context this plugin created, owning the author's IBackendContext. Owned by the
// runtime, for its lifetime; calls never run concurrently. A Before/After call answering false
// becomes BP_STATUS_UNSUPPORTED naming the call and the network.
struct BackendContextObject : BpBackendContext {
  BackendContextObject(std::unique_ptr<IBackendContext> wrapped, std::string backend_id) noexcept;
  std::unique_ptr<IBackendContext> context;
  std::string backend;

  static void Destroy(BpBackendContext* self) noexcept { delete static_cast<BackendContextObject*>(self); }
  static BpStatus* BeforeLoad(BpBackendContext* self, std::uint64_t network) noexcept {
    return Notify(self, network, &IBackendContext::BeforeLoadNetwork, "BeforeLoadNetwork");
  }
  static BpStatus* AfterLoad(BpBackendContext* self, std::uint64_t network) noexcept {
    return Notify(self, network, &IBackendContext::AfterLoadNetwork, "AfterLoadNetwork");
  }
  static BpStatus* BeforeUnload(BpBackendContext* self, std::uint64_t network) noexcept {
    return Notify(self, network, &IBackendContext::BeforeUnloadNetwork, "BeforeUnloadNetwork");
  }
  static BpStatus* AfterUnload(BpBackendContext* self, std::uint64_t network) noexcept {
    return Notify(self, network, &IBackendContext::AfterUnloadNetwork, "AfterUnloadNetwork");
  }

 private:
  static BpStatus* Notify(BpBackendContext* self, std::uint64_t network, bool (IBackendContext::*call)(NetworkId),
                          const char* name) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      auto& object = *static_cast<BackendContextObject*>(self);
      if ((object.context.get()->*call)(network)) return nullptr;
      return MakeStatus(BP_STATUS_UNSUPPORTED, "backend " + object.backend + ": " + name + "(" +
                                                   std::to_string(network) + ") returned false");
    });
  }
};

inline constexpr BpBackendContextTable kBackendContextTable{
    sizeof(BpBackendContextTable),       &BackendContextObject::Destroy,   &BackendContextObject::BeforeLoad,
    &BackendContextObject::AfterLoad,    &BackendContextObject::BeforeUnload, &BackendContextObject::AfterUnload};

inline BackendContextObject::BackendContextObject(std::unique_ptr<IBackendContext> wrapped,
                                                  std::string backend_id) noexcept
    : BpBackendContext{&kBackendContextTable}, context(std::move(wrapped)), backend(std::move(backend_id)) {}

// The author's context behind `context` (null for null). Throws Exception (kInvalidArgument) for
// a context this plugin did not create.
inline IBackendContext* UnwrapBackendContext(const BpBackendContext* context) {
  if (context == nullptr) return nullptr;
  if (context->table != &kBackendContextTable) {
    throw Exception(ErrorCode::kInvalidArgument, "the backend context passed in was not created by this backend");
  }
  return static_cast<const BackendContextObject*>(context)->context.get();
}

// A layer support this plugin created, sharing the author's ILayerSupport. Owned by the
// runtime; thread-safe as the author's layer support must be.
struct LayerSupportObject : BpLayerSupport {
  explicit LayerSupportObject(std::shared_ptr<ILayerSupport> wrapped) noexcept;
  std::shared_ptr<ILayerSupport> support;

  static void Destroy(BpLayerSupport* self) noexcept { delete static_cast<LayerSupportObject*>(self); }
  static BpStatus* IsLayerSupported(const BpLayerSupport* self, const BpLayer* layer) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (layer == nullptr) return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "is_layer_supported: null layer");
      const LayerView view(*layer);
      std::string reason;
      if (static_cast<const LayerSupportObject*>(self)->support->IsLayerSupported(view, &reason)) return nullptr;
      if (reason.empty()) reason = "layer '" + view.GetName() + "' is not supported (no reason given)";
      return MakeStatus(BP_STATUS_UNSUPPORTED, std::move(reason));
    });
  }
};

inline constexpr BpLayerSupportTable kLayerSupportTable{sizeof(BpLayerSupportTable), &LayerSupportObject::Destroy,
                                                        &LayerSupportObject::IsLayerSupported};

inline LayerSupportObject::LayerSupportObject(std::shared_ptr<ILayerSupport> wrapped) noexcept
    : BpLayerSupport{&kLayerSupportTable}, support(std::move(wrapped)) {}

// ---- Subgraph optimization ----------------------------------------------------------------

// What optimize_subgraph returns: the author's OptimizationViews with every layer view mapped
// back to its index in the offered BpSubgraph. Owned by the runtime, read from one thread.
// Each substitution's payload is a `new std::shared_ptr<const LayerDescriptor>` (the author's
// descriptor) freed by DestroyPayload; the object frees the payloads the runtime did not take.
struct OptimizationObject : BpOptimization {
  OptimizationObject() noexcept;
  ~OptimizationObject() {
    for (std::size_t i = 0; i < substitutions.size(); ++i) {
      if (!taken[i]) DestroyPayload(substitutions[i].payload);
    }
  }
  OptimizationObject(const OptimizationObject&) = delete;
  OptimizationObject& operator=(const OptimizationObject&) = delete;

  std::vector<BpSubstitution> substitutions;  // names and indices point into the members below
  std::vector<bool> taken;
  std::vector<std::string> names;
  std::vector<std::vector<std::size_t>> substitution_indices;
  std::vector<std::vector<std::size_t>> failed_indices;
  std::vector<std::vector<std::size_t>> untouched_indices;
  std::vector<BpLayerIndices> failed;
  std::vector<BpLayerIndices> untouched;

  static void DestroyPayload(void* payload) noexcept {
    delete static_cast<std::shared_ptr<const LayerDescriptor>*>(payload);
  }
  static void Destroy(BpOptimization* self) noexcept { delete static_cast<OptimizationObject*>(self); }
  static const BpSubstitution* Substitutions(const BpOptimization* self, std::size_t* count) noexcept {
    return List(static_cast<const OptimizationObject*>(self)->substitutions, count);
  }
  static const BpLayerIndices* Failed(const BpOptimization* self, std::size_t* count) noexcept {
    return List(static_cast<const OptimizationObject*>(self)->failed, count);
  }
  static const BpLayerIndices* Untouched(const BpOptimization* self, std::size_t* count) noexcept {
    return List(static_cast<const OptimizationObject*>(self)->untouched, count);
  }
  // An index out of range is ignored (there is no status to report it with).
  static void TakePayload(BpOptimization* self, std::size_t index) noexcept {
    auto& object = *static_cast<OptimizationObject*>(self);
    if (index < object.taken.size()) object.taken[index] = true;
  }

 private:
  template <typename T>
  static const T* List(const std::vector<T>& list, std::size_t* count) noexcept {
    if (count) *count = list.size();
    return list.empty() ? nullptr : list.data();
  }
};

inline constexpr BpOptimizationTable kOptimizationTable{
    sizeof(BpOptimizationTable),       &OptimizationObject::Destroy,   &OptimizationObject::Substitutions,
    &OptimizationObject::Failed,       &OptimizationObject::Untouched, &OptimizationObject::TakePayload};

inline OptimizationObject::OptimizationObject() noexcept : BpOptimization{&kOptimizationTable} {}

namespace detail {
inline BpLayerIndices IndicesOf(const std::vector<std::size_t>& indices) noexcept {
  return BpLayerIndices{indices.empty() ? nullptr : indices.data(), indices.size()};
}
}  // namespace detail

// The author's OptimizeSubgraph over `subgraph`, as a new OptimizationObject (owned by the
// caller). Throws Exception (kInvalidArgument) for a malformed subgraph, and (kBackendFailure)
// naming the layer when the result lists a view that is not one of the offered layers.
inline std::unique_ptr<OptimizationObject> OptimizeSubgraph(const IBackend& backend, const BpSubgraph& subgraph) {
  if (subgraph.struct_size < sizeof(BpSubgraph)) {
    throw Exception(ErrorCode::kInvalidArgument, "BpSubgraph struct_size " + std::to_string(subgraph.struct_size) +
                                                     " is below " + std::to_string(sizeof(BpSubgraph)));
  }
  if (subgraph.layer_count > 0 && subgraph.layers == nullptr) {
    throw Exception(ErrorCode::kInvalidArgument, "subgraph of " + std::to_string(subgraph.layer_count) +
                                                     " layers with a null layer array");
  }
  // Views are not movable (a Constant's descriptor is built once, on demand): one allocation each.
  std::vector<std::unique_ptr<LayerView>> views;
  views.reserve(subgraph.layer_count);
  std::unordered_map<const ILayerView*, std::size_t> index_of;
  index_of.reserve(subgraph.layer_count);
  SubgraphView offered;
  offered.layers.reserve(subgraph.layer_count);
  for (std::size_t i = 0; i < subgraph.layer_count; ++i) {
    if (subgraph.layers[i] == nullptr) {
      throw Exception(ErrorCode::kInvalidArgument, "subgraph layer " + std::to_string(i) + " is null");
    }
    views.push_back(std::make_unique<LayerView>(*subgraph.layers[i]));
    index_of.emplace(views.back().get(), i);
    offered.layers.push_back(views.back().get());
  }

  const OptimizationViews result = backend.OptimizeSubgraph(offered);

  auto indices = [&](const SubgraphView& part, const std::string& where) {
    std::vector<std::size_t> list;
    list.reserve(part.layers.size());
    for (const ILayerView* layer : part.layers) {
      if (layer == nullptr) {
        throw Exception(ErrorCode::kBackendFailure, "OptimizeSubgraph returned a null layer in " + where);
      }
      const auto found = index_of.find(layer);
      if (found == index_of.end()) {
        throw Exception(ErrorCode::kBackendFailure, "OptimizeSubgraph returned layer '" + layer->GetName() + "' in " +
                                                        where + ", which is not a layer of the offered subgraph");
      }
      list.push_back(found->second);
    }
    return list;
  };

  auto object = std::make_unique<OptimizationObject>();
  const std::size_t count = result.substitutions.size();
  object->names.reserve(count);
  object->substitution_indices.reserve(count);
  object->substitutions.reserve(count);
  object->taken.reserve(count);
  for (const Substitution& substitution : result.substitutions) {
    const std::string where = "substitution '" + substitution.name + "'";
    object->substitution_indices.push_back(indices(substitution.replaced, where));
    object->names.push_back(substitution.name);
    // Kept in `substitutions` (and freed by the object unless taken) as soon as it exists.
    auto payload = std::make_unique<std::shared_ptr<const LayerDescriptor>>(substitution.descriptor);
    object->taken.push_back(false);
    object->substitutions.push_back(BpSubstitution{sizeof(BpSubstitution),
                                                   detail::IndicesOf(object->substitution_indices.back()),
                                                   ToC(object->names.back()), payload.release(),
                                                   &OptimizationObject::DestroyPayload});
  }
  for (std::size_t i = 0; i < result.failed.size(); ++i) {
    object->failed_indices.push_back(indices(result.failed[i], "failed part " + std::to_string(i)));
  }
  for (std::size_t i = 0; i < result.untouched.size(); ++i) {
    object->untouched_indices.push_back(indices(result.untouched[i], "untouched part " + std::to_string(i)));
  }
  // The lists of indices are complete: point at them now (their buffers no longer move).
  for (const auto& list : object->failed_indices) object->failed.push_back(detail::IndicesOf(list));
  for (const auto& list : object->untouched_indices) object->untouched.push_back(detail::IndicesOf(list));
  return object;
}

// ---- Backend info and the backend ----------------------------------------------------------

// What get_info returns (kDescription: copies of the author's capabilities, options and
// preferences, no device) and what get_devices returns (kDevices: the devices only), with the C
// arrays pointing into them. Two parts since 2.6 so that describing a backend never initialises
// its device (GetDevices may: OpenCL enumerates its platforms). Owned by the runtime; valid until
// destroy. Not copyable.
struct BackendInfoObject : BpBackendInfo {
  enum class Part { kDescription, kDevices };
  BackendInfoObject(const IBackend& backend, Part part);
  BackendInfoObject(const BackendInfoObject&) = delete;
  BackendInfoObject& operator=(const BackendInfoObject&) = delete;

  BpBackendInfoData data{};
  BackendCapabilities capabilities;
  std::vector<std::uint32_t> data_types;
  std::vector<std::uint32_t> layer_types;
  std::vector<BpNamedFlag> flags;  // names point into capabilities.values' keys
  std::vector<DeviceInfo> devices;
  std::vector<BpDeviceInfo> c_devices;
  std::vector<OptionSpec> options;
  std::vector<BpOptionSpec> c_options;
  std::vector<FactoryId> preferences;
  std::vector<BpString> c_preferences;

  static void Destroy(BpBackendInfo* self) noexcept { delete static_cast<BackendInfoObject*>(self); }
  static const BpBackendInfoData* Data(const BpBackendInfo* self) noexcept {
    return &static_cast<const BackendInfoObject*>(self)->data;
  }
};

inline constexpr BpBackendInfoTable kBackendInfoTable{sizeof(BpBackendInfoTable), &BackendInfoObject::Destroy,
                                                      &BackendInfoObject::Data};

inline BackendInfoObject::BackendInfoObject(const IBackend& backend, Part part) : BpBackendInfo{&kBackendInfoTable} {
  if (part == Part::kDevices) {
    devices = backend.GetDevices();
  } else {
    capabilities = backend.GetCapabilities();
    options = backend.GetOptionSpecs();
    preferences = backend.GetHandleFactoryPreferences();
  }
  for (DataType type : capabilities.data_types) data_types.push_back(static_cast<std::uint32_t>(type));
  for (LayerType type : capabilities.layer_types) layer_types.push_back(static_cast<std::uint32_t>(type));
  for (const auto& [name, value] : capabilities.values) flags.push_back(BpNamedFlag{ToC(name), value ? 1u : 0u});
  for (const DeviceInfo& device : devices) {
    c_devices.push_back(BpDeviceInfo{ToC(device.name), static_cast<std::uint32_t>(device.kind),
                                     device.available ? 1u : 0u, ToC(device.reason)});
  }
  for (const OptionSpec& option : options) {
    c_options.push_back(BpOptionSpec{ToC(option.key), static_cast<std::uint32_t>(option.type),
                                     ToC(option.default_value), ToC(option.doc)});
  }
  for (const FactoryId& id : preferences) c_preferences.push_back(ToC(id));

  auto array = [](const auto& list) { return list.empty() ? nullptr : list.data(); };
  data.struct_size = sizeof(BpBackendInfoData);
  data.device_kind = static_cast<std::uint32_t>(capabilities.device_kind);
  data.data_types = array(data_types);
  data.data_type_count = data_types.size();
  data.layer_types = array(layer_types);
  data.layer_type_count = layer_types.size();
  data.flags = array(flags);
  data.flag_count = flags.size();
  data.devices = array(c_devices);
  data.device_count = c_devices.size();
  data.options = array(c_options);
  data.option_count = c_options.size();
  data.handle_factory_preferences = array(c_preferences);
  data.handle_factory_preference_count = c_preferences.size();
}

// The BpBackend BackendFactory returns: owns the author's IBackend. Owned by the runtime,
// destroyed with its table's destroy. Thread-safe (the author's const methods must be; the
// adapter keeps no mutable state). Each function's results are new objects the caller owns.
struct BackendObject : BpBackend {
  // Throws what the backend's GetId() throws, or std::bad_alloc.
  explicit BackendObject(std::unique_ptr<IBackend> wrapped);
  std::unique_ptr<IBackend> backend;
  const std::string& id;  // interned: valid as long as the library is loaded

  static const BackendObject& Of(const BpBackend* self) noexcept { return *static_cast<const BackendObject*>(self); }

  static void Destroy(BpBackend* self) noexcept { delete static_cast<BackendObject*>(self); }
  static BpString GetId(const BpBackend* self) noexcept { return ToC(Of(self).id); }

  static BpStatus* GetInfo(const BpBackend* self, BpBackendInfo** info) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (info == nullptr) return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "get_info: null result pointer");
      *info = nullptr;
      *info = new BackendInfoObject(*Of(self).backend, BackendInfoObject::Part::kDescription);
      return nullptr;
    });
  }

  static BpStatus* GetDevices(const BpBackend* self, BpBackendInfo** info) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (info == nullptr) return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "get_devices: null result pointer");
      *info = nullptr;
      *info = new BackendInfoObject(*Of(self).backend, BackendInfoObject::Part::kDevices);
      return nullptr;
    });
  }

  // A null config reads as no options and no logger.
  static BpStatus* CreateBackendContext(const BpBackend* self, const BpBackendConfig* config,
                                        BpBackendContext** context) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (context == nullptr) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "create_backend_context: null result pointer");
      }
      *context = nullptr;
      if (config != nullptr && config->struct_size < sizeof(BpBackendConfig)) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "BpBackendConfig struct_size " +
                                                          std::to_string(config->struct_size) + " is below " +
                                                          std::to_string(sizeof(BpBackendConfig)));
      }
      BackendConfig cpp_config;
      if (config != nullptr && config->option_count > 0) {
        if (config->options == nullptr) {
          return MakeStatus(BP_STATUS_INVALID_ARGUMENT,
                            "BpBackendConfig has " + std::to_string(config->option_count) + " options but a null array");
        }
        for (std::size_t i = 0; i < config->option_count; ++i) {
          const std::string where = "option " + std::to_string(i);
          cpp_config.options[FromC(config->options[i].key, where + " key")] =
              FromC(config->options[i].value, where + " value");
        }
      }
      cpp_config.log = std::make_shared<LogSinkProxy>(config ? config->logger : nullptr);
      const BackendObject& object = Of(self);
      std::unique_ptr<IBackendContext> created = object.backend->CreateBackendContext(cpp_config);
      if (created) {
        *context = new BackendContextObject(std::move(created), object.id);
      }
      return nullptr;
    });
  }

  static BpStatus* CheckAvailable(const BpBackend* self, BpBackendContext* context) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      const BackendObject& object = Of(self);
      std::string reason;
      if (object.backend->IsAvailable(UnwrapBackendContext(context), &reason)) return nullptr;
      if (reason.empty()) reason = "backend " + object.id + " is not available";
      return MakeStatus(BP_STATUS_UNSUPPORTED, std::move(reason));
    });
  }

  static BpStatus* CreateLayerSupport(const BpBackend* self, BpLayerSupport** support) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (support == nullptr) return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "create_layer_support: null result pointer");
      *support = nullptr;
      std::shared_ptr<ILayerSupport> created = Of(self).backend->GetLayerSupport();
      if (!created) return MakeStatus(BP_STATUS_BACKEND_FAILURE, "GetLayerSupport returned no layer support");
      *support = new LayerSupportObject(std::move(created));
      return nullptr;
    });
  }

  static BpStatus* OptimizeSubgraph(const BpBackend* self, const BpSubgraph* subgraph,
                                    BpOptimization** result) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (subgraph == nullptr || result == nullptr) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "optimize_subgraph with a null argument");
      }
      *result = nullptr;
      *result = c_adapter::OptimizeSubgraph(*Of(self).backend, *subgraph).release();
      return nullptr;
    });
  }

  static BpStatus* CreateMemoryManager(const BpBackend* self, BpMemoryManager** manager) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (manager == nullptr) return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "create_memory_manager: null result pointer");
      *manager = nullptr;
      std::shared_ptr<IMemoryManager> created = Of(self).backend->CreateMemoryManager();
      if (created) *manager = new MemoryManagerObject(std::move(created));
      return nullptr;
    });
  }

  static BpStatus* CreateWorkloadFactory(const BpBackend* self, BpMemoryManager* manager, BpBackendContext* context,
                                         BpWorkloadFactory** factory) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (factory == nullptr) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "create_workload_factory: null result pointer");
      }
      *factory = nullptr;
      std::unique_ptr<IWorkloadFactory> created =
          Of(self).backend->CreateWorkloadFactory(UnwrapMemoryManager(manager), UnwrapBackendContext(context));
      if (!created) return MakeStatus(BP_STATUS_BACKEND_FAILURE, "CreateWorkloadFactory returned no factory");
      *factory = new WorkloadFactoryObject(std::move(created));
      return nullptr;
    });
  }

  static BpStatus* RegisterTensorHandleFactories(const BpBackend* self,
                                                 BpTensorHandleFactoryRegistry* registry) noexcept {
    return GuardedCall([&]() -> BpStatus* {
      if (registry == nullptr || registry->table == nullptr) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "register_tensor_handle_factories: null registry");
      }
      TensorHandleFactoryRegistryProxy proxy(registry);
      Of(self).backend->RegisterTensorHandleFactories(proxy);
      return nullptr;
    });
  }
};

inline constexpr BpBackendTable kBackendTable{sizeof(BpBackendTable),
                                              &BackendObject::Destroy,
                                              &BackendObject::GetId,
                                              &BackendObject::GetInfo,
                                              &BackendObject::CreateBackendContext,
                                              &BackendObject::CheckAvailable,
                                              &BackendObject::CreateLayerSupport,
                                              &BackendObject::OptimizeSubgraph,
                                              &BackendObject::CreateMemoryManager,
                                              &BackendObject::CreateWorkloadFactory,
                                              &BackendObject::RegisterTensorHandleFactories,
                                              &BackendObject::GetDevices};

inline BackendObject::BackendObject(std::unique_ptr<IBackend> wrapped)
    : BpBackend{&kBackendTable}, backend(std::move(wrapped)), id(InternBackendId(backend->GetId().Get())) {}

// ---- Entry ------------------------------------------------------------------------------

// `backend` (not null) in the C tables: a new BpBackend owned by the caller, who destroys it with
// backend->table->destroy (which deletes the IBackend). Throws what backend->GetId() throws,
// Exception (kInvalidArgument) for a null backend, or std::bad_alloc.
inline BpBackend* WrapBackend(std::unique_ptr<IBackend> backend) {
  if (!backend) throw Exception(ErrorCode::kInvalidArgument, "WrapBackend: null backend");
  return new BackendObject(std::move(backend));
}

}  // namespace backplane::backend::c_adapter
