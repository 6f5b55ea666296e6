// The plugin adapter driven through the C tables only, as the runtime drives a plugin: a small
// C++ backend wrapped by WrapBackend, runtime-style host tensor handles and a registry written
// here in the C style.
#include <backplane/backend/c_adapter.hpp>
#include <backplane/plugin.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace backplane::backend {
namespace {

// ---- The author's side: a tiny C++ backend ----------------------------------------------

// A backend-defined descriptor for the PreCompiled layer OptimizeSubgraph makes.
struct FusedDescriptor final : LayerDescriptor {
  int tag = 42;
};

// A tensor handle of the backend's own kind (owns its floats).
class OwnHandle final : public ITensorHandle {
 public:
  explicit OwnHandle(TensorInfo info) : info_(std::move(info)), data_(info_.shape.NumElements()) {}
  const TensorInfo& GetInfo() const override { return info_; }
  void* Map() override { return data_.data(); }
  void Unmap() override {}
  bool Import(void*, MemorySource) override { return false; }

 private:
  TensorInfo info_;
  std::vector<float> data_;
};

class OwnHandleFactory final : public ITensorHandleFactory {
 public:
  explicit OwnHandleFactory(FactoryId id) : id_(std::move(id)) {}
  const FactoryId& GetId() const override { return id_; }
  TensorHandleFactoryProperties GetProperties() const override {
    return {true, static_cast<MemorySourceFlags>(MemorySource::kHost), 0};
  }
  std::unique_ptr<ITensorHandle> CreateTensorHandle(const TensorInfo& info) const override {
    return std::make_unique<OwnHandle>(info);
  }

 private:
  FactoryId id_;
};

// What the author's objects saw, for the checks.
struct Observed {
  std::shared_ptr<IMemoryManager> manager;
  IBackendContext* context = nullptr;
  std::string producer;
  std::size_t producer_output = 99;
  std::size_t consumers = 0;
  const LayerDescriptor* descriptor = nullptr;
  std::atomic<int> own_inputs{0};  // inputs of the last execute that were OwnHandles
};

class CountingMemoryManager final : public IMemoryManager {
 public:
  void Acquire() override { ++acquired; }
  void Release() override { ++released; }
  int acquired = 0;
  int released = 0;
};

class TestContext final : public IBackendContext {
 public:
  explicit TestContext(BackendConfig config) : config(std::move(config)) {}
  bool BeforeLoadNetwork(NetworkId network) override { return network != 13; }
  bool AfterLoadNetwork(NetworkId) override { return true; }
  bool BeforeUnloadNetwork(NetworkId) override { return true; }
  bool AfterUnloadNetwork(NetworkId) override { return true; }
  BackendConfig config;
};

// Sums all its inputs (f32, one shape) into output 0.
class SumWorkload final : public IWorkload {
 public:
  explicit SumWorkload(Observed& observed) : observed_(observed) {}
  void Execute(const WorkloadArgs& args) const override {
    if (args.scratch == nullptr) throw Exception(ErrorCode::kInvalidArgument, "sum: no scratch");
    if (args.outputs.size() != 1) throw std::runtime_error("sum: one output expected");
    const std::size_t count = static_cast<std::size_t>(args.outputs[0]->GetInfo().shape.NumElements());
    auto* out = static_cast<float*>(args.outputs[0]->Map());
    for (std::size_t i = 0; i < count; ++i) out[i] = 0.0f;
    int own = 0;
    for (ITensorHandle* input : args.inputs) {
      if (dynamic_cast<OwnHandle*>(input)) ++own;
      const auto* in = static_cast<const float*>(input->Map());
      for (std::size_t i = 0; i < count; ++i) out[i] += in[i];
      input->Unmap();
    }
    args.outputs[0]->Unmap();
    observed_.own_inputs = own;
  }
  std::size_t GetScratchSize() const override { return 128; }
  WorkloadInfo GetInfo() const override { return {"sum loop", "not vectorized"}; }

 private:
  Observed& observed_;
};

class TestWorkloadFactory final : public IWorkloadFactory {
 public:
  explicit TestWorkloadFactory(Observed& observed) : observed_(observed) {}
  std::unique_ptr<IWorkload> CreateWorkload(const ILayerView& layer) override {
    observed_.descriptor = layer.GetDescriptor();
    if (layer.GetType() == LayerType::kPreCompiled) return std::make_unique<SumWorkload>(observed_);
    if (layer.GetType() != LayerType::kElementwiseBinary ||
        static_cast<const ElementwiseBinaryDescriptor&>(*layer.GetDescriptor()).operation != BinaryOperation::kAdd) {
      throw Exception(ErrorCode::kUnsupported, "no workload for layer '" + layer.GetName() + "'");
    }
    observed_.producer = layer.GetInputProducer(0, &observed_.producer_output);
    observed_.consumers = layer.GetOutputConsumerCount(0);
    return std::make_unique<SumWorkload>(observed_);
  }

 private:
  Observed& observed_;
};

class ReluRefusingSupport final : public ILayerSupport {
 public:
  bool IsLayerSupported(const ILayerView& layer, std::string* reason) const override {
    if (layer.GetType() == LayerType::kActivation &&
        static_cast<const ActivationDescriptor&>(*layer.GetDescriptor()).function == ActivationFunction::kRelu) {
      *reason = "Relu is not supported by this test backend";
      return false;
    }
    return true;
  }
};

// A view OptimizeSubgraph makes up (not one of the offered layers).
class GhostView final : public ILayerView {
 public:
  LayerType GetType() const override { return LayerType::kActivation; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumInputs() const override { return 0; }
  std::size_t GetNumOutputs() const override { return 0; }
  const TensorInfo& GetInputInfo(std::size_t) const override { return info_; }
  const TensorInfo& GetOutputInfo(std::size_t) const override { return info_; }
  const LayerDescriptor* GetDescriptor() const override { return nullptr; }
  const void* GetConstantInput(std::size_t) const override { return nullptr; }

 private:
  std::string name_ = "ghost";
  TensorInfo info_;
};

enum class Mode { kNormal, kGhostView, kDuplicateFactory };

class TestBackend final : public IBackend {
 public:
  TestBackend(Observed& observed, Mode mode = Mode::kNormal) : observed_(observed), mode_(mode) {}

  BackendId GetId() const override { return BackendId("AdapterTest"); }
  BackendCapabilities GetCapabilities() const override {
    BackendCapabilities capabilities;
    capabilities.device_kind = DeviceKind::kGpu;
    capabilities.data_types = {DataType::kFloat32, DataType::kInt64};
    capabilities.layer_types = {LayerType::kElementwiseBinary, LayerType::kActivation};
    capabilities.values = {{"AsyncExecution", true}, {"ProtectedContentAllocation", false}};
    return capabilities;
  }
  std::vector<DeviceInfo> GetDevices() const override {
    return {{"host cpu", DeviceKind::kCpu, true, ""}, {"fake gpu", DeviceKind::kGpu, false, "no driver"}};
  }
  std::vector<OptionSpec> GetOptionSpecs() const override {
    return {{"threads", OptionSpec::Type::kInteger, "0", "worker threads"},
            {"available", OptionSpec::Type::kBoolean, "1", "whether the backend is available"}};
  }
  std::vector<FactoryId> GetHandleFactoryPreferences() const override {
    return {"Test/Adapter/Own", kHostFactoryId};
  }
  std::unique_ptr<IBackendContext> CreateBackendContext(const BackendConfig& config) const override {
    if (config.options.count("no_context")) return nullptr;
    REQUIRE(config.log.get() != nullptr);
    if (config.log->IsEnabled(LogLevel::kInfo, LogCategory::kPlugin)) {
      config.log->Write(LogLevel::kInfo, LogCategory::kPlugin,
                        "context with " + std::to_string(config.options.size()) + " options");
    }
    return std::make_unique<TestContext>(config);
  }
  bool IsAvailable(IBackendContext* context, std::string* reason) const override {
    auto* test_context = dynamic_cast<TestContext*>(context);
    if (test_context && test_context->config.options.count("available") &&
        test_context->config.options.at("available") == "0") {
      *reason = "disabled by option available=0";
      return false;
    }
    return true;
  }
  std::shared_ptr<ILayerSupport> GetLayerSupport() const override { return std::make_shared<ReluRefusingSupport>(); }
  OptimizationViews OptimizeSubgraph(const SubgraphView& subgraph) const override {
    OptimizationViews views;
    if (subgraph.layers.size() < 2) {
      views.untouched.push_back(subgraph);
      return views;
    }
    Substitution substitution;
    substitution.name = "fused";
    substitution.replaced.layers = {subgraph.layers[1], subgraph.layers[0]};
    if (mode_ == Mode::kGhostView) substitution.replaced.layers.push_back(&ghost_);
    substitution.descriptor = fused;
    views.substitutions.push_back(substitution);
    SubgraphView rest;
    rest.layers.assign(subgraph.layers.begin() + 2, subgraph.layers.end());
    views.untouched.push_back(rest);
    return views;
  }
  std::shared_ptr<IMemoryManager> CreateMemoryManager() const override {
    return std::make_shared<CountingMemoryManager>();
  }
  std::unique_ptr<IWorkloadFactory> CreateWorkloadFactory(const std::shared_ptr<IMemoryManager>& manager,
                                                          IBackendContext* context) const override {
    observed_.manager = manager;
    observed_.context = context;
    return std::make_unique<TestWorkloadFactory>(observed_);
  }
  void RegisterTensorHandleFactories(ITensorHandleFactoryRegistry& registry) const override {
    registry.RegisterFactory(std::make_unique<OwnHandleFactory>("Test/Adapter/Own"));
    if (mode_ == Mode::kDuplicateFactory) registry.RegisterFactory(std::make_unique<OwnHandleFactory>("Test/Adapter/Own"));
  }

  std::shared_ptr<const FusedDescriptor> fused = std::make_shared<FusedDescriptor>();

 private:
  Observed& observed_;
  Mode mode_;
  GhostView ghost_;
};

// A backend whose every method throws, each in its own way.
class ThrowingBackend final : public IBackend {
 public:
  BackendId GetId() const override { return BackendId("Thrower"); }
  BackendCapabilities GetCapabilities() const override { throw std::runtime_error("capabilities exploded"); }
  std::shared_ptr<ILayerSupport> GetLayerSupport() const override { throw 7; }
  bool IsAvailable(IBackendContext*, std::string*) const override {
    throw Exception(ErrorCode::kNotFound, "no device node /dev/test0");
  }
  std::shared_ptr<IMemoryManager> CreateMemoryManager() const override { throw std::bad_alloc(); }
  std::unique_ptr<IWorkloadFactory> CreateWorkloadFactory(const std::shared_ptr<IMemoryManager>&,
                                                          IBackendContext*) const override {
    throw Exception(ErrorCode::kUnsupported, "no factory today");
  }
  OptimizationViews OptimizeSubgraph(const SubgraphView&) const override { throw std::runtime_error(""); }
};

// ---- The runtime's side, written as C would --------------------------------------------

// Owns a BpBackend (or any table object) and destroys it with its table's destroy.
template <typename Object>
struct Destroyer {
  void operator()(Object* object) const {
    if (object) object->table->destroy(object);
  }
};
template <typename Object>
using Owned = std::unique_ptr<Object, Destroyer<Object>>;

Owned<BpBackend> Wrap(std::unique_ptr<IBackend> backend) {
  return Owned<BpBackend>(c_adapter::WrapBackend(std::move(backend)));
}

std::string Text(BpString text) { return text.size ? std::string(text.data, text.size) : std::string(); }

// Checks `status` is not null, has `code`, and returns its message (destroying it).
std::string Failure(BpStatus* raw, std::uint32_t code) {
  StatusPtr status(raw);
  REQUIRE(status != nullptr);
  CHECK(status->code == code);
  return MessageOf(status.get());
}

// A runtime-style host tensor handle: f32 memory the test owns, with counters.
struct HostHandle : BpTensorHandle {
  explicit HostHandle(std::vector<std::int64_t> shape, float* memory);
  std::vector<std::int64_t> dims;
  float* data;
  int maps = 0;
  int unmaps = 0;

  static void Destroy(BpTensorHandle*) {}
  static void GetInfo(const BpTensorHandle* self, BpTensorInfo* info) {
    const auto& handle = *static_cast<const HostHandle*>(self);
    *info = BpTensorInfo{sizeof(BpTensorInfo), BP_DATA_TYPE_F32, handle.dims.data(), handle.dims.size()};
  }
  static BpStatus* Map(BpTensorHandle* self, void** data) {
    auto& handle = *static_cast<HostHandle*>(self);
    ++handle.maps;
    *data = handle.data;
    return nullptr;
  }
  static void Unmap(BpTensorHandle* self) { ++static_cast<HostHandle*>(self)->unmaps; }
  static BpStatus* Import(BpTensorHandle* self, void* memory, std::uint32_t source, std::uint32_t* imported) {
    *imported = source == BP_MEMORY_HOST ? 1u : 0u;
    if (*imported) static_cast<HostHandle*>(self)->data = static_cast<float*>(memory);
    return nullptr;
  }
};
const BpTensorHandleTable kHostHandleTable{sizeof(BpTensorHandleTable), &HostHandle::Destroy, &HostHandle::GetInfo,
                                           &HostHandle::Map, &HostHandle::Unmap, &HostHandle::Import};
HostHandle::HostHandle(std::vector<std::int64_t> shape, float* memory)
    : BpTensorHandle{&kHostHandleTable}, dims(std::move(shape)), data(memory) {}

// A runtime-style registry: keeps the factories, refuses a second one with the same id.
struct Registry : BpTensorHandleFactoryRegistry {
  Registry();
  std::vector<Owned<BpTensorHandleFactory>> factories;

  static BpStatus* Register(BpTensorHandleFactoryRegistry* self, BpTensorHandleFactory* factory) {
    auto& registry = *static_cast<Registry*>(self);
    Owned<BpTensorHandleFactory> owned(factory);
    const std::string id = Text(factory->table->get_id(factory));
    for (const auto& existing : registry.factories) {
      if (Text(existing->table->get_id(existing.get())) == id) {
        return MakeStatus(BP_STATUS_INVALID_ARGUMENT, "duplicate factory id " + id);
      }
    }
    registry.factories.push_back(std::move(owned));
    return nullptr;
  }
};
const BpTensorHandleFactoryRegistryTable kRegistryTable{sizeof(BpTensorHandleFactoryRegistryTable),
                                                        &Registry::Register};
Registry::Registry() : BpTensorHandleFactoryRegistry{&kRegistryTable} {}

// One layer as the runtime fills it: f32 [4] tensors, producers "a":1, "b":0, ...
struct LayerBuilder {
  LayerBuilder(std::uint32_t type, std::string layer_name, const void* attributes, std::size_t input_count = 2)
      : name(std::move(layer_name)) {
    for (std::size_t i = 0; i < input_count; ++i) {
      inputs.push_back({sizeof(BpTensorInfo), BP_DATA_TYPE_F32, dims, 1});
      constants.push_back(nullptr);
      producer_names.push_back(std::string(1, static_cast<char>('a' + i)));
    }
    for (std::size_t i = 0; i < input_count; ++i) producers.push_back({ToC(producer_names[i]), i == 0 ? 1u : 0u});
    outputs.push_back({sizeof(BpTensorInfo), BP_DATA_TYPE_F32, dims, 1});
    layer = BpLayer{sizeof(BpLayer), type, ToC(name), inputs.data(), inputs.size(), outputs.data(), outputs.size(),
                    attributes, constants.data(), producers.data(), consumer_counts};
  }
  LayerBuilder(const LayerBuilder&) = delete;
  static BpString ToC(const std::string& text) { return c_adapter::ToC(text); }

  const std::int64_t dims[1] = {4};
  std::string name;
  std::vector<BpTensorInfo> inputs;
  std::vector<BpTensorInfo> outputs;
  std::vector<const void*> constants;
  std::vector<std::string> producer_names;
  std::vector<BpProducer> producers;
  const std::size_t consumer_counts[1] = {3};
  BpLayer layer{};
};

const BpElementwiseBinaryAttributes kAdd{sizeof(BpElementwiseBinaryAttributes), BP_BINARY_ADD};
const BpActivationAttributes kRelu{sizeof(BpActivationAttributes), BP_ACTIVATION_RELU, 0.0f, 0.0f};
const BpActivationAttributes kSigmoid{sizeof(BpActivationAttributes), BP_ACTIVATION_SIGMOID, 0.0f, 0.0f};

// A memory manager and workload factory of `backend` (no context).
Owned<BpWorkloadFactory> Factory(const BpBackend* backend) {
  BpWorkloadFactory* factory = nullptr;
  REQUIRE(backend->table->create_workload_factory(backend, nullptr, nullptr, &factory) == nullptr);
  return Owned<BpWorkloadFactory>(factory);
}

Owned<BpWorkload> AddWorkload(BpWorkloadFactory* factory) {
  LayerBuilder add(BP_LAYER_ELEMENTWISE_BINARY, "add", &kAdd);
  BpWorkload* workload = nullptr;
  REQUIRE(factory->table->create_workload(factory, &add.layer, &workload) == nullptr);
  REQUIRE(workload != nullptr);
  return Owned<BpWorkload>(workload);
}

BpStatus* Execute(const BpWorkload* workload, std::vector<BpTensorHandle*> inputs,
                  std::vector<BpTensorHandle*> outputs) {
  alignas(64) static thread_local unsigned char scratch[128];
  const BpWorkloadArgs args{sizeof(BpWorkloadArgs), inputs.data(), inputs.size(), outputs.data(), outputs.size(),
                            scratch};
  return workload->table->execute(workload, &args);
}

// ---- Tests --------------------------------------------------------------------------------

TEST_CASE("c adapter: get_id and get_info report what the C++ backend says") {
  Observed observed;
  auto backend = Wrap(std::make_unique<TestBackend>(observed));
  CHECK(backend->table->struct_size == sizeof(BpBackendTable));
  CHECK(Text(backend->table->get_id(backend.get())) == "AdapterTest");

  BpBackendInfo* raw = nullptr;
  REQUIRE(backend->table->get_info(backend.get(), &raw) == nullptr);
  Owned<BpBackendInfo> info(raw);
  const BpBackendInfoData& data = *info->table->data(info.get());
  CHECK(data.struct_size == sizeof(BpBackendInfoData));
  CHECK(data.device_kind == BP_DEVICE_GPU);
  REQUIRE(data.data_type_count == 2);
  CHECK(data.data_types[0] == BP_DATA_TYPE_F32);
  CHECK(data.data_types[1] == BP_DATA_TYPE_I64);
  REQUIRE(data.layer_type_count == 2);
  CHECK(data.layer_types[0] == BP_LAYER_ELEMENTWISE_BINARY);
  CHECK(data.layer_types[1] == BP_LAYER_ACTIVATION);
  REQUIRE(data.flag_count == 2);
  CHECK(Text(data.flags[0].name) == "AsyncExecution");
  CHECK(data.flags[0].value == 1);
  CHECK(Text(data.flags[1].name) == "ProtectedContentAllocation");
  CHECK(data.flags[1].value == 0);
  CHECK(data.device_count == 0);  // since 2.6 the devices are get_devices' alone
  REQUIRE(data.option_count == 2);
  CHECK(Text(data.options[0].key) == "threads");
  CHECK(data.options[0].type == BP_OPTION_INTEGER);
  CHECK(Text(data.options[0].default_value) == "0");
  CHECK(Text(data.options[0].doc) == "worker threads");
  CHECK(data.options[1].type == BP_OPTION_BOOLEAN);
  REQUIRE(data.handle_factory_preference_count == 2);
  CHECK(Text(data.handle_factory_preferences[0]) == "Test/Adapter/Own");
  CHECK(Text(data.handle_factory_preferences[1]) == kHostFactoryId);

  // get_devices: the devices alone, the rest of its info empty.
  BpBackendInfo* raw_devices = nullptr;
  REQUIRE(backend->table->get_devices(backend.get(), &raw_devices) == nullptr);
  Owned<BpBackendInfo> devices(raw_devices);
  const BpBackendInfoData& listed = *devices->table->data(devices.get());
  CHECK(listed.layer_type_count == 0);
  CHECK(listed.option_count == 0);
  REQUIRE(listed.device_count == 2);
  CHECK(Text(listed.devices[1].name) == "fake gpu");
  CHECK(listed.devices[1].kind == BP_DEVICE_GPU);
  CHECK(listed.devices[1].available == 0);
  CHECK(Text(listed.devices[1].reason) == "no driver");
  CHECK(listed.devices[0].available == 1);
  CHECK(listed.devices[0].reason.size == 0);
  CHECK(Failure(backend->table->get_devices(backend.get(), nullptr), BP_STATUS_INVALID_ARGUMENT).find("null") !=
        std::string::npos);
}

TEST_CASE("c adapter: what a backend throws becomes a status with the right code and message") {
  auto backend = Wrap(std::make_unique<ThrowingBackend>());
  const BpBackend* b = backend.get();

  BpBackendInfo* info = nullptr;
  CHECK(Failure(b->table->get_info(b, &info), BP_STATUS_BACKEND_FAILURE) == "capabilities exploded");
  CHECK(info == nullptr);

  BpLayerSupport* support = nullptr;
  CHECK(Failure(b->table->create_layer_support(b, &support), BP_STATUS_BACKEND_FAILURE) == "non-standard exception");
  CHECK(Failure(b->table->check_available(b, nullptr), BP_STATUS_NOT_FOUND) == "no device node /dev/test0");

  BpMemoryManager* manager = nullptr;
  CHECK(Failure(b->table->create_memory_manager(b, &manager), BP_STATUS_OUT_OF_MEMORY) == "out of memory");

  BpWorkloadFactory* factory = nullptr;
  CHECK(Failure(b->table->create_workload_factory(b, nullptr, nullptr, &factory), BP_STATUS_UNSUPPORTED) ==
        "no factory today");
  CHECK(factory == nullptr);

  LayerBuilder add(BP_LAYER_ELEMENTWISE_BINARY, "add", &kAdd);
  const BpLayer* layers[] = {&add.layer};
  const BpSubgraph subgraph{sizeof(BpSubgraph), layers, 1};
  BpOptimization* optimization = nullptr;
  CHECK(Failure(b->table->optimize_subgraph(b, &subgraph, &optimization), BP_STATUS_BACKEND_FAILURE) == "");

  // A backend without a context: create_backend_context leaves it null.
  BpBackendContext dummy{nullptr};
  BpBackendContext* context = &dummy;
  CHECK(b->table->create_backend_context(b, nullptr, &context) == nullptr);
  CHECK(context == nullptr);

  // Null result pointers are refused, not written through.
  CHECK(Failure(b->table->get_info(b, nullptr), BP_STATUS_INVALID_ARGUMENT).find("null") != std::string::npos);
}

TEST_CASE("c adapter: backend context gets options and the logger, and comes back unwrapped") {
  Observed observed;
  auto backend = Wrap(std::make_unique<TestBackend>(observed));
  const BpBackend* b = backend.get();

  struct Log {
    std::vector<std::string> messages;
    std::uint32_t level = 99;
    std::uint32_t category = 99;
  } log;
  const BpLogger logger{sizeof(BpLogger), &log,
                        [](void*, std::uint32_t, std::uint32_t) -> std::uint32_t { return 1; },
                        [](void* context, std::uint32_t level, std::uint32_t category, BpString message) {
                          auto& target = *static_cast<Log*>(context);
                          target.messages.push_back(Text(message));
                          target.level = level;
                          target.category = category;
                        }};
  const std::string keys[] = {"threads", "available"};
  const std::string values[] = {"4", "1"};
  const BpOption options[] = {{c_adapter::ToC(keys[0]), c_adapter::ToC(values[0])},
                              {c_adapter::ToC(keys[1]), c_adapter::ToC(values[1])}};
  const BpBackendConfig config{sizeof(BpBackendConfig), options, 2, &logger};

  BpBackendContext* raw = nullptr;
  REQUIRE(b->table->create_backend_context(b, &config, &raw) == nullptr);
  REQUIRE(raw != nullptr);
  Owned<BpBackendContext> context(raw);
  REQUIRE(log.messages.size() == 1);
  CHECK(log.messages[0] == "context with 2 options");
  CHECK(log.level == BP_LOG_INFO);
  CHECK(log.category == BP_LOG_PLUGIN);

  CHECK(b->table->check_available(b, context.get()) == nullptr);
  CHECK(context->table->before_load_network(context.get(), 1) == nullptr);
  CHECK(Failure(context->table->before_load_network(context.get(), 13), BP_STATUS_UNSUPPORTED) ==
        "backend AdapterTest: BeforeLoadNetwork(13) returned false");
  CHECK(context->table->after_unload_network(context.get(), 13) == nullptr);

  // The factory gets the author's own context back, and the manager's IMemoryManager.
  BpMemoryManager* raw_manager = nullptr;
  REQUIRE(b->table->create_memory_manager(b, &raw_manager) == nullptr);
  Owned<BpMemoryManager> manager(raw_manager);
  REQUIRE(manager != nullptr);
  CHECK(manager->table->acquire(manager.get()) == nullptr);
  CHECK(manager->table->release(manager.get()) == nullptr);
  BpWorkloadFactory* raw_factory = nullptr;
  REQUIRE(b->table->create_workload_factory(b, manager.get(), context.get(), &raw_factory) == nullptr);
  Owned<BpWorkloadFactory> factory(raw_factory);
  auto* test_context = dynamic_cast<TestContext*>(observed.context);
  REQUIRE(test_context != nullptr);
  CHECK(test_context->config.options.at("threads") == "4");
  auto* counting = dynamic_cast<CountingMemoryManager*>(observed.manager.get());
  REQUIRE(counting != nullptr);
  CHECK(counting->acquired == 1);
  CHECK(counting->released == 1);

  // A context or manager this plugin did not make is refused.
  const BpBackendContextTable foreign_table{sizeof(BpBackendContextTable), nullptr, nullptr, nullptr, nullptr, nullptr};
  BpBackendContext foreign{&foreign_table};
  CHECK(Failure(b->table->check_available(b, &foreign), BP_STATUS_INVALID_ARGUMENT) ==
        "the backend context passed in was not created by this backend");
  const BpMemoryManagerTable foreign_manager_table{sizeof(BpMemoryManagerTable), nullptr, nullptr, nullptr};
  BpMemoryManager foreign_manager{&foreign_manager_table};
  BpWorkloadFactory* refused = nullptr;
  CHECK(Failure(b->table->create_workload_factory(b, &foreign_manager, nullptr, &refused),
                BP_STATUS_INVALID_ARGUMENT) == "the memory manager passed in was not created by this backend");

  // Options decide availability.
  const std::string off = "0";
  const BpOption unavailable[] = {{c_adapter::ToC(keys[1]), c_adapter::ToC(off)}};
  const BpBackendConfig off_config{sizeof(BpBackendConfig), unavailable, 1, nullptr};
  BpBackendContext* raw_off = nullptr;
  REQUIRE(b->table->create_backend_context(b, &off_config, &raw_off) == nullptr);
  Owned<BpBackendContext> off_context(raw_off);
  CHECK(Failure(b->table->check_available(b, off_context.get()), BP_STATUS_UNSUPPORTED) ==
        "disabled by option available=0");
}

TEST_CASE("c adapter: a missing or too small logger gives a sink that drops messages") {
  const BpLogger small{8, nullptr, nullptr, nullptr};
  c_adapter::LogSinkProxy dropped(&small);
  CHECK_FALSE(dropped.IsEnabled(LogLevel::kError, LogCategory::kPlugin));
  dropped.Write(LogLevel::kError, LogCategory::kPlugin, "lost");
  c_adapter::LogSinkProxy none(nullptr);
  CHECK_FALSE(none.IsEnabled(LogLevel::kError, LogCategory::kPlugin));
  none.Write(LogLevel::kError, LogCategory::kPlugin, "lost");
}

TEST_CASE("c adapter: layer support says no with the backend's reason") {
  Observed observed;
  auto backend = Wrap(std::make_unique<TestBackend>(observed));
  BpLayerSupport* raw = nullptr;
  REQUIRE(backend->table->create_layer_support(backend.get(), &raw) == nullptr);
  Owned<BpLayerSupport> support(raw);

  LayerBuilder relu(BP_LAYER_ACTIVATION, "relu1", &kRelu, 1);
  CHECK(Failure(support->table->is_layer_supported(support.get(), &relu.layer), BP_STATUS_UNSUPPORTED) ==
        "Relu is not supported by this test backend");
  LayerBuilder sigmoid(BP_LAYER_ACTIVATION, "sigmoid1", &kSigmoid, 1);
  CHECK(support->table->is_layer_supported(support.get(), &sigmoid.layer) == nullptr);

  // A layer it cannot read is a failure to judge, not a "no".
  LayerBuilder unknown(99, "odd", nullptr, 1);
  CHECK(Failure(support->table->is_layer_supported(support.get(), &unknown.layer), BP_STATUS_INVALID_ARGUMENT) ==
        "layer 'odd' has unknown layer type 99");
  LayerBuilder no_attributes(BP_LAYER_ACTIVATION, "relu2", nullptr, 1);
  CHECK(Failure(support->table->is_layer_supported(support.get(), &no_attributes.layer), BP_STATUS_INVALID_ARGUMENT) ==
        "layer 'relu2': Activation layer without attributes (BpActivationAttributes expected)");
}

TEST_CASE("c adapter: workloads execute on runtime host handles") {
  Observed observed;
  auto backend = Wrap(std::make_unique<TestBackend>(observed));
  auto factory = Factory(backend.get());
  auto workload = AddWorkload(factory.get());
  CHECK(observed.producer == "a");
  CHECK(observed.producer_output == 1);
  CHECK(observed.consumers == 3);
  CHECK(workload->table->get_scratch_size(workload.get()) == 128);
  const BpWorkloadInfo* info = workload->table->get_info(workload.get());
  REQUIRE(info != nullptr);
  CHECK(info->struct_size == sizeof(BpWorkloadInfo));
  CHECK(std::string(info->implementation.data, info->implementation.size) == "sum loop");
  CHECK(std::string(info->slow_path.data, info->slow_path.size) == "not vectorized");

  float a[4] = {1, 2, 3, 4};
  float b[4] = {10, 20, 30, 40};
  float out[4] = {};
  HostHandle ha({4}, a);
  HostHandle hb({4}, b);
  HostHandle hout({4}, out);
  REQUIRE(Execute(workload.get(), {&ha, &hb}, {&hout}) == nullptr);
  CHECK(out[0] == 11);
  CHECK(out[3] == 44);
  CHECK(ha.maps == 1);
  CHECK(ha.unmaps == 1);
  CHECK(hout.maps == 1);
  CHECK(hout.unmaps == 1);
  CHECK(observed.own_inputs.load() == 0);

  // More handles than fit on the stack.
  std::vector<float> ones(12 * 4, 1.0f);
  std::vector<std::unique_ptr<HostHandle>> many;
  std::vector<BpTensorHandle*> inputs;
  for (int i = 0; i < 12; ++i) {
    many.push_back(std::make_unique<HostHandle>(std::vector<std::int64_t>{4}, ones.data() + 4 * i));
    inputs.push_back(many.back().get());
  }
  REQUIRE(Execute(workload.get(), inputs, {&hout}) == nullptr);
  CHECK(out[2] == 12);

  // Failures of the workload and malformed arguments are statuses.
  float scratch[32];
  const BpWorkloadArgs no_output{sizeof(BpWorkloadArgs), inputs.data(), 2, nullptr, 0, scratch};
  CHECK(Failure(workload->table->execute(workload.get(), &no_output), BP_STATUS_BACKEND_FAILURE) ==
        "sum: one output expected");
  BpTensorHandle* const outputs[] = {&hout};
  const BpWorkloadArgs no_scratch{sizeof(BpWorkloadArgs), inputs.data(), 2, outputs, 1, nullptr};
  CHECK(Failure(workload->table->execute(workload.get(), &no_scratch), BP_STATUS_INVALID_ARGUMENT) ==
        "sum: no scratch");
  BpTensorHandle* null_handle = nullptr;
  CHECK(Failure(Execute(workload.get(), {&ha, null_handle}, {&hout}), BP_STATUS_INVALID_ARGUMENT) ==
        "execute: input 1 is a null tensor handle");
  CHECK(Failure(workload->table->execute(workload.get(), nullptr), BP_STATUS_INVALID_ARGUMENT) ==
        "execute: null or too small BpWorkloadArgs");

  // A layer the factory cannot make.
  LayerBuilder relu(BP_LAYER_ACTIVATION, "relu1", &kRelu, 1);
  BpWorkload* none = nullptr;
  CHECK(Failure(factory->table->create_workload(factory.get(), &relu.layer, &none), BP_STATUS_UNSUPPORTED) ==
        "no workload for layer 'relu1'");
  CHECK(none == nullptr);
}

TEST_CASE("c adapter: one workload executes concurrently on different arguments") {
  Observed observed;
  auto backend = Wrap(std::make_unique<TestBackend>(observed));
  auto factory = Factory(backend.get());
  auto workload = AddWorkload(factory.get());
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      float a[4] = {1, 1, 1, 1};
      float b[4] = {static_cast<float>(t), 0, 0, 0};
      float out[4] = {};
      HostHandle ha({4}, a);
      HostHandle hb({4}, b);
      HostHandle hout({4}, out);
      for (int i = 0; i < 2000; ++i) {
        StatusPtr status(Execute(workload.get(), {&ha, &hb}, {&hout}));
        if (status || out[0] != 1.0f + static_cast<float>(t)) ++failures[t];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  CHECK(failures == std::vector<int>(4, 0));
}

TEST_CASE("c adapter: the plugin's own tensor handles come back as the author's objects") {
  Observed observed;
  auto backend = Wrap(std::make_unique<TestBackend>(observed));
  Registry registry;
  REQUIRE(backend->table->register_tensor_handle_factories(backend.get(), &registry) == nullptr);
  REQUIRE(registry.factories.size() == 1);
  BpTensorHandleFactory* factory = registry.factories[0].get();
  CHECK(Text(factory->table->get_id(factory)) == "Test/Adapter/Own");
  BpTensorHandleFactoryProperties properties{};
  properties.struct_size = sizeof(properties);
  factory->table->get_properties(factory, &properties);
  CHECK(properties.supports_map_unmap == 1);
  CHECK(properties.import_sources == BP_MEMORY_HOST);
  CHECK(properties.export_sources == 0);

  const std::int64_t dims[] = {4};
  const BpTensorInfo info{sizeof(BpTensorInfo), BP_DATA_TYPE_F32, dims, 1};
  BpTensorHandle* raw = nullptr;
  REQUIRE(factory->table->create_handle(factory, &info, &raw) == nullptr);
  Owned<BpTensorHandle> own(raw);
  BpTensorInfo read{};
  own->table->get_info(own.get(), &read);
  CHECK(read.rank == 1);
  CHECK(read.dims[0] == 4);
  void* mapped = nullptr;
  REQUIRE(own->table->map(own.get(), &mapped) == nullptr);
  std::memcpy(mapped, std::vector<float>{5, 6, 7, 8}.data(), 4 * sizeof(float));
  own->table->unmap(own.get());
  std::uint32_t imported = 7;
  CHECK(own->table->import_memory(own.get(), mapped, BP_MEMORY_HOST, &imported) == nullptr);
  CHECK(imported == 0);
  CHECK(c_adapter::OwnTensorHandle(own.get()) != nullptr);

  auto workload_factory = Factory(backend.get());
  auto workload = AddWorkload(workload_factory.get());
  float b[4] = {1, 1, 1, 1};
  float out[4] = {};
  HostHandle hb({4}, b);
  HostHandle hout({4}, out);
  REQUIRE(Execute(workload.get(), {own.get(), &hb}, {&hout}) == nullptr);
  CHECK(observed.own_inputs.load() == 1);
  CHECK(out[0] == 6);
  CHECK(out[3] == 9);

  // A bad info is refused by the factory, naming it.
  const BpTensorInfo bad{sizeof(BpTensorInfo), 77, dims, 1};
  BpTensorHandle* none = nullptr;
  CHECK(Failure(factory->table->create_handle(factory, &bad, &none), BP_STATUS_INVALID_ARGUMENT) ==
        "tensor-handle factory 'Test/Adapter/Own': create_handle info: unknown data type 77");
}

TEST_CASE("c adapter: a factory the registry refuses is a status naming it") {
  Observed observed;
  auto backend = Wrap(std::make_unique<TestBackend>(observed, Mode::kDuplicateFactory));
  Registry registry;
  CHECK(Failure(backend->table->register_tensor_handle_factories(backend.get(), &registry),
                BP_STATUS_INVALID_ARGUMENT) ==
        "registering tensor-handle factory 'Test/Adapter/Own': duplicate factory id Test/Adapter/Own");
  CHECK(registry.factories.size() == 1);
}

TEST_CASE("c adapter: optimize_subgraph maps the backend's views to the offered indices") {
  Observed observed;
  auto owned_backend = std::make_unique<TestBackend>(observed);
  const std::shared_ptr<const FusedDescriptor> fused = owned_backend->fused;
  auto backend = Wrap(std::move(owned_backend));

  LayerBuilder first(BP_LAYER_ELEMENTWISE_BINARY, "first", &kAdd);
  LayerBuilder second(BP_LAYER_ACTIVATION, "second", &kSigmoid, 1);
  LayerBuilder third(BP_LAYER_ACTIVATION, "third", &kSigmoid, 1);
  const BpLayer* layers[] = {&first.layer, &second.layer, &third.layer};
  const BpSubgraph subgraph{sizeof(BpSubgraph), layers, 3};

  BpOptimization* raw = nullptr;
  REQUIRE(backend->table->optimize_subgraph(backend.get(), &subgraph, &raw) == nullptr);
  Owned<BpOptimization> optimization(raw);
  std::size_t count = 0;
  const BpSubstitution* substitutions = optimization->table->substitutions(optimization.get(), &count);
  REQUIRE(count == 1);
  CHECK(Text(substitutions[0].name) == "fused");
  REQUIRE(substitutions[0].replaced.count == 2);
  CHECK(substitutions[0].replaced.indices[0] == 1);
  CHECK(substitutions[0].replaced.indices[1] == 0);
  const BpLayerIndices* untouched = optimization->table->untouched(optimization.get(), &count);
  REQUIRE(count == 1);
  REQUIRE(untouched[0].count == 1);
  CHECK(untouched[0].indices[0] == 2);
  optimization->table->failed(optimization.get(), &count);
  CHECK(count == 0);

  // The runtime takes the payload and later shows it back as a PreCompiled layer: the factory
  // sees the backend's own descriptor.
  optimization->table->take_payload(optimization.get(), 0);
  {
    PreCompiledPayload payload(substitutions[0].payload, substitutions[0].destroy_payload);
    optimization.reset();
    CHECK(fused.use_count() == 3);  // the test, the backend, the payload
    const BpPreCompiledAttributes attributes{sizeof(BpPreCompiledAttributes), payload.payload};
    LayerBuilder pre_compiled(BP_LAYER_PRE_COMPILED, "fused", &attributes);
    auto factory = Factory(backend.get());
    BpWorkload* workload = nullptr;
    REQUIRE(factory->table->create_workload(factory.get(), &pre_compiled.layer, &workload) == nullptr);
    Owned<BpWorkload> owned_workload(workload);
    CHECK(observed.descriptor == fused.get());
  }
  CHECK(fused.use_count() == 2);

  // A payload the runtime does not take is freed with the result.
  REQUIRE(backend->table->optimize_subgraph(backend.get(), &subgraph, &raw) == nullptr);
  CHECK(fused.use_count() == 3);
  raw->table->destroy(raw);
  CHECK(fused.use_count() == 2);
}

TEST_CASE("c adapter: a view the backend made up is an error naming it") {
  Observed observed;
  auto owned_backend = std::make_unique<TestBackend>(observed, Mode::kGhostView);
  const std::shared_ptr<const FusedDescriptor> fused = owned_backend->fused;
  auto backend = Wrap(std::move(owned_backend));
  LayerBuilder first(BP_LAYER_ELEMENTWISE_BINARY, "first", &kAdd);
  LayerBuilder second(BP_LAYER_ACTIVATION, "second", &kSigmoid, 1);
  const BpLayer* layers[] = {&first.layer, &second.layer};
  const BpSubgraph subgraph{sizeof(BpSubgraph), layers, 2};
  BpOptimization* result = nullptr;
  CHECK(Failure(backend->table->optimize_subgraph(backend.get(), &subgraph, &result), BP_STATUS_BACKEND_FAILURE) ==
        "OptimizeSubgraph returned layer 'ghost' in substitution 'fused', which is not a layer of the offered "
        "subgraph");
  CHECK(result == nullptr);
  CHECK(fused.use_count() == 2);  // no payload leaked
}

TEST_CASE("c adapter: GuardedFactory wraps the backend or says why not") {
  static Observed observed;
  void* made = plugin_detail::GuardedFactory([]() -> IBackend* { return new TestBackend(observed); });
  REQUIRE(made != nullptr);
  CHECK(std::string(plugin_detail::LastFactoryError()).empty());
  Owned<BpBackend> backend(static_cast<BpBackend*>(made));
  CHECK(Text(backend->table->get_id(backend.get())) == "AdapterTest");

  CHECK(plugin_detail::GuardedFactory([]() -> IBackend* { throw std::runtime_error("no licence"); }) == nullptr);
  CHECK(std::string(plugin_detail::LastFactoryError()) == "no licence");
  CHECK(plugin_detail::GuardedFactory([]() -> IBackend* { return nullptr; }) == nullptr);
  CHECK(std::string(plugin_detail::LastFactoryError()) == "the backend factory returned no backend");
}

}  // namespace
}  // namespace backplane::backend
