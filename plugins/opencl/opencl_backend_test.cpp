// The GpuOpenCl backend class used directly (no plugin loading): identity, capabilities against
// the manifest, settings, availability, contexts, factories and layer support.
#include "opencl_backend.hpp"

#include "opencl_backend_context.hpp"
#include "opencl_buffer_handle.hpp"
#include "opencl_settings.hpp"
#include "opencl_workload_factory.hpp"
#include "ops/gemm.hpp"
#include "ops/opencl_ops.hpp"

#include "opencl_test_device.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace {

using backplane::DataType;
using backplane::TensorInfo;
using backplane::backend::LayerType;
using backplane::opencl::OpenClBackend;
using backplane::opencl::OpenClBackendContext;

const std::string kLabel = std::string("GpuOpenCl ") + BACKPLANE_BACKEND_VERSION;

class FakeLayer final : public backplane::backend::ILayerView {
 public:
  FakeLayer(LayerType type, std::string name, const backplane::backend::LayerDescriptor* descriptor = nullptr)
      : type_(type), name_(std::move(name)), descriptor_(descriptor) {}
  std::size_t GetNumInputs() const override { return descriptor_ ? 1 : 0; }
  LayerType GetType() const override { return type_; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumOutputs() const override { return 1; }
  const TensorInfo& GetInputInfo(std::size_t) const override { return info_; }
  const TensorInfo& GetOutputInfo(std::size_t) const override { return info_; }
  const backplane::backend::LayerDescriptor* GetDescriptor() const override { return descriptor_; }
  const void* GetConstantInput(std::size_t) const override { return nullptr; }

 private:
  LayerType type_;
  std::string name_;
  const backplane::backend::LayerDescriptor* descriptor_;
  TensorInfo info_{{1, 4}, DataType::kFloat32};
};

class CollectingRegistry final : public backplane::backend::ITensorHandleFactoryRegistry {
 public:
  void RegisterFactory(std::unique_ptr<backplane::backend::ITensorHandleFactory> factory) override {
    factories.push_back(std::move(factory));
  }
  std::vector<std::unique_ptr<backplane::backend::ITensorHandleFactory>> factories;
};

// Keeps what the backend logs, for the cases that check its messages.
class RecordingSink final : public backplane::ILogSink {
 public:
  void Write(backplane::LogLevel level, backplane::LogCategory category, std::string_view message) override {
    std::lock_guard<std::mutex> lock(mutex_);
    lines_.push_back(std::string(backplane::ToString(level)) + " " + backplane::ToString(category) + ": " +
                     std::string(message));
  }
  std::vector<std::string> Lines() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> lines_;
};

backplane::backend::BackendConfig Config(backplane::backend::BackendOptions options,
                                         std::shared_ptr<backplane::ILogSink> log = nullptr) {
  return {std::move(options), log ? std::move(log) : std::make_shared<RecordingSink>()};
}

bool HasUsableDevice() {
  const auto choice = backplane::opencl::ChooseDevice(backplane::opencl::EnumerateDevices(),
                                                      backplane::opencl::SettingsFromEnvironment().policy);
  if (choice.index < 0) MESSAGE("SKIPPED: no usable OpenCL device here (" << choice.reason << ")");
  return choice.index >= 0;
}

template <typename F>
std::string ErrorOf(F&& call, backplane::ErrorCode code) {
  try {
    call();
  } catch (const backplane::Exception& error) {
    CHECK(error.code() == code);
    return error.what();
  }
  FAIL("no exception");
  return {};
}

}  // namespace

TEST_CASE("id is GpuOpenCl and the label carries the plugin version") {
  OpenClBackend backend;
  CHECK(backend.GetId() == backplane::BackendId("GpuOpenCl"));
  CHECK(OpenClBackend::Label() == kLabel);
  CHECK(backend.GetHandleFactoryPreferences() == std::vector<std::string>{"Backplane/GpuOpenCl/Buffer"});
}

TEST_CASE("capabilities: gpu, f32/i64, the op table's layer types, all listed by the manifest") {
  const auto capabilities = OpenClBackend().GetCapabilities();
  CHECK(capabilities.device_kind == backplane::backend::DeviceKind::kGpu);
  CHECK(capabilities.data_types == std::vector<DataType>{DataType::kFloat32, DataType::kInt64});
  CHECK(capabilities.layer_types == backplane::opencl::Ops().LayerTypes());

  std::ifstream file(BACKPLANE_OPENCL_CAPABILITIES_FILE);
  REQUIRE(file.good());
  const auto json = nlohmann::json::parse(file);
  CHECK(json.at("device_kind").get<std::string>() == "gpu");
  std::set<std::string> types;
  for (auto type : capabilities.data_types) types.insert(backplane::ToString(type));
  CHECK(json.at("data_types").get<std::set<std::string>>() == types);
  // The manifest lists what the backend may support; the op table must not claim more.
  const auto manifest_layers = json.at("layer_types").get<std::set<std::string>>();
  for (auto type : capabilities.layer_types) {
    CHECK_MESSAGE(manifest_layers.count(backplane::backend::ToString(type)) == 1,
                  "capabilities.json lacks ", backplane::backend::ToString(type));
  }
  CHECK(json.at("values").get<std::map<std::string, bool>>() == capabilities.values);
}

TEST_CASE("settings: options win over the environment, and unknown keys and malformed values are errors") {
  const auto settings = backplane::opencl::SettingsFromOptions(
      {{"allow_cpu_device", "1"}, {"device", "pthread"}, {"cache_dir", "/tmp/x"}, {"tune", "true"}, {"layer_sync", "1"},
       {"kernels", "gpu"}});
  CHECK(settings.policy.allow_cpu);
  CHECK(settings.policy.allow_cpu_source == "backend option allow_cpu_device=1");
  CHECK(settings.policy.device_filter == "pthread");
  CHECK(settings.policy.device_filter_source == "backend option device");
  CHECK(settings.cache_dir == "/tmp/x");
  CHECK(settings.tune);
  CHECK(settings.layer_sync);
  CHECK(settings.kernels == backplane::opencl::KernelShape::kGpu);
  CHECK(backplane::opencl::SettingsFromOptions({{"kernels", "cpu"}}).kernels == backplane::opencl::KernelShape::kCpu);
  CHECK(backplane::opencl::SettingsFromOptions({{"kernels", "auto"}}).kernels == backplane::opencl::KernelShape::kAuto);
  CHECK(ErrorOf([] { backplane::opencl::SettingsFromOptions({{"kernels", "cublas"}}); },
                backplane::ErrorCode::kInvalidArgument) ==
        "GpuOpenCl: backend option kernels is 'cublas'; expected auto, gpu or cpu");
  CHECK_FALSE(backplane::opencl::SettingsFromOptions({{"tune", "0"}}).tune);
  CHECK_FALSE(backplane::opencl::SettingsFromOptions({{"layer_sync", "false"}}).layer_sync);
  const auto denied = backplane::opencl::SettingsFromOptions({{"allow_cpu_device", "false"}});
  CHECK_FALSE(denied.policy.allow_cpu);
  CHECK(denied.policy.allow_cpu_source.empty());

  CHECK(ErrorOf([] { backplane::opencl::SettingsFromOptions({{"allow_cpu", "1"}}); },
                backplane::ErrorCode::kInvalidArgument) ==
        "GpuOpenCl: unknown backend option 'allow_cpu'; known options: allow_cpu_device, device, cache_dir, tune, layer_sync, kernels, threads");
  // The 1.x alias is gone: the runtime refuses keys a backend does not declare.
  CHECK_THROWS_AS(backplane::opencl::SettingsFromOptions({{"AllowCpuDevice", "1"}}), backplane::Exception);
  CHECK_NOTHROW(backplane::opencl::SettingsFromOptions({{"threads", "2"}}));
  CHECK(ErrorOf([] { backplane::opencl::SettingsFromOptions({{"threads", "two"}}); },
                backplane::ErrorCode::kInvalidArgument) ==
        "GpuOpenCl: backend option threads='two' is not a thread count");
  CHECK(ErrorOf([] { backplane::opencl::SettingsFromOptions({{"allow_cpu_device", "yes"}}); },
                backplane::ErrorCode::kInvalidArgument) ==
        "GpuOpenCl: backend option allow_cpu_device is 'yes'; expected 1, 0, true or false");
  CHECK(ErrorOf([] { backplane::opencl::SettingsFromOptions({{"tune", "maybe"}}); },
                backplane::ErrorCode::kInvalidArgument) ==
        "GpuOpenCl: backend option tune is 'maybe'; expected 1, 0, true or false");
  CHECK(ErrorOf([] { OpenClBackend().CreateBackendContext(Config({{"cache_dir", ""}})); },
                backplane::ErrorCode::kInvalidArgument) == "GpuOpenCl: backend option cache_dir is empty");
  // ctest runs this suite with the cache in the build tree.
  CHECK(backplane::opencl::SettingsFromEnvironment().cache_dir.string().find("test-cache") != std::string::npos);
}

TEST_CASE("options: the seven declared, with their types") {
  using Type = backplane::backend::OptionSpec::Type;
  std::map<std::string, Type> declared;
  for (const auto& spec : OpenClBackend().GetOptionSpecs()) {
    CHECK_FALSE(spec.doc.empty());
    declared[spec.key] = spec.type;
  }
  CHECK(declared == std::map<std::string, Type>{{"allow_cpu_device", Type::kBoolean},
                                                {"device", Type::kString},
                                                {"cache_dir", Type::kString},
                                                {"tune", Type::kBoolean},
                                                {"layer_sync", Type::kBoolean},
                                                {"kernels", Type::kString},
                                                {"threads", Type::kInteger}});
  // What the runtime validates against is what SettingsFromOptions takes.
  CHECK_NOTHROW(backplane::opencl::SettingsFromOptions(
      {{"allow_cpu_device", "0"},
       {"device", "0"},
       {"cache_dir", "/tmp/x"},
       {"tune", "1"},
       {"layer_sync", "0"},
       {"kernels", "auto"},
       {"threads", "4"}}));
}

TEST_CASE("availability and the device list follow the environment's choice") {
  OpenClBackend backend;
  const auto& enumeration = backplane::opencl::EnumerateDevices();
  const auto choice = backplane::opencl::ChooseDevice(enumeration, backplane::opencl::SettingsFromEnvironment().policy);
  std::string reason;
  CHECK(backend.IsAvailable(nullptr, &reason) == (choice.index >= 0));
  CHECK(reason == choice.reason);
  // Another backend's context (or none) means the environment's choice too.
  struct ForeignContext final : backplane::backend::IBackendContext {
    bool BeforeLoadNetwork(backplane::backend::NetworkId) override { return true; }
    bool AfterLoadNetwork(backplane::backend::NetworkId) override { return true; }
    bool BeforeUnloadNetwork(backplane::backend::NetworkId) override { return true; }
    bool AfterUnloadNetwork(backplane::backend::NetworkId) override { return true; }
  } foreign;
  std::string foreign_reason;
  CHECK(backend.IsAvailable(&foreign, &foreign_reason) == (choice.index >= 0));
  CHECK(foreign_reason == choice.reason);
  // A context whose options forbid every device: unavailable, with the reason.
  const auto none = backend.CreateBackendContext(Config({{"device", "no such device anywhere"}}));
  std::string none_reason;
  CHECK_FALSE(backend.IsAvailable(none.get(), &none_reason));
  CHECK_FALSE(none_reason.empty());
  const auto devices = backend.GetDevices();
  CHECK(devices.size() == std::max<std::size_t>(enumeration.devices.size(), 1));
  std::size_t available = 0;
  for (const auto& device : devices) {
    available += device.available;
    CHECK(device.available == device.reason.empty());
  }
  CHECK(available == (choice.index >= 0 ? 1u : 0u));
}

TEST_CASE("layer support and workload factory refuse layers the op table has no kernel for, naming them") {
  const auto support = OpenClBackend().GetLayerSupport();
  std::string reason;
  CHECK_FALSE(support->IsLayerSupported(FakeLayer(LayerType::kInput, "in"), &reason));
  CHECK(reason == "GpuOpenCl cannot run layer 'in': it has no kernel for Input layers");
  // The integer layers (Backend API 2.5) go to another backend, named in the reason.
  CHECK_FALSE(support->IsLayerSupported(FakeLayer(LayerType::kConvolutionInteger, "qconv"), &reason));
  CHECK(reason == "GpuOpenCl cannot run layer 'qconv': it has no kernel for ConvolutionInteger layers");
  if (!HasUsableDevice()) return;
  auto factory = OpenClBackend().CreateWorkloadFactory(nullptr, nullptr);
  REQUIRE(factory != nullptr);
  CHECK(ErrorOf([&] { factory->CreateWorkload(FakeLayer(LayerType::kPreCompiled, "fused")); },
                backplane::ErrorCode::kUnsupported) ==
        "GpuOpenCl cannot run layer 'fused': a PreCompiled layer it did not make");
}

TEST_CASE("a context opens its device once, and factories made in it and their buffers share that device") {
  if (!HasUsableDevice()) return;
  OpenClBackend backend;
  const auto log = std::make_shared<RecordingSink>();
  auto context = backend.CreateBackendContext(Config({}, log));
  auto* ours = dynamic_cast<OpenClBackendContext*>(context.get());
  REQUIRE(ours != nullptr);
  CHECK(log->Lines().empty());  // creating the context opens no device
  auto first = backend.CreateWorkloadFactory(nullptr, context.get());
  auto second = OpenClBackend().CreateWorkloadFactory(nullptr, context.get());
  const auto& device = static_cast<backplane::opencl::OpenClWorkloadFactory&>(*first).Device();
  CHECK(device == ours->Device());
  CHECK(static_cast<backplane::opencl::OpenClWorkloadFactory&>(*second).Device() == device);
  // The device was opened once, and said so on the runtime's log.
  const auto lines = log->Lines();
  REQUIRE_FALSE(lines.empty());
  // (The runtime, not the backend, puts "GpuOpenCl: " in front of each line.)
  CHECK(lines[0] == "info plugin: using " + device->Description());
  CHECK(std::count_if(lines.begin(), lines.end(), [](const std::string& line) {
          return line.find("plugin: using ") != std::string::npos;
        }) == 1);
  // And what runs its matrix products: which GEMM parameters CLBlast uses on it, or the tiled kernel.
  const std::string gemm_line = device->CpuKernels()            ? "plugin: kernels shaped for a CPU: "
                                : backplane::opencl::kWithClblast ? "plugin: GEMM parameters: "
                                                                  : "plugin: kernels shaped for a GPU; ";
  CHECK(std::count_if(lines.begin(), lines.end(), [&](const std::string& line) {
          return line.find(gemm_line) != std::string::npos;
        }) == 1);
  CHECK(ours->BeforeLoadNetwork(1));
  CHECK(ours->AfterLoadNetwork(1));

  CollectingRegistry registry;
  backend.RegisterTensorHandleFactories(registry);
  REQUIRE(registry.factories.size() == 1);
  auto handle = registry.factories[0]->CreateTensorHandle(TensorInfo{{16}, DataType::kFloat32});
  cl_context buffer_context = nullptr;
  REQUIRE(clGetMemObjectInfo(static_cast<backplane::opencl::OpenClBufferHandle&>(*handle).Buffer(), CL_MEM_CONTEXT,
                             sizeof(buffer_context), &buffer_context, nullptr) == CL_SUCCESS);
  CHECK(buffer_context == device->Context());
}

TEST_CASE("without a context a factory gets a device of its own, and a describing instance creates no handles") {
  OpenClBackend describing;
  CollectingRegistry registry;
  describing.RegisterTensorHandleFactories(registry);
  REQUIRE(registry.factories.size() == 1);
  CHECK(registry.factories[0]->GetId() == "Backplane/GpuOpenCl/Buffer");
  const std::string message = ErrorOf([&] { registry.factories[0]->CreateTensorHandle(TensorInfo{{1}, DataType::kFloat32}); },
                                      backplane::ErrorCode::kUnsupported);
  CHECK(message.find("this GpuOpenCl instance has created no workload factory, so it has no device") !=
        std::string::npos);
  if (!HasUsableDevice()) return;
  OpenClBackend backend;
  auto factory = backend.CreateWorkloadFactory(nullptr, nullptr);
  const auto& device = static_cast<backplane::opencl::OpenClWorkloadFactory&>(*factory).Device();
  REQUIRE(device != nullptr);
  CollectingRegistry bound;
  backend.RegisterTensorHandleFactories(bound);
  auto handle = bound.factories[0]->CreateTensorHandle(TensorInfo{{4}, DataType::kFloat32});
  CHECK(handle->Map() != nullptr);
  handle->Unmap();
}

TEST_CASE("a workload reading imported host memory has finished with it when Execute returns") {
  if (!HasUsableDevice()) return;
  OpenClBackend backend;
  auto factory = backend.CreateWorkloadFactory(nullptr, nullptr);
  const backplane::ActivationDescriptor relu;
  const FakeLayer layer(LayerType::kActivation, "relu", &relu);
  std::string reason;
  if (!backend.GetLayerSupport()->IsLayerSupported(layer, &reason)) {
    MESSAGE("SKIPPED: the op table does not run a [1,4] ReLU (" << reason << ")");
    return;
  }
  auto workload = factory->CreateWorkload(layer);
  CollectingRegistry registry;
  backend.RegisterTensorHandleFactories(registry);
  const TensorInfo info{{1, 4}, DataType::kFloat32};
  auto input = registry.factories[0]->CreateTensorHandle(info);
  auto output = registry.factories[0]->CreateTensorHandle(info);
  alignas(64) float host[4] = {-1, 2, -3, 4};
  if (!input->Import(host, backplane::backend::MemorySource::kHost)) {
    MESSAGE("SKIPPED: the device does not share host memory, so nothing is imported");
    return;
  }
  const std::vector<backplane::backend::ITensorHandle*> inputs = {input.get()};
  const std::vector<backplane::backend::ITensorHandle*> outputs = {output.get()};
  workload->Execute({inputs, outputs, nullptr});
  // The runtime may now reuse the host memory: the kernel must have read it already.
  host[0] = 100.0f;
  host[1] = -100.0f;
  const auto* result = static_cast<const float*>(output->Map());
  CHECK(result[0] == 0.0f);
  CHECK(result[1] == 2.0f);
  CHECK(result[3] == 4.0f);
  output->Unmap();
}
