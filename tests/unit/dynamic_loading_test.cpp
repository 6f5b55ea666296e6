// Spec 000 "Test Strategy": the twelve unit tests of dynamic backend loading, mapped onto
// Backplane's public API (Runtime::Create over a temporary backend folder, the discovery
// report, the registered backends; backend instances through the runtime's internal
// impl_access.hpp). Finer-grained cases of the same features live in
// naming_scheme_test.cpp, manifest_validation_test.cpp and plugin_validation_test.cpp.
#include "backend_test_doubles.hpp"
#include "capturing_log_sink.hpp"
#include "discovery_records.hpp"
#include "impl_access.hpp"  // runtime/src: backend instances outside a network
#include "plugin_trace.hpp"
#include "scoped_environment.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

namespace backplane::unit {
namespace {

using backend::DeviceKind;
using backend::LayerType;
using backend::MemorySource;

const TensorInfo kVector4{{4}, DataType::kFloat32};

// ---- 1 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 1: a valid backend with a manifest is loaded and registered") {
  TestFolder folder;
  const fs::path manifest = folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  const fs::path library = folder / LibraryFileName("Test", "ValidA");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}, /*allow_no_backends=*/false));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));

  REQUIRE(report.records.size() == 1);
  const DiscoveryRecord& record = report.records[0];
  CHECK(Mismatch(&record, {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                           FoundBy::kManifest, {}}) == "");
  CHECK(fs::path(record.manifest_path) == manifest);
  CHECK(fs::equivalent(record.library_path, library));
  CHECK(record.backend_id == "TestValidA");
  CHECK(record.warnings.empty());

  REQUIRE(report.search_paths.size() == 1);
  CHECK(fs::path(report.search_paths[0].path) == folder.path());
  CHECK(report.search_paths[0].source == "option");
  CHECK(report.search_paths[0].valid);
  CHECK(report.dynamic_loading_enabled);

  const std::vector<BackendInfo> backends = runtime->GetBackends();
  REQUIRE(backends.size() == 1);
  const BackendInfo& info = backends[0];
  CHECK(info.id == BackendId("TestValidA"));
  CHECK(info.vendor == "Test");
  CHECK(info.version == "1.0.0");
  CHECK(info.api_version == kBackendApiVersion);
  CHECK(info.found_by == FoundBy::kManifest);
  CHECK(fs::equivalent(info.library_path, library));
  CHECK(fs::path(info.manifest_path) == manifest);
  CHECK(info.capabilities.device_kind == DeviceKind::kCpu);
  CHECK(info.capabilities.data_types == std::vector<DataType>{DataType::kFloat32});
  CHECK(info.capabilities.layer_types ==
        std::vector<LayerType>{LayerType::kActivation, LayerType::kElementwiseBinary});
  CHECK(info.capabilities.values.at("TestCapability"));
  REQUIRE(info.devices.size() == 1);
  CHECK(info.devices[0].name == "Test host CPU (TestValidA)");
  CHECK(info.available);
  CHECK(info.unavailable_reason.empty());

  CHECK(runtime->HasBackend("TestValidA"));
  CHECK_FALSE(runtime->HasBackend("TestValidB"));
  auto backend = detail::ImplAccess::CreateBackend(*runtime, "TestValidA");
  REQUIRE(backend != nullptr);
  CHECK(backend->GetId() == BackendId("TestValidA"));
}

TEST_CASE("spec 000 test 1: a valid backend with no manifest is loaded through the naming scheme") {
  TestFolder folder;
  const fs::path library = folder.AddLibrary(test_plugins::valid_a, LibraryFileName("Test", "ValidA"));

  auto runtime = Runtime::Create(OptionsFor({folder.path()}, /*allow_no_backends=*/false));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(Mismatch(&report.records[0], {Verdict::kRegistered, ReasonCode::kOk,
                                      DiscoveryStage::kRegistered, FoundBy::kNamingScheme, {}}) == "");
  CHECK(report.records[0].manifest_path.empty());
  CHECK(fs::path(report.records[0].library_path) == library);

  const auto backends = runtime->GetBackends();
  REQUIRE(backends.size() == 1);
  CHECK(backends[0].id == BackendId("TestValidA"));
  CHECK(backends[0].found_by == FoundBy::kNamingScheme);
  CHECK(backends[0].manifest_path.empty());
  CHECK(backends[0].version == "1.0.0");
  CHECK(backends[0].vendor == "Test");
  // With no manifest the capabilities come from the backend itself.
  CHECK(backends[0].capabilities.layer_types ==
        std::vector<LayerType>{LayerType::kActivation, LayerType::kElementwiseBinary});
}

TEST_CASE("spec 000 test 1: an unknown backend id is a clear error, not a crash") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));

  CHECK(runtime->GetBackendContext("NoSuchBackend") == nullptr);
  try {
    detail::ImplAccess::CreateBackend(*runtime, "NoSuchBackend");
    FAIL("CreateBackend of an unknown id did not throw");
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kNotFound);
    CHECK(Contains(error.what(), "NoSuchBackend"));
  }
}

// ---- 2 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 2: a file that is not a shared object is not loaded") {
  TestFolder folder;
  const std::string text_file = LibraryFileName("Test", "Text");
  const std::string empty_file = LibraryFileName("Test", "Empty");
  folder.WriteFile(text_file, "this is not a shared library\n");
  folder.WriteFile(empty_file, "");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK(report.records.size() == 2);
  // Refused on its header, before the OS loader sees it (issue 18).
  CHECK(Mismatch(RecordFor(report, text_file), {Verdict::kRejected, ReasonCode::kLibraryInvalid,
                                                DiscoveryStage::kLibraryVerified,
                                                FoundBy::kNamingScheme,
                                                {text_file, "is not a shared library"}}) == "");
  CHECK(Mismatch(RecordFor(report, empty_file), {Verdict::kRejected, ReasonCode::kLibraryInvalid,
                                                 DiscoveryStage::kLibraryVerified,
                                                 FoundBy::kNamingScheme,
                                                 {empty_file, "is empty (0 bytes)"}}) == "");
  CHECK(runtime->GetBackends().empty());
}

TEST_CASE("spec 000 test 2: a shared object whose name does not follow the naming scheme is not loaded") {
  PluginTrace trace;
  TestFolder folder;
  for (const char* name : {"libTestValidA.so", "TestValidA.so", "Test_ValidA_backend.so.x",
                           "Test_ValidA.so", "Test_ValidA_backend.txt"}) {
    folder.AddLibrary(test_plugins::valid_a, name);
  }

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  INFO(Describe(runtime->GetDiscoveryReport()));
  INFO(trace.Text());
  CHECK(runtime->GetDiscoveryReport().records.empty());
  CHECK(runtime->GetBackends().empty());
  CHECK(trace.Count("loaded TestValidA") == 0);  // not even opened
}

TEST_CASE("spec 000 test 2: a symlink that resolves to nothing is reported, not loaded" * doctest::skip(!kSymlinksInTests)) {
  TestFolder folder;
  const std::string name = LibraryFileName("Test", "Gone");
  folder.Symlink(name, folder / "nothing-here.so");

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  const DiscoveryRecord& record = report.records[0];
  CHECK(record.verdict == Verdict::kRejected);
  CHECK(record.code == ReasonCode::kLibraryMissing);
  CHECK(record.found_by == FoundBy::kNamingScheme);
  CHECK(Contains(record.message, name));
}

// ---- 3 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 3: a shared object that does not implement the plugin interface is rejected") {
  PluginTrace trace;
  TestFolder folder;
  const std::string no_factory = LibraryFileName("Test", "NoFactory");
  const std::string foreign = LibraryFileName("Test", "Foreign");
  folder.AddLibrary(test_plugins::no_backend_factory, no_factory);
  folder.AddLibrary(test_plugins::foreign, foreign);

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  INFO(trace.Text());
  CHECK(report.records.size() == 2);
  CHECK(Mismatch(RecordFor(report, no_factory),
                 {Verdict::kRejected, ReasonCode::kEntryPointMissing, DiscoveryStage::kEntryPoints,
                  FoundBy::kNamingScheme, {no_factory, "BackendFactory"}}) == "");
  CHECK(Mismatch(RecordFor(report, foreign),
                 {Verdict::kRejected, ReasonCode::kForeignLibrary, DiscoveryStage::kIdentity,
                  FoundBy::kNamingScheme, {foreign}}) == "");
  CHECK(runtime->GetBackends().empty());
  // The foreign library's factory was never called.
  CHECK(trace.Count("created TestForeign") == 0);
}

// ---- 4 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 4: a backend built for an incompatible Backend API version is rejected") {
  TestFolder folder;
  const std::string major = LibraryFileName("Test", "Major");
  const std::string minor = LibraryFileName("Test", "Minor");
  folder.AddLibrary(test_plugins::api_major, major);
  folder.AddLibrary(test_plugins::api_minor, minor);
  const std::string runtime_api = ToString(kBackendApiVersion);
  const std::string newer_major =
      ToString(BackendApiVersion{kBackendApiVersion.major + 1, kBackendApiVersion.minor});
  const std::string newer_minor =
      ToString(BackendApiVersion{kBackendApiVersion.major, kBackendApiVersion.minor + 1});

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  // Another major is refused at the identity, before any function of the library is called.
  CHECK(Mismatch(RecordFor(report, major),
                 {Verdict::kRejected, ReasonCode::kApiVersionIncompatible,
                  DiscoveryStage::kIdentity, FoundBy::kNamingScheme,
                  {major, newer_major, runtime_api}}) == "");
  CHECK(Mismatch(RecordFor(report, minor),
                 {Verdict::kRejected, ReasonCode::kApiVersionIncompatible,
                  DiscoveryStage::kBackendChecked, FoundBy::kNamingScheme,
                  {minor, newer_minor, runtime_api}}) == "");
  CHECK(runtime->GetBackends().empty());
}

// ---- 5 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 5: several different backends are loaded, in a deterministic order") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_b, "Test", "ValidB");
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  folder.AddLibrary(test_plugins::valid_c, LibraryFileName("Test", "ValidC"));

  auto runtime = Runtime::Create(OptionsFor({folder.path()}, /*allow_no_backends=*/false));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 3);
  // Manifests first, sorted by name; then the naming-scheme fallback.
  CHECK(fs::path(report.records[0].manifest_path).filename() == ManifestFileName("Test", "ValidA"));
  CHECK(fs::path(report.records[1].manifest_path).filename() == ManifestFileName("Test", "ValidB"));
  CHECK(fs::path(report.records[2].library_path).filename() == LibraryFileName("Test", "ValidC"));
  for (const auto& record : report.records) CHECK(record.verdict == Verdict::kRegistered);

  const auto backends = runtime->GetBackends();
  REQUIRE(backends.size() == 3);
  CHECK(backends[0].id == BackendId("TestValidA"));
  CHECK(backends[1].id == BackendId("TestValidB"));
  CHECK(backends[2].id == BackendId("TestValidC"));
  CHECK(backends[2].found_by == FoundBy::kNamingScheme);
  for (const char* id : {"TestValidA", "TestValidB", "TestValidC"}) {
    auto backend = detail::ImplAccess::CreateBackend(*runtime, id);
    REQUIRE(backend != nullptr);
    CHECK(backend->GetId() == BackendId(id));
  }
}

TEST_CASE("spec 000 test 5: backends from several folders are loaded, folders in the given order") {
  TestFolder first;
  TestFolder second;
  second.AddLibrary(test_plugins::valid_a, LibraryFileName("Test", "ValidA"));
  first.AddLibrary(test_plugins::valid_b, LibraryFileName("Test", "ValidB"));

  auto runtime = Runtime::Create(OptionsFor({first.path(), second.path()}, false));
  INFO(Describe(runtime->GetDiscoveryReport()));
  REQUIRE(runtime->GetBackends().size() == 2);
  // Scanned (and loaded) folder by folder, in the given order: the records say so.
  // (GetBackends is the default preference order instead; here, two cpu backends: by id.)
  const auto& records = runtime->GetDiscoveryReport().records;
  REQUIRE(records.size() == 2);
  CHECK(records[0].backend_id == "TestValidB");
  CHECK(records[1].backend_id == "TestValidA");
  const auto& paths = runtime->GetDiscoveryReport().search_paths;
  REQUIRE(paths.size() == 2);
  CHECK(fs::path(paths[0].path) == first.path());
  CHECK(fs::path(paths[1].path) == second.path());
}

// ---- 6 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 6: a backend whose id is already registered is not loaded") {
  TestFolder folder;
  const std::string first = LibraryFileName("Test", "First");
  const std::string second = LibraryFileName("Test", "Second");
  folder.AddLibrary(test_plugins::valid_a, first);
  folder.AddLibrary(test_plugins::valid_a, second);  // another file, same id

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 2);
  CHECK(Mismatch(RecordFor(report, first), {Verdict::kRegistered, ReasonCode::kOk,
                                            DiscoveryStage::kRegistered, FoundBy::kNamingScheme,
                                            {}}) == "");
  CHECK(Mismatch(RecordFor(report, second),
                 {Verdict::kDuplicate, ReasonCode::kDuplicateBackendId,
                  DiscoveryStage::kBackendChecked, FoundBy::kNamingScheme,
                  {"TestValidA", first, second}}) == "");
  const auto backends = runtime->GetBackends();
  REQUIRE(backends.size() == 1);
  CHECK(fs::path(backends[0].library_path).filename() == first);
}

// ---- 7 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 7: one shared object reached through two folders is loaded once" * doctest::skip(!kSymlinksInTests)) {
  TestFolder folder;
  const fs::path real = folder.MakeFolder("real");
  const fs::path other = folder.MakeFolder("other");
  const std::string name = LibraryFileName("Test", "ValidA");
  const fs::path library = folder.AddLibrary(test_plugins::valid_a, fs::path("real") / name);
  folder.Symlink(fs::path("other") / name, library);  // a second folder, the same file

  auto runtime = Runtime::Create(OptionsFor({real, other}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 2);
  CHECK(Mismatch(&report.records[0], {Verdict::kRegistered, ReasonCode::kOk,
                                      DiscoveryStage::kRegistered, FoundBy::kNamingScheme, {}}) == "");
  CHECK(fs::path(report.records[0].library_path) == library);
  CHECK(Mismatch(&report.records[1], {Verdict::kDuplicate, ReasonCode::kDuplicateLibrary,
                                      DiscoveryStage::kLibraryVerified, FoundBy::kNamingScheme,
                                      {library.string()}}) == "");
  CHECK(fs::path(report.records[1].library_path) == other / name);
  CHECK(runtime->GetBackends().size() == 1);
}

TEST_CASE("spec 000 test 12: a plugin in a folder whose path is over 260 characters is found and loaded") {
  // Windows' MAX_PATH: the folder is listed and the library opened through the extended-length form.
  TestFolder folder;
  fs::path deep;
  while ((folder / deep).native().size() <= 300) deep /= "a-folder-name-of-forty-characters-------";
  const fs::path searched = folder.MakeFolder(deep);
  folder.AddLibrary(test_plugins::valid_a, deep / LibraryFileName("Test", "ValidA"));

  auto runtime = Runtime::Create(OptionsFor({searched}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 1);
  CHECK(Mismatch(&report.records[0], {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                                      FoundBy::kNamingScheme, {}}) == "");
  CHECK(fs::path(report.records[0].library_path) == searched / LibraryFileName("Test", "ValidA"));
}

TEST_CASE("spec 000 test 7: one library under two hard-linked names is loaded once") {
  TestFolder folder;
  const std::string first = LibraryFileName("Test", "LinkA");
  const std::string second = LibraryFileName("Test", "LinkB");
  const fs::path library = folder.AddLibrary(test_plugins::valid_a, first);
  fs::create_hard_link(library, folder / second);

  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 2);
  CHECK(Mismatch(RecordFor(report, first), {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered,
                                            FoundBy::kNamingScheme, {}}) == "");
  CHECK(Mismatch(RecordFor(report, second), {Verdict::kDuplicate, ReasonCode::kDuplicateLibrary,
                                             DiscoveryStage::kLibraryVerified, FoundBy::kNamingScheme,
                                             {first}}) == "");
  CHECK(runtime->GetBackends().size() == 1);
}

TEST_CASE("spec 000 test 7: a folder reached twice (a symlinked folder) is searched once" * doctest::skip(!kSymlinksInTests)) {
  TestFolder folder;
  const fs::path real = folder.MakeFolder("real");
  folder.AddLibrary(test_plugins::valid_a, fs::path("real") / LibraryFileName("Test", "ValidA"));
  const fs::path alias = folder.Symlink("alias", real);

  auto runtime = Runtime::Create(OptionsFor({real, alias}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.search_paths.size() == 2);
  CHECK(report.search_paths[0].valid);
  CHECK_FALSE(report.search_paths[1].valid);
  CHECK(report.search_paths[1].reason == "same folder as " + real.string() + ", already searched");
  REQUIRE(report.records.size() == 1);
  CHECK(runtime->GetBackends().size() == 1);
}

TEST_CASE("spec 000 test 7: one shared object reached through two symlinks is loaded once" * doctest::skip(!kSymlinksInTests)) {
  TestFolder folder;
  const fs::path store = folder.MakeFolder("store");
  const fs::path scanned = folder.MakeFolder("scanned");
  const fs::path library = folder.AddLibrary(test_plugins::valid_a, "store/test_backend.so");
  const std::string first = LibraryFileName("Test", "LinkA");
  const std::string second = LibraryFileName("Test", "LinkB");
  folder.Symlink(fs::path("scanned") / first, library);
  folder.Symlink(fs::path("scanned") / second, library);

  auto runtime = Runtime::Create(OptionsFor({scanned}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.records.size() == 2);
  CHECK(Mismatch(RecordFor(report, first), {Verdict::kRegistered, ReasonCode::kOk,
                                            DiscoveryStage::kRegistered, FoundBy::kNamingScheme,
                                            {}}) == "");
  CHECK(Mismatch(RecordFor(report, second), {Verdict::kDuplicate, ReasonCode::kDuplicateLibrary,
                                             DiscoveryStage::kLibraryVerified,
                                             FoundBy::kNamingScheme, {first}}) == "");
  CHECK(runtime->GetBackends().size() == 1);
}

// ---- 8 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 8: destroying the runtime unloads every backend library it loaded") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  folder.AddLibrary(test_plugins::valid_b, LibraryFileName("Test", "ValidB"));

  auto runtime = Runtime::Create(OptionsFor({folder.path()}, false));
  REQUIRE(runtime->GetBackends().size() == 2);
  {
    auto backend = detail::ImplAccess::CreateBackend(*runtime, "TestValidA");
    CHECK(backend->GetLayerSupport() != nullptr);
  }
  INFO(trace.Text());
  // Loaded and still loaded while the runtime lives.
  CHECK(trace.Count("loaded TestValidA") == 1);
  CHECK(trace.Count("loaded TestValidB") == 1);
  CHECK(trace.Count("unloaded TestValidA") == 0);
  CHECK(trace.Count("unloaded TestValidB") == 0);

  runtime.reset();

  INFO(trace.Text());
  CHECK(trace.Count("unloaded TestValidA") == 1);
  CHECK(trace.Count("unloaded TestValidB") == 1);
  // Every backend instance and context the runtime made was destroyed, before its library went.
  CHECK(trace.Count("created TestValidA") == trace.Count("destroyed TestValidA"));
  CHECK(trace.Count("created TestValidB") == trace.Count("destroyed TestValidB"));
  CHECK(trace.Count("context TestValidA destroyed") == 1);
  CHECK(trace.IndexOf("context TestValidA destroyed") < trace.IndexOf("unloaded TestValidA"));
  CHECK(trace.IndexOf("context TestValidB destroyed") < trace.IndexOf("unloaded TestValidB"));
}

TEST_CASE("spec 000 test 8: a library rejected after opening is closed again at once") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddLibrary(test_plugins::api_major, LibraryFileName("Test", "Major"));
  folder.AddLibrary(test_plugins::valid_a, LibraryFileName("Test", "ValidA"));

  auto runtime = Runtime::Create(OptionsFor({folder.path()}, false));
  INFO(trace.Text());
  CHECK(trace.Count("loaded TestApiMajor") == 1);
  CHECK(trace.Count("unloaded TestApiMajor") == 1);  // while the runtime still lives
  CHECK(trace.Count("unloaded TestValidA") == 0);
}

// ---- 9 ----------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 9: every method of a loaded backend can be called") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  auto runtime = Runtime::Create(OptionsFor({folder.path()}, false));
  // Everything below comes from the plugin and is destroyed before the runtime.
  std::unique_ptr<backend::IBackend> backend = detail::ImplAccess::CreateBackend(*runtime, "TestValidA");
  REQUIRE(backend != nullptr);

  SUBCASE("identity, availability, devices, capabilities") {
    CHECK(backend->GetId() == BackendId("TestValidA"));
    std::string reason = "stale";
    CHECK(backend->IsAvailable(nullptr, &reason));
    CHECK(reason.empty());
    const auto devices = backend->GetDevices();
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].name == "Test host CPU (TestValidA)");
    CHECK(devices[0].kind == DeviceKind::kCpu);
    CHECK(devices[0].available);
    const auto capabilities = backend->GetCapabilities();
    CHECK(capabilities.device_kind == DeviceKind::kCpu);
    CHECK(capabilities.data_types == std::vector<DataType>{DataType::kFloat32});
    CHECK(capabilities.layer_types ==
          std::vector<LayerType>{LayerType::kActivation, LayerType::kElementwiseBinary});
    CHECK(capabilities.values.at("ProtectedContentAllocation") == false);
    CHECK(capabilities.values.at("TestCapability") == true);
  }

  SUBCASE("layer support accepts what it can run and says why it refuses the rest") {
    const auto support = backend->GetLayerSupport();
    REQUIRE(support != nullptr);
    std::string reason;
    CHECK(support->IsLayerSupported(FakeLayer(LayerType::kActivation, "relu", {kVector4}, {kVector4}), &reason));
    CHECK(reason.empty());
    CHECK(support->IsLayerSupported(
        FakeLayer(LayerType::kElementwiseBinary, "add", {kVector4, kVector4}, {kVector4}), &reason));

    CHECK_FALSE(support->IsLayerSupported(
        FakeLayer(LayerType::kConvolution2d, "conv1", {kVector4}, {kVector4}), &reason));
    CHECK(Contains(reason, "Convolution2d"));
    CHECK(Contains(reason, "conv1"));

    const TensorInfo int_vector{{4}, DataType::kInt32};
    CHECK_FALSE(support->IsLayerSupported(
        FakeLayer(LayerType::kActivation, "relu_i32", {int_vector}, {int_vector}), &reason));
    CHECK(Contains(reason, "i32"));

    CHECK_FALSE(support->IsLayerSupported(
        FakeLayer(LayerType::kElementwiseBinary, "add1", {kVector4}, {kVector4}), &reason));
    CHECK(Contains(reason, "add1"));
  }

  SUBCASE("OptimizeSubgraph keeps supported runs untouched and hands unsupported layers back") {
    const FakeLayer relu(LayerType::kActivation, "relu", {kVector4}, {kVector4});
    const FakeLayer conv(LayerType::kConvolution2d, "conv", {kVector4}, {kVector4});
    const FakeLayer add(LayerType::kElementwiseBinary, "add", {kVector4, kVector4}, {kVector4});
    const FakeLayer relu2(LayerType::kActivation, "relu2", {kVector4}, {kVector4});
    const auto views = backend->OptimizeSubgraph({{&relu, &conv, &add, &relu2}});
    CHECK(views.substitutions.empty());
    REQUIRE(views.failed.size() == 1);
    CHECK(views.failed[0].layers == std::vector<const backend::ILayerView*>{&conv});
    REQUIRE(views.untouched.size() == 2);
    CHECK(views.untouched[0].layers == std::vector<const backend::ILayerView*>{&relu});
    CHECK(views.untouched[1].layers == std::vector<const backend::ILayerView*>{&add, &relu2});
  }

  SUBCASE("memory manager, workload factory and workloads run real kernels") {
    RecordingFactoryRegistry registry;
    backend->RegisterTensorHandleFactories(registry);
    backend::ITensorHandleFactory* factory = registry.Find("Test/TestValidA/Host");
    REQUIRE(factory != nullptr);

    const auto memory = backend->CreateMemoryManager();
    REQUIRE(memory != nullptr);
    const auto workloads = backend->CreateWorkloadFactory(memory, nullptr);
    REQUIRE(workloads != nullptr);

    const auto relu = workloads->CreateWorkload(FakeLayer(LayerType::kActivation, "relu", {kVector4}, {kVector4}));
    const auto add = workloads->CreateWorkload(
        FakeLayer(LayerType::kElementwiseBinary, "add", {kVector4, kVector4}, {kVector4}));
    REQUIRE(relu != nullptr);
    REQUIRE(add != nullptr);
    CHECK(relu->GetScratchSize() == 0);

    auto a = factory->CreateTensorHandle(kVector4);
    auto b = factory->CreateTensorHandle(kVector4);
    auto out = factory->CreateTensorHandle(kVector4);
    WriteTensor(*a, {-2.0f, -0.5f, 0.0f, 3.0f});
    WriteTensor(*b, {1.0f, 1.0f, 1.0f, 1.0f});
    const std::vector<backend::ITensorHandle*> one_input{a.get()};
    const std::vector<backend::ITensorHandle*> two_inputs{a.get(), b.get()};
    const std::vector<backend::ITensorHandle*> outputs{out.get()};

    // Before Acquire the workload refuses to run.
    try {
      relu->Execute({one_input, outputs});
      FAIL("Execute before IMemoryManager::Acquire did not throw");
    } catch (const Exception& error) {
      CHECK(error.code() == ErrorCode::kBackendFailure);
      CHECK(Contains(error.what(), "relu"));
    }

    memory->Acquire();
    relu->Execute({one_input, outputs});
    CHECK(ReadTensor(*out) == std::vector<float>{0.0f, 0.0f, 0.0f, 3.0f});
    add->Execute({two_inputs, outputs});
    CHECK(ReadTensor(*out) == std::vector<float>{-1.0f, 0.5f, 1.0f, 4.0f});
    // Wrong bindings are an error naming the layer, not a crash.
    CHECK_THROWS_AS(add->Execute({one_input, outputs}), Exception);
    memory->Release();
    CHECK_THROWS_AS(memory->Release(), Exception);  // more releases than acquires

    INFO(trace.Text());
    CHECK(trace.Count("acquire TestValidA") == 1);
    CHECK(trace.Count("release TestValidA") == 1);

    // A layer the backend cannot run: kUnsupported naming the layer type.
    try {
      workloads->CreateWorkload(FakeLayer(LayerType::kSoftmax, "softmax", {kVector4}, {kVector4}));
      FAIL("CreateWorkload of an unsupported layer did not throw");
    } catch (const Exception& error) {
      CHECK(error.code() == ErrorCode::kUnsupported);
      CHECK(Contains(error.what(), "Softmax"));
    }

    // A workload factory made with no memory manager needs none.
    const auto unmanaged = backend->CreateWorkloadFactory(nullptr, nullptr);
    const auto relu_unmanaged =
        unmanaged->CreateWorkload(FakeLayer(LayerType::kActivation, "relu", {kVector4}, {kVector4}));
    relu_unmanaged->Execute({one_input, outputs});
    CHECK(ReadTensor(*out) == std::vector<float>{0.0f, 0.0f, 0.0f, 3.0f});
  }

  SUBCASE("tensor handle factory: preferences, properties, map/unmap, import") {
    CHECK(backend->GetHandleFactoryPreferences() == std::vector<backend::FactoryId>{"Test/TestValidA/Host"});
    RecordingFactoryRegistry registry;
    backend->RegisterTensorHandleFactories(registry);
    CHECK(registry.FactoryCount() == 1);
    backend::ITensorHandleFactory* factory = registry.Find("Test/TestValidA/Host");
    REQUIRE(factory != nullptr);
    CHECK(factory->GetId() == "Test/TestValidA/Host");
    const auto properties = factory->GetProperties();
    CHECK(properties.supports_map_unmap);
    CHECK(properties.import_sources == static_cast<backend::MemorySourceFlags>(MemorySource::kHost));

    auto handle = factory->CreateTensorHandle(kVector4);
    CHECK(handle->GetInfo() == kVector4);
    WriteTensor(*handle, {1.0f, 2.0f, 3.0f, 4.0f});
    CHECK(ReadTensor(*handle) == std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f});

    std::vector<float> host{9.0f, 8.0f, 7.0f, 6.0f};
    CHECK_FALSE(handle->Import(host.data(), MemorySource::kUndefined));
    CHECK(ReadTensor(*handle) == std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f});  // unchanged
    CHECK(handle->Import(host.data(), MemorySource::kHost));
    CHECK(ReadTensor(*handle) == host);
    CHECK(handle->Map() == host.data());  // no copy
    handle->Unmap();
  }

  SUBCASE("backend context: load/unload notifications in order, options passed through") {
    auto sink = std::make_shared<CapturingLogSink>();
    const auto context = backend->CreateBackendContext({{{"RejectLoadOf", "7"}}, sink});
    REQUIRE(context != nullptr);
    CHECK_FALSE(context->AfterLoadNetwork(1));  // out of order
    CHECK(context->BeforeLoadNetwork(1));
    CHECK(context->AfterLoadNetwork(1));
    CHECK(context->BeforeUnloadNetwork(1));
    CHECK(context->AfterUnloadNetwork(1));
    CHECK_FALSE(context->BeforeLoadNetwork(7));  // refused through the option
    INFO(trace.Text());
    CHECK(trace.Count("context TestValidA BeforeLoadNetwork 1") == 1);
    CHECK(trace.Count("context TestValidA AfterUnloadNetwork 1") == 1);
  }
}

TEST_CASE("spec 000 test 9: the runtime holds one backend context per backend, made with the application's options") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  folder.AddPluginWithManifest(test_plugins::valid_b, "Test", "ValidB");
  RuntimeOptions options = OptionsFor({folder.path()}, false);
  options.backend_options["TestValidA"] = {{"RejectLoadOf", "42"}};

  auto runtime = Runtime::Create(options);
  backend::IBackendContext* a = runtime->GetBackendContext("TestValidA");
  backend::IBackendContext* b = runtime->GetBackendContext("TestValidB");
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(a != b);
  CHECK(runtime->GetBackendContext("TestValidA") == a);  // held, not made per call
  CHECK_FALSE(a->BeforeLoadNetwork(42));  // TestValidA got its options...
  CHECK(b->BeforeLoadNetwork(42));        // ...and TestValidB did not
  CHECK(b->AfterLoadNetwork(42));
}

TEST_CASE("backend options under \"*\" reach every backend, a backend's own entry overrides them") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  folder.AddPluginWithManifest(test_plugins::valid_b, "Test", "ValidB");
  RuntimeOptions options = OptionsFor({folder.path()}, false);
  options.backend_options[kAllBackends] = {{"RejectLoadOf", "7"}};
  options.backend_options["TestValidB"] = {{"RejectLoadOf", "8"}};

  auto runtime = Runtime::Create(options);
  backend::IBackendContext* a = runtime->GetBackendContext("TestValidA");
  backend::IBackendContext* b = runtime->GetBackendContext("TestValidB");
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK_FALSE(a->BeforeLoadNetwork(7));  // from "*"
  CHECK(b->BeforeLoadNetwork(7));        // overridden by its own entry...
  CHECK_FALSE(b->BeforeLoadNetwork(8));  // ...which holds
}

// Runtime::Create's error for `options` over a folder with TestValidA and TestValidB.
std::string OptionError(const std::map<BackendId, backend::BackendOptions>& backend_options) {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  folder.AddPluginWithManifest(test_plugins::valid_b, "Test", "ValidB");
  RuntimeOptions options = OptionsFor({folder.path()}, false);
  options.backend_options = backend_options;
  try {
    Runtime::Create(options);
  } catch (const NoBackendsError& error) {
    FAIL("NoBackendsError instead of an option error: " << error.what());
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    return error.what();
  }
  FAIL("Runtime::Create accepted the options");
  return {};
}

constexpr const char* kTestPluginOptions =
    "RejectLoadOf (integer), UnavailableBecause (string), LogOnCreate (string), threads (integer)";

TEST_CASE("backend options: a key the backend does not declare fails Runtime::Create naming backend, key, value "
          "and what it accepts") {
  CHECK(OptionError({{"TestValidB", {{"RejectLoadof", "7"}}}}) ==
        std::string("backend TestValidB has no option \"RejectLoadof\" (given the value \"7\"); it accepts ") +
            kTestPluginOptions);
}

TEST_CASE("backend options: a value that does not parse as the declared type fails Runtime::Create") {
  CHECK(OptionError({{"TestValidA", {{"RejectLoadOf", "seven"}}}}) ==
        "backend TestValidA: option \"RejectLoadOf\" = \"seven\" is not a valid integer; it must be a decimal integer "
        "(optional sign, 64 bits)");
  CHECK(OptionError({{kAllBackends, {{"threads", "many"}}}}) ==
        "backend TestValidA: option \"threads\" = \"many\" (given for all backends, \"*\") is not a valid integer; it "
        "must be a decimal integer (optional sign, 64 bits)");
}

TEST_CASE("backend options: a \"*\" key no registered backend declares fails Runtime::Create") {
  CHECK(OptionError({{kAllBackends, {{"thread", "4"}}}}) ==
        std::string("option \"thread\" = \"4\" was given for all backends (\"*\"), but no registered backend has it; "
                    "they accept: TestValidA: ") +
            kTestPluginOptions + "; TestValidB: " + kTestPluginOptions);
}

TEST_CASE("backend options: options for a backend that is not registered are not used, and not an error") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  RuntimeOptions options = OptionsFor({folder.path()}, false);
  options.backend_options["GpuSomewhereElse"] = {{"anything", "at all"}};
  options.backend_options[kAllBackends] = {{"threads", "4"}};
  CHECK(Runtime::Create(options)->HasBackend("TestValidA"));
}

TEST_CASE("backend options: the registered backends list the options they accept") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  auto runtime = Runtime::Create(OptionsFor({folder.path()}, false));
  const auto backends = runtime->GetBackends();
  REQUIRE(backends.size() == 1);
  REQUIRE(backends[0].options.size() == 4);
  CHECK(backends[0].options[0].key == "RejectLoadOf");
  CHECK(backends[0].options[0].type == backend::OptionSpec::Type::kInteger);
  CHECK(backends[0].options[0].default_value == "0");
  CHECK(backends[0].options[0].doc == "BeforeLoadNetwork refuses the network of this id (0: none)");
}

TEST_CASE("a backend's log channel reaches the application's sink, prefixed with the backend's id") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  RuntimeOptions options = OptionsFor({folder.path()}, false);
  auto sink = std::make_shared<CapturingLogSink>();
  options.log_sink = sink;
  options.backend_options["TestValidA"] = {{"LogOnCreate", "hello from the context\nforged line"}};
  auto runtime = Runtime::Create(options);
  CHECK(sink->Contains(LogLevel::kWarning, LogCategory::kPlugin, "TestValidA: hello from the context\\nforged line"));
}

TEST_CASE("a backend context refusing a load fails LoadNetwork with the backend's reason") {
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  RuntimeOptions options = OptionsFor({folder.path()}, false);
  options.backend_options["TestValidA"] = {{"RejectLoadOf", "1"}};
  auto runtime = Runtime::Create(options);
  Network network;
  const TensorInfo info{{4}};
  network.AddOutput("y", network.Add(ActivationDescriptor{}, {network.AddInput("x", info)}, "relu"));
  OptimizedNetwork optimized = runtime->Optimize(network);
  try {
    runtime->LoadNetwork(std::move(optimized));
    FAIL("the load was not refused");
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kBackendFailure);
    CHECK(std::string(error.what()) ==
          "backend TestValidA refused to load network 1: backend TestValidA: BeforeLoadNetwork(1) returned false");
  }
}

TEST_CASE("workload factories get the runtime's context, and options can decide availability") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  folder.AddPluginWithManifest(test_plugins::valid_b, "Test", "ValidB");
  RuntimeOptions options = OptionsFor({folder.path()}, false);
  options.backend_options["TestValidB"] = {{"UnavailableBecause", "switched off by the application"}};
  auto runtime = Runtime::Create(options);

  for (const auto& info : runtime->GetBackends()) {
    if (info.id == BackendId("TestValidA")) CHECK(info.available);
    if (info.id != BackendId("TestValidB")) continue;
    CHECK_FALSE(info.available);
    CHECK(info.unavailable_reason == "switched off by the application");
  }

  Network network;
  const TensorInfo info{{4}};
  network.AddOutput("y", network.Add(ActivationDescriptor{}, {network.AddInput("x", info)}, "relu"));
  OptimizeOptions optimize;
  optimize.backends = {"TestValidB", "TestValidA"};
  OptimizedNetwork optimized = runtime->Optimize(network, optimize);
  REQUIRE(optimized.GetPlacement().size() >= 1);
  for (const auto& placement : optimized.GetPlacement()) {
    if (placement.layer != "relu") continue;
    CHECK(placement.backend == BackendId("TestValidA"));
    CHECK(placement.reason.find("TestValidB: unavailable: switched off by the application") != std::string::npos);
  }
  runtime->LoadNetwork(std::move(optimized));
  INFO(trace.Text());
  CHECK(trace.Count("workload factory TestValidA in its context") == 1);
  CHECK(trace.Count("workload factory TestValidA without its context") == 0);
}

// ---- 10 ---------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 10: a runtime cannot start with no backends") {
  TestFolder folder;

  SUBCASE("an empty folder: the error says where the runtime looked") {
    try {
      Runtime::Create(OptionsFor({folder.path()}, /*allow_no_backends=*/false));
      FAIL("Runtime::Create with no backends did not throw");
    } catch (const NoBackendsError& error) {
      CHECK(error.code() == ErrorCode::kNoBackends);
      CHECK(Contains(error.what(), folder.path().string()));
      CHECK(error.report().records.empty());
      REQUIRE(error.report().search_paths.size() == 1);
      CHECK(fs::path(error.report().search_paths[0].path) == folder.path());
    }
  }

  SUBCASE("only rejected candidates: the error lists each with its reason") {
    const std::string text_file = LibraryFileName("Test", "Text");
    const std::string major = LibraryFileName("Test", "Major");
    const std::string manifest = ManifestFileName("Test", "Broken");
    folder.WriteFile(text_file, "not a library");
    folder.AddLibrary(test_plugins::api_major, major);
    folder.WriteFile(manifest, "{ not json");
    try {
      Runtime::Create(OptionsFor({folder.path()}, false));
      FAIL("Runtime::Create with only rejected candidates did not throw");
    } catch (const NoBackendsError& error) {
      const std::string what = error.what();
      INFO(what);
      CHECK(error.code() == ErrorCode::kNoBackends);
      CHECK(Contains(what, folder.path().string()));
      for (const auto& name : {text_file, major, manifest}) CHECK(Contains(what, name));
      const DiscoveryReport& report = error.report();
      INFO(Describe(report));
      REQUIRE(report.records.size() == 3);
      CHECK(CodeOf(report, text_file) == "library_invalid");
      CHECK(CodeOf(report, major) == "api_version_incompatible");
      CHECK(CodeOf(report, manifest) == "manifest_invalid_json");
      // Each rejection's reason is in the text: its code name or its own message.
      for (const auto& record : report.records) {
        CHECK((Contains(what, ToString(record.code)) || Contains(what, record.message)));
      }
    }
  }

  SUBCASE("an invalid folder: the error names it") {
    const fs::path missing = folder / "does-not-exist";
    try {
      Runtime::Create(OptionsFor({missing}, false));
      FAIL("Runtime::Create over a missing folder did not throw");
    } catch (const NoBackendsError& error) {
      CHECK(Contains(error.what(), missing.string()));
    }
  }

  SUBCASE("allow_no_backends lets a diagnostic tool start anyway") {
    auto runtime = Runtime::Create(OptionsFor({folder.path()}, /*allow_no_backends=*/true));
    REQUIRE(runtime != nullptr);
    CHECK(runtime->GetBackends().empty());
  }
}

// ---- 11 ---------------------------------------------------------------------------------------

TEST_CASE("spec 000 test 11: several runtimes use the same backends at once, each with its own instances") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");

  auto first = Runtime::Create(OptionsFor({folder.path()}, false));
  auto second = Runtime::Create(OptionsFor({folder.path()}, false));
  REQUIRE(first->HasBackend("TestValidA"));
  REQUIRE(second->HasBackend("TestValidA"));

  backend::IBackendContext* first_context = first->GetBackendContext("TestValidA");
  backend::IBackendContext* second_context = second->GetBackendContext("TestValidA");
  REQUIRE(first_context != nullptr);
  REQUIRE(second_context != nullptr);
  CHECK(first_context != second_context);

  // Each CreateBackend calls the factory: a new instance every time.
  const std::size_t created_before = trace.Count("created TestValidA");
  auto from_first = detail::ImplAccess::CreateBackend(*first, "TestValidA");
  auto from_second = detail::ImplAccess::CreateBackend(*second, "TestValidA");
  CHECK(from_first.get() != from_second.get());
  CHECK(trace.Count("created TestValidA") == created_before + 2);

  // Contexts are per runtime: a network loading in one is unknown to the other.
  CHECK(first_context->BeforeLoadNetwork(5));
  CHECK_FALSE(second_context->AfterLoadNetwork(5));

  // Destroying one runtime leaves the other's backend working and its library loaded.
  from_first.reset();
  first.reset();
  INFO(trace.Text());
  CHECK(trace.Count("context TestValidA destroyed") == 1);
  CHECK(trace.Count("unloaded TestValidA") == 0);
  {
    // Plugin objects: all destroyed before the runtime that loaded the plugin.
    const auto memory = from_second->CreateMemoryManager();
    const auto workloads = from_second->CreateWorkloadFactory(memory, nullptr);
    const auto relu =
        workloads->CreateWorkload(FakeLayer(LayerType::kActivation, "relu", {kVector4}, {kVector4}));
    RecordingFactoryRegistry registry;
    from_second->RegisterTensorHandleFactories(registry);
    auto in = registry.Find("Test/TestValidA/Host")->CreateTensorHandle(kVector4);
    auto out = registry.Find("Test/TestValidA/Host")->CreateTensorHandle(kVector4);
    WriteTensor(*in, {-1.0f, 2.0f, -3.0f, 4.0f});
    const std::vector<backend::ITensorHandle*> inputs{in.get()};
    const std::vector<backend::ITensorHandle*> outputs{out.get()};
    memory->Acquire();
    relu->Execute({inputs, outputs});
    memory->Release();
    CHECK(ReadTensor(*out) == std::vector<float>{0.0f, 2.0f, 0.0f, 4.0f});
    CHECK(second_context->AfterLoadNetwork(5) == false);  // still its own context
  }

  from_second.reset();
  second.reset();
  INFO(trace.Text());
  CHECK(trace.Count("unloaded TestValidA") == 1);
  CHECK(trace.Count("context TestValidA destroyed") == 2);
}

// ---- 12 ---------------------------------------------------------------------------------------
// Spec 000's DynamicBackendUtils (GetBackendPaths, IsPathValid, IsBackendSupported, OpenHandle,
// GetEntryPoint) map to the search-path rules below, IsBackendApiCompatible (sdk tests) and the
// stages of plugin_validation_test.cpp.

TEST_CASE("spec 000 test 12: search folders are validated: absolute, existing, a folder") {
  TestFolder folder;
  folder.AddLibrary(test_plugins::valid_a, LibraryFileName("Test", "ValidA"));
  const fs::path file = folder.WriteFile("plain-file", "x");
  const fs::path missing = folder / "missing";
  const std::string relative = "relative/backends";

  RuntimeOptions options = OptionsFor({folder.path()});
  options.backend_paths = {relative, missing.string(), file.string(), folder.path().string()};
  auto runtime = Runtime::Create(options);
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));

  REQUIRE(report.search_paths.size() == 4);
  for (const auto& path : report.search_paths) CHECK(path.source == "option");
  CHECK(report.search_paths[0].path == relative);
  CHECK_FALSE(report.search_paths[0].valid);
  CHECK_FALSE(report.search_paths[0].reason.empty());
  CHECK(fs::path(report.search_paths[1].path) == missing);
  CHECK_FALSE(report.search_paths[1].valid);
  CHECK_FALSE(report.search_paths[1].reason.empty());
  CHECK(fs::path(report.search_paths[2].path) == file);
  CHECK_FALSE(report.search_paths[2].valid);
  CHECK_FALSE(report.search_paths[2].reason.empty());
  CHECK(fs::path(report.search_paths[3].path) == folder.path());
  CHECK(report.search_paths[3].valid);
  CHECK(report.search_paths[3].reason.empty());
  // The invalid folders were skipped with a warning; the valid one was still scanned.
  CHECK(runtime->HasBackend("TestValidA"));
  const auto* sink = static_cast<CapturingLogSink*>(options.log_sink.get());
  CHECK(sink->Contains(LogLevel::kWarning, LogCategory::kDiscovery, relative));
  CHECK(sink->Contains(LogLevel::kWarning, LogCategory::kDiscovery, missing.string()));
}

TEST_CASE("spec 000 test 12: BACKPLANE_BACKEND_PATHS is used when the options give no folder") {
  TestFolder first;
  TestFolder second;
  first.AddLibrary(test_plugins::valid_a, LibraryFileName("Test", "ValidA"));
  second.AddLibrary(test_plugins::valid_b, LibraryFileName("Test", "ValidB"));
#if defined(_WIN32)
  const char separator = ';';
#else
  const char separator = ':';
#endif
  ScopedEnvironmentVariable paths(kBackendPathsEnvVar,
                                  first.path().string() + separator + second.path().string());

  auto runtime = Runtime::Create(OptionsFor({}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  if (!EnvironmentHonoured()) {  // set-uid, or elevated on Windows: the variable is not read
    for (const auto& path : report.search_paths) {
      CHECK(path.source != "environment");
      CHECK(fs::path(path.path) != first.path());
    }
    return;
  }
  REQUIRE(report.search_paths.size() == 2);
  CHECK(fs::path(report.search_paths[0].path) == first.path());
  CHECK(fs::path(report.search_paths[1].path) == second.path());
  for (const auto& path : report.search_paths) {
    CHECK(path.source == "environment");
    CHECK(path.valid);
  }
  CHECK(runtime->HasBackend("TestValidA"));
  CHECK(runtime->HasBackend("TestValidB"));
}

TEST_CASE("spec 000 test 12: the runtime option replaces BACKPLANE_BACKEND_PATHS") {
  TestFolder from_option;
  TestFolder from_environment;
  from_option.AddLibrary(test_plugins::valid_a, LibraryFileName("Test", "ValidA"));
  from_environment.AddLibrary(test_plugins::valid_b, LibraryFileName("Test", "ValidB"));
  ScopedEnvironmentVariable paths(kBackendPathsEnvVar, from_environment.path().string());

  auto runtime = Runtime::Create(OptionsFor({from_option.path()}));
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  REQUIRE(report.search_paths.size() == 1);
  CHECK(report.search_paths[0].source == "option");
  CHECK(runtime->HasBackend("TestValidA"));
  CHECK_FALSE(runtime->HasBackend("TestValidB"));
}

TEST_CASE("spec 000 test 12: dynamic loading can be switched off entirely") {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA");
  RuntimeOptions options = OptionsFor({folder.path()});
  options.enable_dynamic_backends = false;

  auto runtime = Runtime::Create(options);
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  CHECK_FALSE(report.dynamic_loading_enabled);
  CHECK(report.records.empty());
  CHECK(runtime->GetBackends().empty());
  CHECK(trace.Count("loaded TestValidA") == 0);

  options.allow_no_backends = false;
  CHECK_THROWS_AS(Runtime::Create(options), NoBackendsError);
}

}  // namespace
}  // namespace backplane::unit
