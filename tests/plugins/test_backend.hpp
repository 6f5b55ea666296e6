// The test backend every test plugin variant carries (tests/plugins/CMakeLists.txt). Its code
// (test_backend.cpp) is compiled once; each variant's own translation unit
// (test_plugin_exports.cpp, compiled with that variant's definitions) defines kVariant, which
// says how the backend behaves, and writes the plugin's exports. So a variant costs one small
// compile, not the whole backend's.
//
// A partial backend: Activation with function Relu and ElementwiseBinary with operation Add (f32,
// same shapes); everything else is refused with a reason.
//
// Every variant traces itself to the file named by the environment variable
// BACKPLANE_TEST_PLUGIN_LOG (when set), one line per event, so tests can see from outside what
// happened inside the library:
//   "loaded <id>" / "unloaded <id>"              global constructor / destructor of the library
//   "impostor loaded <id>"                       the same, of a TEST_IMPOSTOR variant
//   "hanging <id> <process id>"                  TEST_HANG_ON_LOAD, before it sleeps forever
//   "created <id>" / "destroyed <id>"            a backend instance
//   "devices <id>" / "availability <id>"         GetDevices / IsAvailable asked
//   "context <id> <Call> <network>"              a backend-context notification
//   "context <id> destroyed"
//   "acquire <id>" / "release <id>"              the memory manager
//   "workload factory <id> in its context" / "... without its context"
//
// Backend options (declared by GetOptionSpecs, read by the backend context):
//   RejectLoadOf=<network id>        BeforeLoadNetwork refuses that network
//   UnavailableBecause=<reason>      IsAvailable with this context says no, with the reason
//   LogOnCreate=<message>            the context writes <message> to the runtime's log channel
//                                    (warning, category plugin) when it is created
//   threads=<count>                  the common option; accepted and ignored
//
// Thread safety: as the Backend API asks of a backend; a workload's Execute and the memory
// manager are not reentrant (the runtime serializes them per network).

#pragma once

#include <backplane/backend/backend.hpp>

#include <cstddef>
#include <cstdint>

#include <memory>
#include <string>
#include <vector>

namespace test_backend {

// How a variant's backend behaves. Holds literals only, so it is constant-initialized: valid
// before any global constructor of the library runs (the load-time misbehaviour reads it).
struct Variant {
  enum class OnLoad { kNothing, kCrash, kHang };           // while the OS loader opens the library
  enum class Construction { kSucceeds, kThrows, kAborts };  // the backend's constructor
  enum class Throw { kNothing, kInt, kStdException };

  const char* id;  // the variant's name: its backend's GetId and every trace and message
  backplane::backend::DeviceKind device_kind;
  bool reference_implementation;  // capability kReferenceImplementation
  OnLoad on_load;                 // kCrash: SIGSEGV (an access violation on Windows)
  Construction construction;      // kThrows: std::runtime_error; kAborts: std::abort()
  Throw layer_support_throws;     // IsLayerSupported throws the int 42 / a std::runtime_error
  bool execute_throws_int;        // Execute throws 42 when its first input starts with 42
  // Placement tests: its own tensor handle factory imports and exports host memory (edges to
  // CpuRef are export_import) unless !imports_and_exports (edges are copies); with
  // shares_host_memory it also takes the runtime's host memory directly (no copy at all).
  bool imports_and_exports;
  bool shares_host_memory;
  bool fuses_add_relu;  // OptimizeSubgraph fuses Add + ReLU into one PreCompiled layer
  // Misbehaviour at the C boundary (issue 41): what the runtime must bound before acting on it.
  std::size_t scratch_bytes;  // every workload's GetScratchSize (0: none)
  std::uint64_t id_bytes;     // the length get_id's BpString claims (0: the id's own length)
  bool execute_exits;         // a workload's Execute calls std::exit(0)
};

// Appends `line` to the trace file (BACKPLANE_TEST_PLUGIN_LOG), when one is named. Never throws.
void Trace(const std::string& line) noexcept;

// Defined by the variant's translation unit (test_plugin_exports.cpp).
extern const Variant kVariant;

// BackendFactory's body for hand-written exports: the SDK's plugin_detail::GuardedFactory of
// `create`. Compiled here, once, because GuardedFactory compiles in the whole C adapter, which
// would otherwise cost every variant most of a backend's compile time.
void* GuardedBackendFactory(backplane::backend::IBackend* (*create)());

class TestBackend final : public backplane::backend::IBackend {
 public:
  TestBackend();  // traces "created"; or throws / aborts as kVariant.construction says
  ~TestBackend() override;

  backplane::BackendId GetId() const override;
  bool IsAvailable(backplane::backend::IBackendContext* context, std::string* reason) const override;
  std::vector<backplane::backend::OptionSpec> GetOptionSpecs() const override;
  std::vector<backplane::backend::DeviceInfo> GetDevices() const override;
  backplane::backend::BackendCapabilities GetCapabilities() const override;
  std::shared_ptr<backplane::backend::ILayerSupport> GetLayerSupport() const override;
  backplane::backend::OptimizationViews OptimizeSubgraph(
      const backplane::backend::SubgraphView& subgraph) const override;
  std::shared_ptr<backplane::backend::IMemoryManager> CreateMemoryManager() const override;
  std::unique_ptr<backplane::backend::IWorkloadFactory> CreateWorkloadFactory(
      const std::shared_ptr<backplane::backend::IMemoryManager>& memory_manager,
      backplane::backend::IBackendContext* context) const override;
  std::unique_ptr<backplane::backend::IBackendContext> CreateBackendContext(
      const backplane::backend::BackendConfig& config) const override;
  void RegisterTensorHandleFactories(backplane::backend::ITensorHandleFactoryRegistry& registry) const override;
  std::vector<backplane::backend::FactoryId> GetHandleFactoryPreferences() const override;
};

}  // namespace test_backend
