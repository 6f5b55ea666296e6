// The runtime's side of the C boundary (c_backend.hpp) against a backend written by hand in
// C-style C++ (no adapter): tables with missing functions, statuses of every code, "no"
// answers, garbage from optimize_subgraph and tensor handles both ways. (The optimizer's check of
// what a backend's substitutions may fuse is graph/optimizer_test.cpp's.)
#include "loading/c_backend.hpp"

#include <backplane/backend/c_status.hpp>
#include <backplane/backend/host_tensor_handle.hpp>
#include <backplane/backend/op_attributes.hpp>
#include <backplane/plugin_activity.hpp>
#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace backplane::loading {
namespace {

// ---- The hand-written backend ---------------------------------------------------------------------

// What the backend does and what it saw; one per test. Codes are BP_STATUS_* (0: success).
struct Script {
  std::string id = "Hand";
  BpBackendTable table{};  // the backend's table; tests remove functions or shrink it
  // Layer types is_layer_supported accepts (others: BP_STATUS_UNSUPPORTED "type N not here").
  std::set<std::uint32_t> supported{BP_LAYER_ACTIVATION, BP_LAYER_ELEMENTWISE_BINARY};
  std::uint32_t support_code = 0;  // returned for every layer when not 0
  std::uint32_t available_code = 0;
  std::uint32_t workload_code = 0;
  // Workloads: with a get_info returning `workload_info` (a 2.1 plugin), or without (2.0).
  bool workload_get_info = false;
  BpWorkloadInfo workload_info{};
  std::uint32_t before_load_code = 0;
  std::uint32_t after_load_code = 0;
  // What the plugin claims (bounds tests): get_id's length (0: the id's own), get_scratch_size
  // (0: no such function), get_info's option count, optimize_subgraph's failed-list count (0:
  // the lists' own).
  std::size_t id_bytes = 0;
  std::size_t scratch_bytes = 0;
  std::size_t option_count = 1;
  std::size_t device_count = 1;  // get_devices' (get_info names none)
  std::size_t claimed_failed_count = 0;
  // optimize_subgraph's answer (indices into the offered subgraph).
  struct Substitution {
    std::vector<std::size_t> indices;
    std::string name;
  };
  bool optimize_returns_null = false;
  std::vector<Substitution> substitutions;
  std::vector<std::vector<std::size_t>> failed;
  std::vector<std::vector<std::size_t>> untouched;
  // Counters and observations.
  int backends_destroyed = 0;
  int payloads_made = 0;
  int payloads_destroyed = 0;
  int results_destroyed = 0;
  std::vector<std::string> offered;  // layer names optimize_subgraph saw
  std::vector<const BpTensorHandle*> executed_inputs;
  std::vector<BpTensorHandle*> created_handles;
  std::vector<std::string> logged;
  std::string call_in_progress;  // PluginCallInProgress() as execute saw it
};

BpStatus* Status(std::uint32_t code) {
  return code == 0 ? nullptr : backend::MakeStatus(code, "scripted failure");
}

std::string Text(BpString s) { return s.data ? std::string(s.data, s.size) : std::string(); }

// A payload: counts its destruction.
struct Payload {
  Script* script;
};
void DestroyPayload(void* payload) {
  auto* p = static_cast<Payload*>(payload);
  ++p->script->payloads_destroyed;
  delete p;
}

// -- info
struct HandInfo {
  BpBackendInfo c;
  BpBackendInfoData data;
  BpOptionSpec option;
  BpDeviceInfo device;
};
void InfoDestroy(BpBackendInfo* self) { delete reinterpret_cast<HandInfo*>(self); }
const BpBackendInfoData* InfoData(const BpBackendInfo* self) { return &reinterpret_cast<const HandInfo*>(self)->data; }
const BpBackendInfoTable kInfoTable{sizeof(BpBackendInfoTable), &InfoDestroy, &InfoData};

// -- layer support
struct HandSupport {
  BpLayerSupport c;
  Script* script;
};
void SupportDestroy(BpLayerSupport* self) { delete reinterpret_cast<HandSupport*>(self); }
BpStatus* IsLayerSupported(const BpLayerSupport* self, const BpLayer* layer) {
  const Script& script = *reinterpret_cast<const HandSupport*>(self)->script;
  if (script.support_code != 0) return Status(script.support_code);
  if (script.supported.count(layer->type)) return nullptr;
  return backend::MakeStatus(BP_STATUS_UNSUPPORTED, "type " + std::to_string(layer->type) + " not here");
}
const BpLayerSupportTable kSupportTable{sizeof(BpLayerSupportTable), &SupportDestroy, &IsLayerSupported};

// -- optimization result
struct HandOptimization {
  BpOptimization c;
  Script* script;
  std::vector<std::vector<std::size_t>> index_storage;
  std::vector<std::string> names;
  std::vector<BpSubstitution> substitutions;
  std::vector<BpLayerIndices> failed;
  std::vector<BpLayerIndices> untouched;
  std::vector<bool> taken;
};
void OptimizationDestroy(BpOptimization* self) {
  auto* result = reinterpret_cast<HandOptimization*>(self);
  for (std::size_t i = 0; i < result->substitutions.size(); ++i) {
    if (!result->taken[i]) DestroyPayload(result->substitutions[i].payload);
  }
  ++result->script->results_destroyed;
  delete result;
}
const BpSubstitution* Substitutions(const BpOptimization* self, std::size_t* count) {
  const auto* result = reinterpret_cast<const HandOptimization*>(self);
  *count = result->substitutions.size();
  return result->substitutions.data();
}
const BpLayerIndices* Failed(const BpOptimization* self, std::size_t* count) {
  const auto* result = reinterpret_cast<const HandOptimization*>(self);
  *count = result->script->claimed_failed_count != 0 ? result->script->claimed_failed_count : result->failed.size();
  return result->failed.data();
}
const BpLayerIndices* Untouched(const BpOptimization* self, std::size_t* count) {
  const auto* result = reinterpret_cast<const HandOptimization*>(self);
  *count = result->untouched.size();
  return result->untouched.data();
}
void TakePayload(BpOptimization* self, std::size_t index) {
  reinterpret_cast<HandOptimization*>(self)->taken.at(index) = true;
}
const BpOptimizationTable kOptimizationTable{sizeof(BpOptimizationTable), &OptimizationDestroy, &Substitutions,
                                             &Failed, &Untouched, &TakePayload};

// -- tensor handles: host memory of their own
struct HandHandle {
  BpTensorHandle c;
  std::vector<float> data;
  std::vector<std::int64_t> dims;
  std::uint32_t type;
};
void HandleDestroy(BpTensorHandle* self) { delete reinterpret_cast<HandHandle*>(self); }
void HandleInfo(const BpTensorHandle* self, BpTensorInfo* info) {
  const auto* handle = reinterpret_cast<const HandHandle*>(self);
  *info = {sizeof(BpTensorInfo), handle->type, handle->dims.data(), handle->dims.size()};
}
BpStatus* HandleMap(BpTensorHandle* self, void** data) {
  *data = reinterpret_cast<HandHandle*>(self)->data.data();
  return nullptr;
}
void HandleUnmap(BpTensorHandle*) {}
const BpTensorHandleTable kHandleTable{sizeof(BpTensorHandleTable), &HandleDestroy, &HandleInfo, &HandleMap,
                                       &HandleUnmap, nullptr};

struct HandFactory {
  BpTensorHandleFactory c;
  Script* script;
};
void FactoryDestroy(BpTensorHandleFactory* self) { delete reinterpret_cast<HandFactory*>(self); }
BpString FactoryId(const BpTensorHandleFactory*) { return {"Hand/Test/Memory", 16}; }
BpStatus* CreateHandle(const BpTensorHandleFactory* self, const BpTensorInfo* info, BpTensorHandle** out) {
  auto* handle = new HandHandle{{&kHandleTable}, {}, std::vector<std::int64_t>(info->dims, info->dims + info->rank),
                                info->data_type};
  std::int64_t count = 1;
  for (auto d : handle->dims) count *= d;
  handle->data.assign(static_cast<std::size_t>(count), 0.0f);
  reinterpret_cast<const HandFactory*>(self)->script->created_handles.push_back(&handle->c);
  *out = &handle->c;
  return nullptr;
}
const BpTensorHandleFactoryTable kFactoryTable{sizeof(BpTensorHandleFactoryTable), &FactoryDestroy, &FactoryId,
                                               nullptr, &CreateHandle};

// -- workloads: output[0] = sum of every input's elements, element-wise
struct HandWorkload {
  BpWorkload c;
  Script* script;
};
void WorkloadDestroy(BpWorkload* self) { delete reinterpret_cast<HandWorkload*>(self); }
BpStatus* Execute(const BpWorkload* self, const BpWorkloadArgs* args) {
  Script& script = *reinterpret_cast<const HandWorkload*>(self)->script;
  script.call_in_progress = PluginCallInProgress();
  script.executed_inputs.assign(args->inputs, args->inputs + args->input_count);
  BpTensorInfo info{};
  args->outputs[0]->table->get_info(args->outputs[0], &info);
  std::size_t count = 1;
  for (std::size_t d = 0; d < info.rank; ++d) count *= static_cast<std::size_t>(info.dims[d]);
  void* out = nullptr;
  if (BpStatus* status = args->outputs[0]->table->map(args->outputs[0], &out)) return status;
  auto* y = static_cast<float*>(out);
  std::fill(y, y + count, 0.0f);
  for (std::size_t i = 0; i < args->input_count; ++i) {
    void* in = nullptr;
    if (BpStatus* status = args->inputs[i]->table->map(args->inputs[i], &in)) return status;
    for (std::size_t e = 0; e < count; ++e) y[e] += static_cast<const float*>(in)[e];
    args->inputs[i]->table->unmap(args->inputs[i]);
  }
  args->outputs[0]->table->unmap(args->outputs[0]);
  return nullptr;
}
const BpWorkloadTable kWorkloadTable{sizeof(BpWorkloadTable), &WorkloadDestroy, &Execute, nullptr, nullptr};
const BpWorkloadInfo* WorkloadInfo(const BpWorkload* self) {
  return &reinterpret_cast<const HandWorkload*>(self)->script->workload_info;
}
const BpWorkloadTable kDescribedWorkloadTable{sizeof(BpWorkloadTable), &WorkloadDestroy, &Execute, nullptr,
                                              &WorkloadInfo};
std::size_t ScratchSize(const BpWorkload* self) {
  return reinterpret_cast<const HandWorkload*>(self)->script->scratch_bytes;
}
const BpWorkloadTable kScratchWorkloadTable{sizeof(BpWorkloadTable), &WorkloadDestroy, &Execute, &ScratchSize, nullptr};

struct HandWorkloadFactory {
  BpWorkloadFactory c;
  Script* script;
};
void WorkloadFactoryDestroy(BpWorkloadFactory* self) { delete reinterpret_cast<HandWorkloadFactory*>(self); }
BpStatus* CreateWorkload(BpWorkloadFactory* self, const BpLayer*, BpWorkload** out) {
  Script* script = reinterpret_cast<HandWorkloadFactory*>(self)->script;
  if (script->workload_code != 0) return Status(script->workload_code);
  const BpWorkloadTable* table = script->scratch_bytes != 0 ? &kScratchWorkloadTable
                                 : script->workload_get_info ? &kDescribedWorkloadTable
                                                             : &kWorkloadTable;
  *out = &(new HandWorkload{{table}, script})->c;
  return nullptr;
}
const BpWorkloadFactoryTable kWorkloadFactoryTable{sizeof(BpWorkloadFactoryTable), &WorkloadFactoryDestroy,
                                                   &CreateWorkload};

// -- backend context
struct HandContext {
  BpBackendContext c;
  Script* script;
  BpLogger logger;
};
void ContextDestroy(BpBackendContext* self) { delete reinterpret_cast<HandContext*>(self); }
BpStatus* BeforeLoad(BpBackendContext* self, std::uint64_t) {
  return Status(reinterpret_cast<HandContext*>(self)->script->before_load_code);
}
BpStatus* AfterLoad(BpBackendContext* self, std::uint64_t) {
  return Status(reinterpret_cast<HandContext*>(self)->script->after_load_code);
}
const BpBackendContextTable kContextTable{sizeof(BpBackendContextTable), &ContextDestroy, &BeforeLoad, &AfterLoad,
                                          nullptr, nullptr};

// -- the backend
struct HandBackend {
  BpBackend c;
  Script* script;
};
Script& ScriptOf(const BpBackend* self) { return *reinterpret_cast<const HandBackend*>(self)->script; }
void BackendDestroy(BpBackend* self) {
  ++ScriptOf(self).backends_destroyed;
  delete reinterpret_cast<HandBackend*>(self);
}
BpString GetId(const BpBackend* self) {
  const Script& script = ScriptOf(self);
  return {script.id.data(), script.id_bytes != 0 ? script.id_bytes : script.id.size()};
}
BpStatus* GetInfo(const BpBackend* self, BpBackendInfo** out) {
  auto* info = new HandInfo{};
  info->c.table = &kInfoTable;
  info->option = {{"threads", 7}, BP_OPTION_INTEGER, {"0", 1}, {"worker threads", 14}};
  info->data.struct_size = sizeof(BpBackendInfoData);
  info->data.device_kind = BP_DEVICE_CPU;
  info->data.options = &info->option;
  info->data.option_count = ScriptOf(self).option_count;
  *out = &info->c;
  return nullptr;
}
BpStatus* GetDevices(const BpBackend* self, BpBackendInfo** out) {
  auto* info = new HandInfo{};
  info->c.table = &kInfoTable;
  info->device = {{"hand device", 11}, BP_DEVICE_CPU, 1, {"", 0}};
  info->data.struct_size = sizeof(BpBackendInfoData);
  info->data.devices = &info->device;
  info->data.device_count = ScriptOf(self).device_count;
  *out = &info->c;
  return nullptr;
}
BpStatus* CreateContext(const BpBackend* self, const BpBackendConfig* config, BpBackendContext** out) {
  auto* context = new HandContext{{&kContextTable}, &const_cast<Script&>(ScriptOf(self)), *config->logger};
  const std::string hello = "context with " + std::to_string(config->option_count) + " options";
  context->logger.write(context->logger.context, BP_LOG_INFO, BP_LOG_PLUGIN, {hello.data(), hello.size()});
  *out = &context->c;
  return nullptr;
}
BpStatus* CheckAvailable(const BpBackend* self, BpBackendContext*) { return Status(ScriptOf(self).available_code); }
BpStatus* CreateSupport(const BpBackend* self, BpLayerSupport** out) {
  *out = &(new HandSupport{{&kSupportTable}, &const_cast<Script&>(ScriptOf(self))})->c;
  return nullptr;
}
BpStatus* Optimize(const BpBackend* self, const BpSubgraph* subgraph, BpOptimization** out) {
  Script& script = const_cast<Script&>(ScriptOf(self));
  for (std::size_t i = 0; i < subgraph->layer_count; ++i) script.offered.push_back(Text(subgraph->layers[i]->name));
  if (script.optimize_returns_null) return nullptr;
  auto* result = new HandOptimization{};
  result->c.table = &kOptimizationTable;
  result->script = &script;
  result->index_storage.reserve(script.substitutions.size() + script.failed.size() + script.untouched.size());
  result->names.reserve(script.substitutions.size());
  for (const auto& substitution : script.substitutions) {
    result->index_storage.push_back(substitution.indices);
    result->names.push_back(substitution.name);
    ++script.payloads_made;
    result->substitutions.push_back({sizeof(BpSubstitution),
                                     {result->index_storage.back().data(), result->index_storage.back().size()},
                                     {result->names.back().data(), result->names.back().size()},
                                     new Payload{&script},
                                     &DestroyPayload});
  }
  result->taken.assign(result->substitutions.size(), false);
  for (const auto& list : script.failed) {
    result->index_storage.push_back(list);
    result->failed.push_back({result->index_storage.back().data(), list.size()});
  }
  for (const auto& list : script.untouched) {
    result->index_storage.push_back(list);
    result->untouched.push_back({result->index_storage.back().data(), list.size()});
  }
  *out = &result->c;
  return nullptr;
}
BpStatus* CreateWorkloadFactory(const BpBackend* self, BpMemoryManager*, BpBackendContext*, BpWorkloadFactory** out) {
  *out = &(new HandWorkloadFactory{{&kWorkloadFactoryTable}, &const_cast<Script&>(ScriptOf(self))})->c;
  return nullptr;
}
BpStatus* RegisterFactories(const BpBackend* self, BpTensorHandleFactoryRegistry* registry) {
  auto* factory = new HandFactory{{&kFactoryTable}, &const_cast<Script&>(ScriptOf(self))};
  return registry->table->register_factory(registry, &factory->c);
}

BpBackendTable FullTable() {
  return {sizeof(BpBackendTable), &BackendDestroy,         &GetId,         &GetInfo,
          &CreateContext,         &CheckAvailable,         &CreateSupport, &Optimize,
          nullptr,                &CreateWorkloadFactory,  &RegisterFactories, &GetDevices};
}

// A backend following `script` (whose table must outlive it).
BpBackend* MakeBackend(Script& script) { return &(new HandBackend{{&script.table}, &script})->c; }

std::unique_ptr<backend::IBackend> Wrap(Script& script) {
  return WrapBackend(MakeBackend(script), std::make_shared<const PluginOrigin>(PluginOrigin{script.id, nullptr}));
}

// ---- Runtime-side helpers -------------------------------------------------------------------------

// A layer view with fixed type, name and infos (no descriptor: Activation needs one, so those
// tests use Activation's default).
class View final : public backend::ILayerView {
 public:
  View(backend::LayerType type, std::string name, std::size_t inputs = 1)
      : type_(type), name_(std::move(name)), inputs_(inputs, kInfo) {}
  backend::LayerType GetType() const override { return type_; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumInputs() const override { return inputs_.size(); }
  std::size_t GetNumOutputs() const override { return 1; }
  const TensorInfo& GetInputInfo(std::size_t index) const override { return inputs_.at(index); }
  const TensorInfo& GetOutputInfo(std::size_t) const override { return kInfo; }
  const backend::LayerDescriptor* GetDescriptor() const override {
    return type_ == backend::LayerType::kActivation ? &activation_ : nullptr;
  }
  const void* GetConstantInput(std::size_t) const override { return nullptr; }

  static inline const TensorInfo kInfo{TensorShape{4}, DataType::kFloat32};

 private:
  backend::LayerType type_;
  std::string name_;
  std::vector<TensorInfo> inputs_;
  ActivationDescriptor activation_;
};

class CollectingSink final : public ILogSink {
 public:
  void Write(LogLevel, LogCategory, std::string_view message) override { lines.emplace_back(message); }
  std::vector<std::string> lines;
};

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The exception `call` throws (fails the test when it throws none or another type).
template <typename Call>
Exception Thrown(Call&& call) {
  try {
    call();
  } catch (const Exception& error) {
    return error;
  }
  FAIL("no exception");
  return Exception(ErrorCode::kInternal, "");
}

// ---- Tables -----------------------------------------------------------------------------------------

TEST_CASE("c_backend: a missing required function is refused naming the backend and the function") {
  Script script;
  script.table = FullTable();
  script.table.create_workload_factory = nullptr;
  Exception error = Thrown([&] { Wrap(script); });
  CHECK(error.code() == ErrorCode::kBackendFailure);
  CHECK(std::string(error.what()) ==
        "backend Hand returned a BpBackend whose table lacks the required function create_workload_factory");
  CHECK(script.backends_destroyed == 1);  // its own destroy was there

  // A table too small to hold them (an impossible struct_size for 2.0, but the rule is general).
  script.table = FullTable();
  script.table.struct_size = offsetof(BpBackendTable, create_backend_context);
  error = Thrown([&] { Wrap(script); });
  CHECK(Contains(error.what(), "lacks the required functions create_layer_support, create_workload_factory"));
  CHECK(script.backends_destroyed == 2);
}

TEST_CASE("c_backend: the devices come from get_devices (2.6), else from get_info (2.0 to 2.5)") {
  Script script;
  script.table = FullTable();
  {
    const auto backend = Wrap(script);
    const auto devices = backend->GetDevices();
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].name == "hand device");
    CHECK(devices[0].available);
  }
  script.table.struct_size = offsetof(BpBackendTable, get_devices);  // a 2.5 plugin's table
  CHECK(Wrap(script)->GetDevices().empty());                          // get_info's: none
}

TEST_CASE("c_backend: missing optional functions get their defaults") {
  Script script;
  script.table = FullTable();
  script.table.check_available = nullptr;
  script.table.optimize_subgraph = nullptr;
  script.table.create_backend_context = nullptr;
  script.table.register_tensor_handle_factories = nullptr;
  {
    const auto backend = Wrap(script);
    CHECK(backend->GetId() == BackendId("Hand"));
    std::string reason = "stale";
    CHECK(backend->IsAvailable(nullptr, &reason));
    CHECK(reason.empty());
    CHECK(backend->CreateBackendContext({{}, std::make_shared<CollectingSink>()}) == nullptr);
    CHECK(backend->CreateMemoryManager() == nullptr);
    const View a(backend::LayerType::kActivation, "a");
    const View b(backend::LayerType::kActivation, "b");
    const auto views = backend->OptimizeSubgraph({{&a, &b}});
    CHECK(views.substitutions.empty());
    REQUIRE(views.untouched.size() == 1);
    CHECK(views.untouched[0].layers.size() == 2);
    CHECK(script.offered.empty());  // never called
    const auto options = backend->GetOptionSpecs();
    REQUIRE(options.size() == 1);
    CHECK(options[0].key == "threads");
    CHECK(options[0].type == backend::OptionSpec::Type::kInteger);
    CHECK(options[0].doc == "worker threads");
  }
  CHECK(script.backends_destroyed == 1);
}

// ---- Statuses ---------------------------------------------------------------------------------------

TEST_CASE("c_backend: statuses become Exceptions with their code, naming backend, function and layer") {
  Script script;
  script.table = FullTable();
  const auto backend = Wrap(script);
  const auto factory = backend->CreateWorkloadFactory(nullptr, nullptr);
  const View relu(backend::LayerType::kActivation, "relu1");
  const std::vector<std::pair<std::uint32_t, ErrorCode>> codes{
      {BP_STATUS_INVALID_ARGUMENT, ErrorCode::kInvalidArgument}, {BP_STATUS_NOT_FOUND, ErrorCode::kNotFound},
      {BP_STATUS_UNSUPPORTED, ErrorCode::kUnsupported},          {BP_STATUS_BACKEND_FAILURE, ErrorCode::kBackendFailure},
      {BP_STATUS_INTERNAL, ErrorCode::kInternal},                {BP_STATUS_OUT_OF_MEMORY, ErrorCode::kBackendFailure},
      {99u, ErrorCode::kBackendFailure}};
  for (const auto& [code, expected] : codes) {
    CAPTURE(code);
    script.workload_code = code;
    const Exception error = Thrown([&] { factory->CreateWorkload(relu); });
    CHECK(error.code() == expected);
    CHECK(std::string(error.what()) == "backend Hand: create_workload for layer 'relu1': scripted failure");
  }
  script.workload_code = 0;
  CHECK(factory->CreateWorkload(relu) != nullptr);
}

TEST_CASE("c_backend: a workload's info is what the plugin says, bounded, read only as far as its struct goes") {
  Script script;
  script.table = FullTable();
  const auto backend = Wrap(script);
  const auto factory = backend->CreateWorkloadFactory(nullptr, nullptr);
  const View relu(backend::LayerType::kActivation, "relu1");
  // A 2.0 plugin (no get_info), and a get_info that returns null: nothing said.
  CHECK(factory->CreateWorkload(relu)->GetInfo().implementation.empty());
  script.workload_get_info = true;
  const auto null_info = factory->CreateWorkload(relu);
  CHECK(null_info->GetInfo().implementation.empty());  // workload_info.struct_size is 0
  // The whole struct.
  script.workload_info = {sizeof(BpWorkloadInfo), {"jit:avx2", 8}, {"no fast kernel\nhere", 19}};
  backend::WorkloadInfo info = factory->CreateWorkload(relu)->GetInfo();
  CHECK(info.implementation == "jit:avx2");
  CHECK(info.slow_path == "no fast kernel\\nhere");  // control characters escaped
  // A struct that ends before slow_path (an older layout): slow_path is not read.
  script.workload_info.struct_size = static_cast<std::uint32_t>(offsetof(BpWorkloadInfo, slow_path));
  info = factory->CreateWorkload(relu)->GetInfo();
  CHECK(info.implementation == "jit:avx2");
  CHECK(info.slow_path.empty());
  // A hostile length is cut (the full length named), not copied whole.
  const std::string huge(100000, 'x');
  script.workload_info = {sizeof(BpWorkloadInfo), {huge.data(), huge.size()}, {nullptr, 5}};
  info = factory->CreateWorkload(relu)->GetInfo();
  CHECK(info.implementation.size() < 300);
  CHECK(info.implementation.find("(100000 bytes)") != std::string::npos);
  CHECK(info.slow_path.empty());  // no data: nothing
}

TEST_CASE("c_backend: the \"no\" answers are false with the plugin's reason, other codes throw") {
  Script script;
  script.table = FullTable();
  const auto backend = Wrap(script);

  const auto support = backend->GetLayerSupport();
  REQUIRE(support);
  std::string reason;
  CHECK(support->IsLayerSupported(View(backend::LayerType::kActivation, "relu1"), &reason));
  CHECK_FALSE(support->IsLayerSupported(View(backend::LayerType::kSoftmax, "softmax1"), &reason));
  CHECK(reason == "type " + std::to_string(BP_LAYER_SOFTMAX) + " not here");
  script.support_code = BP_STATUS_INTERNAL;
  const Exception error = Thrown([&] { support->IsLayerSupported(View(backend::LayerType::kActivation, "relu1"), &reason); });
  CHECK(error.code() == ErrorCode::kInternal);
  CHECK(std::string(error.what()) == "backend Hand: is_layer_supported for layer 'relu1': scripted failure");

  script.available_code = BP_STATUS_UNSUPPORTED;
  CHECK_FALSE(backend->IsAvailable(nullptr, &reason));
  CHECK(reason == "scripted failure");
  script.available_code = BP_STATUS_BACKEND_FAILURE;
  CHECK(Contains(Thrown([&] { backend->IsAvailable(nullptr, &reason); }).what(), "backend Hand: check_available"));

  // The context: a refusal is false with a reason; another failure throws.
  auto sink = std::make_shared<CollectingSink>();
  const auto context = backend->CreateBackendContext({{{"threads", "2"}}, sink});
  REQUIRE(context);
  REQUIRE(sink->lines.size() == 1);
  CHECK(sink->lines[0] == "context with 1 options");  // the logger reaches the runtime's sink
  script.available_code = 0;
  CHECK(backend->IsAvailable(context.get(), &reason));
  CHECK(context->BeforeLoadNetwork(1));
  script.before_load_code = BP_STATUS_UNSUPPORTED;
  CHECK_FALSE(context->BeforeLoadNetwork(2));
  CHECK(TakeRefusalReason(context.get()) == "scripted failure");
  CHECK(TakeRefusalReason(context.get()).empty());
  script.after_load_code = BP_STATUS_UNSUPPORTED;
  CHECK_FALSE(context->AfterLoadNetwork(1));
  CHECK(TakeRefusalReason(context.get()) == "scripted failure");
  script.after_load_code = BP_STATUS_NOT_FOUND;
  const Exception after = Thrown([&] { context->AfterLoadNetwork(1); });
  CHECK(after.code() == ErrorCode::kNotFound);
  CHECK(std::string(after.what()) == "backend Hand: after_load_network: scripted failure");
  CHECK(context->BeforeUnloadNetwork(1));  // optional, missing: accepts
}

// ---- optimize_subgraph ------------------------------------------------------------------------------

struct Offered {
  View add{backend::LayerType::kElementwiseBinary, "add", 2};
  View relu{backend::LayerType::kActivation, "relu"};
  View tanh{backend::LayerType::kActivation, "tanh"};
  backend::SubgraphView view{{&add, &relu, &tanh}};
};

TEST_CASE("c_backend: a valid optimization hands the payload over, destroyed once with the descriptor") {
  Script script;
  script.table = FullTable();
  script.substitutions = {{{0, 1}, "add+relu"}};
  script.untouched = {{2}};
  const auto backend = Wrap(script);
  Offered offered;
  {
    const auto views = backend->OptimizeSubgraph(offered.view);
    CHECK(script.offered == std::vector<std::string>{"add", "relu", "tanh"});
    REQUIRE(views.substitutions.size() == 1);
    const auto& substitution = views.substitutions[0];
    CHECK(substitution.name == "add+relu");
    CHECK(substitution.replaced.layers == std::vector<const backend::ILayerView*>{&offered.add, &offered.relu});
    const auto* payload = dynamic_cast<const backend::PreCompiledPayload*>(substitution.descriptor.get());
    REQUIRE(payload);
    CHECK(static_cast<Payload*>(payload->payload)->script == &script);
    REQUIRE(views.untouched.size() == 1);
    CHECK(views.untouched[0].layers == std::vector<const backend::ILayerView*>{&offered.tanh});
    CHECK(script.results_destroyed == 1);
    CHECK(script.payloads_destroyed == 0);  // the runtime owns it now
  }
  CHECK(script.payloads_destroyed == 1);

  script.optimize_returns_null = true;  // null: every layer untouched
  const auto views = backend->OptimizeSubgraph(offered.view);
  REQUIRE(views.untouched.size() == 1);
  CHECK(views.untouched[0].layers.size() == 3);
}

void CheckRefused(Script& script, const std::vector<std::string>& parts) {
  const auto backend = Wrap(script);
  Offered offered;
  const int destroyed_before = script.payloads_destroyed;
  const Exception error = Thrown([&] { backend->OptimizeSubgraph(offered.view); });
  INFO(error.what());
  CHECK(error.code() == ErrorCode::kBackendFailure);
  CHECK(Contains(error.what(), "backend Hand: optimize_subgraph returned "));
  for (const auto& part : parts) CHECK(Contains(error.what(), part));
  // Nothing was taken: the result destroyed every payload.
  CHECK(script.payloads_destroyed - destroyed_before == static_cast<int>(script.substitutions.size()));
}

TEST_CASE("c_backend: optimize_subgraph naming a layer index out of range is refused naming the backend") {
  Script script;
  script.table = FullTable();
  script.substitutions = {{{0, 5}, "add+ghost"}};
  CheckRefused(script, {"substitution 0 (\"add+ghost\") naming layer index 5, but the offered subgraph has 3 layers "
                        "(indices 0 to 2)"});
  script.substitutions.clear();
  script.failed = {{3}};
  CheckRefused(script, {"failed list 0 naming layer index 3"});
}

TEST_CASE("c_backend: overlapping substitutions, or a substituted layer also failed or untouched, are refused") {
  Script script;
  script.table = FullTable();
  script.substitutions = {{{0, 1}, "add+relu"}, {{1, 2}, "relu+tanh"}};
  CheckRefused(script, {"substitution 0 (\"add+relu\") and substitution 1 (\"relu+tanh\") both naming layer \"relu\" "
                        "(index 1)"});
  script.substitutions = {{{0, 1}, "add+relu"}};
  script.untouched = {{2, 0}};
  CheckRefused(script, {"substitution 0 (\"add+relu\") and untouched list 0 both naming layer \"add\""});
  script.untouched.clear();
  script.failed = {{2}, {2}};
  CheckRefused(script, {"failed list 0 and failed list 1 both naming layer \"tanh\""});
  script.failed.clear();
  script.substitutions = {{{0, 0}, "add+add"}};
  CheckRefused(script, {"both naming layer \"add\""});
}

TEST_CASE("c_backend: a substitution without a name or without layers is refused") {
  Script script;
  script.table = FullTable();
  script.substitutions = {{{0, 1}, ""}};
  CheckRefused(script, {"substitution 0 without a name"});
  script.substitutions = {{{}, "nothing"}};
  CheckRefused(script, {"substitution 0 (\"nothing\") replacing no layer"});
}

// ---- Bounds on what a plugin returns (issue 41) -----------------------------------------------------

TEST_CASE("c_backend: a size, string or count beyond its bound is refused naming backend, function and layer") {
  Script script;
  script.table = FullTable();
  SUBCASE("get_id claiming 2^40 bytes: nothing read or allocated") {
    script.id_bytes = std::size_t{1} << 40;
    CHECK(std::string(Thrown([&] { Wrap(script); }).what()) ==
          "backend Hand: get_id: returned a string of 1099511627776 bytes; the runtime accepts at most 256");
    CHECK(script.backends_destroyed == 1);
  }
  SUBCASE("get_scratch_size of 2^62 bytes") {
    script.scratch_bytes = std::size_t{1} << 62;
    const auto backend = Wrap(script);
    const auto factory = backend->CreateWorkloadFactory(nullptr, nullptr);
    const auto workload = factory->CreateWorkload(View(backend::LayerType::kActivation, "relu1"));
    const Exception error = Thrown([&] { workload->GetScratchSize(); });
    CHECK(error.code() == ErrorCode::kBackendFailure);
    CHECK(std::string(error.what()) ==
          "backend Hand: get_scratch_size for layer 'relu1': asked for 4611686018427387904 bytes of scratch memory; "
          "the runtime gives a workload at most 1099511627776");
    script.scratch_bytes = kMaxScratchBytes;  // the bound itself is accepted
    CHECK(factory->CreateWorkload(View(backend::LayerType::kActivation, "relu1"))->GetScratchSize() ==
          kMaxScratchBytes);
  }
  SUBCASE("get_info with 2^40 options") {
    script.option_count = std::size_t{1} << 40;
    CHECK(std::string(Thrown([&] { Wrap(script)->GetOptionSpecs(); }).what()) ==
          "backend Hand: get_info: options has 1099511627776 entries; the runtime accepts at most 65536");
  }
  SUBCASE("get_devices claiming 2^40 devices") {
    script.device_count = std::size_t{1} << 40;
    CHECK(std::string(Thrown([&] { Wrap(script)->GetDevices(); }).what()) ==
          "backend Hand: get_devices: devices has 1099511627776 entries; the runtime accepts at most 65536");
  }
  SUBCASE("optimize_subgraph claiming more failed lists than layers offered") {
    script.failed = {{0}};
    script.claimed_failed_count = std::size_t{1} << 40;
    CheckRefused(script, {"1099511627776 failed lists, but the offered subgraph has 3 layers"});
  }
}

TEST_CASE("c_backend: while a plugin runs, PluginCallInProgress names its backend, function and layer") {
  Script script;
  script.table = FullTable();
  const auto backend = Wrap(script);
  const auto factory = backend->CreateWorkloadFactory(nullptr, nullptr);
  const auto workload = factory->CreateWorkload(View(backend::LayerType::kActivation, "relu1"));
  std::vector<float> x{1, 2, 3, 4}, y(4);
  backend::HostTensorHandle input(View::kInfo, x.data()), output(View::kInfo, y.data());
  const std::vector<backend::ITensorHandle*> inputs{&input}, outputs{&output};
  CHECK(PluginCallInProgress().empty());
  workload->Execute({inputs, outputs, nullptr});
  CHECK(script.call_in_progress == "backend Hand: execute for layer 'relu1'");
  CHECK(PluginCallInProgress().empty());  // the scope ended with the call
}

// ---- Tensor handles ---------------------------------------------------------------------------------

class Registry final : public backend::ITensorHandleFactoryRegistry {
 public:
  void RegisterFactory(std::unique_ptr<backend::ITensorHandleFactory> factory) override {
    factories.push_back(std::move(factory));
  }
  std::vector<std::unique_ptr<backend::ITensorHandleFactory>> factories;
};

TEST_CASE("c_backend: execute gets the plugin's own handles back and views of the runtime's") {
  Script script;
  script.table = FullTable();
  const auto backend = Wrap(script);
  Registry registry;
  backend->RegisterTensorHandleFactories(registry);
  REQUIRE(registry.factories.size() == 1);
  const auto& factory = *registry.factories[0];
  CHECK(factory.GetId() == "Hand/Test/Memory");
  CHECK(factory.GetProperties().supports_map_unmap);  // get_properties missing: the defaults
  CHECK(factory.GetProperties().import_sources == 0);

  const TensorInfo info = View::kInfo;
  const auto own = factory.CreateTensorHandle(info);
  REQUIRE(script.created_handles.size() == 1);
  CHECK(own->GetInfo() == info);
  CHECK_FALSE(own->Import(nullptr, backend::MemorySource::kHost));  // import_memory missing
  float* own_data = static_cast<float*>(own->Map());
  own_data[0] = 100.0f;
  own->Unmap();

  // Ten inputs (more than the handle arrays hold inline): one of the plugin's, nine host handles.
  std::vector<std::vector<float>> host_data(9, std::vector<float>{1, 2, 3, 4});
  std::vector<backend::HostTensorHandle> host;
  host.reserve(10);
  for (auto& data : host_data) host.emplace_back(info, data.data());
  std::vector<float> y(4);
  host.emplace_back(info, y.data());
  std::vector<backend::ITensorHandle*> inputs{own.get()};
  for (std::size_t i = 0; i < 9; ++i) inputs.push_back(&host[i]);
  const std::vector<backend::ITensorHandle*> outputs{&host[9]};

  const auto workloads = backend->CreateWorkloadFactory(nullptr, nullptr);
  const auto workload = workloads->CreateWorkload(View(backend::LayerType::kElementwiseBinary, "sum", 10));
  CHECK(workload->GetScratchSize() == 0);  // get_scratch_size missing
  workload->Execute({inputs, outputs, nullptr});
  CHECK(y == std::vector<float>{109, 18, 27, 36});
  REQUIRE(script.executed_inputs.size() == 10);
  CHECK(script.executed_inputs[0] == script.created_handles[0]);  // unwrapped, not a view

  // The same with few handles (the inline arrays).
  const std::vector<backend::ITensorHandle*> two{&host[0], &host[1]};
  workload->Execute({two, outputs, nullptr});
  CHECK(y == std::vector<float>{2, 4, 6, 8});
}

}  // namespace
}  // namespace backplane::loading
