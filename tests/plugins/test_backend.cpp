// The test backend's code, compiled once and linked into every test plugin variant
// (test_backend.hpp says what it does and traces; kVariant, defined by the variant, says how it
// behaves).

#include "test_backend.hpp"

#include <backplane/backend/op_table.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>
#include <backplane/plugin.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#if defined(_WIN32)
#include <process.h>  // _getpid
#else
#include <unistd.h>  // getpid
#endif

namespace test_backend {

using namespace backplane;
using namespace backplane::backend;

constexpr const char* kLogEnvVar = "BACKPLANE_TEST_PLUGIN_LOG";

// Appends one line to the trace file. Opens and closes the file each time so that lines
// written from global destructors (at dlclose) are never lost. Never throws.
void Trace(const std::string& line) noexcept {
  const char* path = std::getenv(kLogEnvVar);
  if (path == nullptr || *path == '\0') return;
  if (std::FILE* file = std::fopen(path, "a")) {
    std::fputs(line.c_str(), file);
    std::fputc('\n', file);
    std::fclose(file);
  }
}

// Decimal text of `value`. (Not std::to_string: with GCC its tables are STB_GNU_UNIQUE
// symbols, and one such symbol makes glibc keep the library loaded after dlclose, which would
// defeat the "unloaded" trace. For the same reason nothing here uses std::make_shared.)
std::string Decimal(std::uint64_t value) {
  char digits[24];
  std::size_t length = 0;
  do {
    digits[length++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  return std::string(std::make_reverse_iterator(digits + length), std::make_reverse_iterator(digits));
}

// One per library: proves when the OS loader really maps and unmaps it.
struct LibraryTracer {
  LibraryTracer() { Trace(std::string("loaded ") + kVariant.id); }
  ~LibraryTracer() { Trace(std::string("unloaded ") + kVariant.id); }
  LibraryTracer(const LibraryTracer&) = delete;
  LibraryTracer& operator=(const LibraryTracer&) = delete;
};
const LibraryTracer library_tracer;

// Misbehaves, as kVariant.on_load says, while the OS loader runs the library's global
// constructors.
struct MisbehaveOnLoad {
  MisbehaveOnLoad() {
    if (kVariant.on_load == Variant::OnLoad::kCrash) {
#if defined(_WIN32)
      // raise(SIGSEGV) only exits with status 3 there; a real crash is an access violation.
      volatile std::uintptr_t address = 16;  // not a constant: the compiler cannot see the fault
      *reinterpret_cast<volatile int*>(address) = 1;
#else
      std::raise(SIGSEGV);
#endif
    }
    if (kVariant.on_load == Variant::OnLoad::kHang) {
#if defined(_WIN32)
      Trace(std::string("hanging ") + kVariant.id + " " + Decimal(static_cast<std::uint64_t>(::_getpid())));
#else
      Trace(std::string("hanging ") + kVariant.id + " " + Decimal(static_cast<std::uint64_t>(::getpid())));
#endif
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
    }
  }
};
const MisbehaveOnLoad misbehave_on_load;

// ---- Layer support ---------------------------------------------------------------------------

// Names of the descriptor values this backend refuses, for its reasons.
const char* BinaryOperationName(BinaryOperation operation) {
  switch (operation) {
    case BinaryOperation::kAdd: return "Add";
    case BinaryOperation::kSub: return "Sub";
    case BinaryOperation::kMul: return "Mul";
    case BinaryOperation::kDiv: return "Div";
    case BinaryOperation::kMax: return "Max";
    case BinaryOperation::kMin: return "Min";
    case BinaryOperation::kPow: return "Pow";
    case BinaryOperation::kEqual: return "Equal";
    case BinaryOperation::kLess: return "Less";
    case BinaryOperation::kLessOrEqual: return "LessOrEqual";
    case BinaryOperation::kGreater: return "Greater";
    case BinaryOperation::kGreaterOrEqual: return "GreaterOrEqual";
    case BinaryOperation::kAnd: return "And";
    case BinaryOperation::kOr: return "Or";
    case BinaryOperation::kXor: return "Xor";
    case BinaryOperation::kMod: return "Mod";
    case BinaryOperation::kFmod: return "Fmod";
    case BinaryOperation::kBitShiftLeft: return "BitShiftLeft";
    case BinaryOperation::kBitShiftRight: return "BitShiftRight";
  }
  return "unknown";
}

const char* ActivationFunctionName(ActivationFunction function) {
  switch (function) {
    case ActivationFunction::kRelu: return "Relu";
    case ActivationFunction::kClip: return "Clip";
    case ActivationFunction::kSigmoid: return "Sigmoid";
    case ActivationFunction::kTanh: return "Tanh";
    case ActivationFunction::kGelu: return "Gelu";
    case ActivationFunction::kGeluTanh: return "GeluTanh";
    case ActivationFunction::kLeakyRelu: return "LeakyRelu";
    case ActivationFunction::kHardSwish: return "HardSwish";
    case ActivationFunction::kSilu: return "Silu";
    case ActivationFunction::kHardSigmoid: return "HardSigmoid";
    case ActivationFunction::kElu: return "Elu";
    case ActivationFunction::kSelu: return "Selu";
    case ActivationFunction::kCelu: return "Celu";
    case ActivationFunction::kSoftplus: return "Softplus";
    case ActivationFunction::kSoftsign: return "Softsign";
    case ActivationFunction::kThresholdedRelu: return "ThresholdedRelu";
    case ActivationFunction::kMish: return "Mish";
  }
  return "unknown";
}

// One f32 output of the inputs' shape; `inputs` f32 inputs of one shape (no broadcasting).
bool SameShapeF32(const ILayerView& layer, std::size_t inputs, std::string& why) {
  if (layer.GetNumInputs() != inputs || layer.GetNumOutputs() != 1) {
    why = "expected " + Decimal(inputs) + " input(s) and 1 output, got " + Decimal(layer.GetNumInputs()) + " and " +
          Decimal(layer.GetNumOutputs());
    return false;
  }
  for (std::size_t i = 0; i < inputs; ++i) {
    const TensorInfo& input = layer.GetInputInfo(i);
    if (input.type != DataType::kFloat32) {
      why = std::string("data type ") + ToString(input.type) + " is not supported (only f32)";
      return false;
    }
  }
  if (inputs == 2 && layer.GetInputInfo(0).shape != layer.GetInputInfo(1).shape) {
    why = "broadcasting is not supported: input shapes " + ToString(layer.GetInputInfo(0).shape) + " and " +
          ToString(layer.GetInputInfo(1).shape) + " differ";
    return false;
  }
  const TensorInfo& output = layer.GetOutputInfo(0);
  if (output.type != DataType::kFloat32) {
    why = std::string("data type ") + ToString(output.type) + " is not supported (only f32)";
    return false;
  }
  if (layer.GetInputInfo(0).shape != output.shape) {
    why = "input shape " + ToString(layer.GetInputInfo(0).shape) + " differs from output shape " +
          ToString(output.shape);
    return false;
  }
  return true;
}

bool IsReluSupported(const ILayerView& layer, std::string& why) {
  const auto function = static_cast<const ActivationDescriptor&>(*layer.GetDescriptor()).function;
  if (function != ActivationFunction::kRelu) {
    why = std::string("activation function ") + ActivationFunctionName(function) + " is not supported (only Relu)";
    return false;
  }
  return SameShapeF32(layer, 1, why);
}

bool IsAddSupported(const ILayerView& layer, std::string& why) {
  const auto operation = static_cast<const ElementwiseBinaryDescriptor&>(*layer.GetDescriptor()).operation;
  if (operation != BinaryOperation::kAdd) {
    why = std::string("operation ") + BinaryOperationName(operation) + " is not supported (only Add)";
    return false;
  }
  return SameShapeF32(layer, 2, why);
}

// A partial backend: Activation with function Relu (one f32 input), and ElementwiseBinary with
// operation Add (two f32 inputs of the same shape: no broadcasting); one output of the input's
// shape. Everything else is refused with a reason naming what is not supported. The workload
// factory picks the workload by type.
struct TestOp {
  LayerType type;
  bool (*is_supported)(const ILayerView& layer, std::string& why);
};
const std::array<TestOp, 2> kOps{{
    {LayerType::kActivation, IsReluSupported},
    {LayerType::kElementwiseBinary, IsAddSupported},
}};
const OpTable<TestOp>& Ops() {
  static const OpTable<TestOp> table(kVariant.id, kOps);
  return table;
}

// The op table's answer, or (variants) a layer support that throws.
class TestLayerSupport final : public ILayerSupport {
 public:
  bool IsLayerSupported(const ILayerView& layer, std::string* reason) const override {
    switch (kVariant.layer_support_throws) {
      case Variant::Throw::kNothing: break;
      case Variant::Throw::kInt: throw 42;
      case Variant::Throw::kStdException:
        throw std::runtime_error(std::string(kVariant.id) + " layer support failed on '" + layer.GetName() +
                                 "': deliberate test failure");
    }
    return table_.IsLayerSupported(layer, reason);
  }

 private:
  OpTableLayerSupport<TestOp> table_{Ops()};
};

// ---- Memory ----------------------------------------------------------------------------------

// Counts Acquire/Release; workloads refuse to run while nothing is acquired.
class TestMemoryManager final : public IMemoryManager {
 public:
  void Acquire() override {
    ++acquired_;
    Trace(std::string("acquire ") + kVariant.id);
  }
  void Release() override {
    if (acquired_ == 0) {
      throw Exception(ErrorCode::kInternal,
                      std::string(kVariant.id) + " memory manager: Release without a matching Acquire");
    }
    --acquired_;
    Trace(std::string("release ") + kVariant.id);
  }
  bool IsAcquired() const { return acquired_ > 0; }

 private:
  int acquired_ = 0;
};

// Host memory for one tensor: its own block or imported host memory.
class HostTensorHandle final : public ITensorHandle {
 public:
  explicit HostTensorHandle(const TensorInfo& info) : info_(info) {
    const std::size_t bytes = std::max<std::size_t>(info_.NumBytes(), 1);
    owned_ = ::operator new(bytes, std::align_val_t{kAlignment}, std::nothrow);
    if (owned_ == nullptr) {
      throw Exception(ErrorCode::kBackendFailure, std::string(kVariant.id) + ": cannot allocate " +
                                                      Decimal(bytes) + " bytes for a tensor");
    }
  }
  ~HostTensorHandle() override { ::operator delete(owned_, std::align_val_t{kAlignment}); }
  HostTensorHandle(const HostTensorHandle&) = delete;
  HostTensorHandle& operator=(const HostTensorHandle&) = delete;

  const TensorInfo& GetInfo() const override { return info_; }
  void* Map() override {
    ++mapped_;
    return imported_ != nullptr ? imported_ : owned_;
  }
  void Unmap() override {
    if (mapped_ == 0) {
      throw Exception(ErrorCode::kInvalidArgument, std::string(kVariant.id) + ": Unmap without Map");
    }
    --mapped_;
  }
  bool Import(void* memory, MemorySource source) override {
    if (!kVariant.imports_and_exports) return false;  // as its factory's properties say
    if (memory == nullptr || source != MemorySource::kHost) return false;
    if (reinterpret_cast<std::uintptr_t>(memory) % alignof(float) != 0) return false;
    imported_ = memory;
    return true;
  }

 private:
  static constexpr std::size_t kAlignment = 64;
  TensorInfo info_;
  void* owned_ = nullptr;
  void* imported_ = nullptr;
  int mapped_ = 0;
};

std::string HostFactoryId() { return std::string("Test/") + kVariant.id + "/Host"; }

class HostTensorHandleFactory final : public ITensorHandleFactory {
 public:
  HostTensorHandleFactory() : id_(HostFactoryId()) {}
  const FactoryId& GetId() const override { return id_; }
  TensorHandleFactoryProperties GetProperties() const override {
    TensorHandleFactoryProperties properties;
    properties.supports_map_unmap = true;
    if (kVariant.imports_and_exports) {
      properties.import_sources = static_cast<MemorySourceFlags>(MemorySource::kHost);
      properties.export_sources = static_cast<MemorySourceFlags>(MemorySource::kHost);
    }
    return properties;
  }
  std::unique_ptr<ITensorHandle> CreateTensorHandle(const TensorInfo& info) const override {
    return std::make_unique<HostTensorHandle>(info);
  }

 private:
  FactoryId id_;
};

// ---- Workloads -------------------------------------------------------------------------------

// Maps a handle for the duration of a scope.
class MappedTensor {
 public:
  explicit MappedTensor(ITensorHandle* handle) : handle_(handle) {
    data_ = static_cast<float*>(handle_->Map());
  }
  ~MappedTensor() { handle_->Unmap(); }
  MappedTensor(const MappedTensor&) = delete;
  MappedTensor& operator=(const MappedTensor&) = delete;
  float* data() const { return data_; }

 private:
  ITensorHandle* handle_;
  float* data_;
};

class ElementwiseWorkload : public IWorkload {
 public:
  ElementwiseWorkload(std::string layer_name, std::size_t num_inputs, TensorInfo output,
                      std::shared_ptr<TestMemoryManager> memory)
      : layer_name_(std::move(layer_name)),
        num_inputs_(num_inputs),
        output_(std::move(output)),
        memory_(std::move(memory)) {}

  void Execute(const WorkloadArgs& args) const override {
    if (memory_ && !memory_->IsAcquired()) {
      throw Exception(ErrorCode::kBackendFailure,
                      std::string(kVariant.id) + " layer '" + layer_name_ +
                          "': executed before its memory manager was acquired");
    }
    if (args.inputs.size() != num_inputs_ || args.outputs.size() != 1) {
      throw Exception(ErrorCode::kInvalidArgument,
                      std::string(kVariant.id) + " layer '" + layer_name_ + "': expected " +
                          Decimal(num_inputs_) + " input(s) and 1 output, got " +
                          Decimal(args.inputs.size()) + " and " +
                          Decimal(args.outputs.size()));
    }
    for (ITensorHandle* handle : args.inputs) CheckHandle(handle);
    CheckHandle(args.outputs[0]);
    const auto count = static_cast<std::size_t>(output_.shape.NumElements());
    if (kVariant.execute_throws_int && count > 0 && MappedTensor(args.inputs[0]).data()[0] == 42.0f) throw 42;
    if (kVariant.execute_exits) std::exit(0);
    Compute(args, count);
  }
  std::size_t GetScratchSize() const override { return kVariant.scratch_bytes; }

 protected:
  virtual void Compute(const WorkloadArgs& args, std::size_t count) const = 0;

 private:
  void CheckHandle(ITensorHandle* handle) const {
    if (handle == nullptr || handle->GetInfo() != output_) {
      throw Exception(ErrorCode::kInvalidArgument,
                      std::string(kVariant.id) + " layer '" + layer_name_ + "': a tensor is missing or is not " +
                          ToString(output_.shape) + " f32");
    }
  }

  std::string layer_name_;
  std::size_t num_inputs_;
  TensorInfo output_;
  std::shared_ptr<TestMemoryManager> memory_;
};

class ReluWorkload final : public ElementwiseWorkload {
 public:
  using ElementwiseWorkload::ElementwiseWorkload;

 private:
  void Compute(const WorkloadArgs& args, std::size_t count) const override {
    MappedTensor in(args.inputs[0]);
    MappedTensor out(args.outputs[0]);
    for (std::size_t i = 0; i < count; ++i) out.data()[i] = std::max(in.data()[i], 0.0f);
  }
};

class AddWorkload final : public ElementwiseWorkload {
 public:
  using ElementwiseWorkload::ElementwiseWorkload;

 private:
  void Compute(const WorkloadArgs& args, std::size_t count) const override {
    MappedTensor a(args.inputs[0]);
    MappedTensor b(args.inputs[1]);
    MappedTensor out(args.outputs[0]);
    for (std::size_t i = 0; i < count; ++i) out.data()[i] = a.data()[i] + b.data()[i];
  }
};

// The descriptor of the PreCompiled layer OptimizeSubgraph makes from an Add and the ReLU
// that reads it (kVariant.fuses_add_relu). Inputs of that layer (Substitute in the runtime's
// optimizer): the Add's inputs, once each (one when both are the same tensor). Outputs: the
// ReLU's, preceded by the Add's when a layer outside the pair reads the Add too.
struct FusedAddReluDescriptor final : LayerDescriptor {
  std::string add;
  std::string relu;
};

// relu(a + b) in one pass, and a + b too when the Add's result is an output of the fused layer.
class FusedAddReluWorkload final : public IWorkload {
 public:
  FusedAddReluWorkload(std::string layer_name, std::size_t num_inputs, std::size_t num_outputs,
                       TensorInfo info, std::shared_ptr<TestMemoryManager> memory)
      : layer_name_(std::move(layer_name)),
        num_inputs_(num_inputs),
        num_outputs_(num_outputs),
        info_(std::move(info)),
        memory_(std::move(memory)) {}

  void Execute(const WorkloadArgs& args) const override {
    if (memory_ && !memory_->IsAcquired()) {
      throw Exception(ErrorCode::kBackendFailure,
                      std::string(kVariant.id) + " layer '" + layer_name_ +
                          "': executed before its memory manager was acquired");
    }
    if (args.inputs.size() != num_inputs_ || args.outputs.size() != num_outputs_) {
      throw Exception(ErrorCode::kInvalidArgument,
                      std::string(kVariant.id) + " layer '" + layer_name_ + "': expected " +
                          Decimal(num_inputs_) + " input(s) and " + Decimal(num_outputs_) +
                          " output(s), got " + Decimal(args.inputs.size()) + " and " +
                          Decimal(args.outputs.size()));
    }
    for (ITensorHandle* handle : args.inputs) CheckHandle(handle);
    for (ITensorHandle* handle : args.outputs) CheckHandle(handle);
    const auto count = static_cast<std::size_t>(info_.shape.NumElements());
    MappedTensor a(args.inputs[0]);
    MappedTensor b(args.inputs[num_inputs_ - 1]);
    MappedTensor out(args.outputs[num_outputs_ - 1]);
    if (num_outputs_ == 2) {
      MappedTensor sum(args.outputs[0]);
      for (std::size_t i = 0; i < count; ++i) {
        sum.data()[i] = a.data()[i] + b.data()[i];
        out.data()[i] = std::max(sum.data()[i], 0.0f);
      }
      return;
    }
    for (std::size_t i = 0; i < count; ++i) out.data()[i] = std::max(a.data()[i] + b.data()[i], 0.0f);
  }

 private:
  void CheckHandle(ITensorHandle* handle) const {
    if (handle == nullptr || handle->GetInfo() != info_) {
      throw Exception(ErrorCode::kInvalidArgument,
                      std::string(kVariant.id) + " layer '" + layer_name_ + "': a tensor is missing or is not " +
                          ToString(info_.shape) + " f32");
    }
  }

  std::string layer_name_;
  std::size_t num_inputs_;
  std::size_t num_outputs_;
  TensorInfo info_;
  std::shared_ptr<TestMemoryManager> memory_;
};

class TestWorkloadFactory final : public IWorkloadFactory {
 public:
  explicit TestWorkloadFactory(std::shared_ptr<TestMemoryManager> memory)
      : memory_(std::move(memory)) {}

  std::unique_ptr<IWorkload> CreateWorkload(const ILayerView& layer) override {
    if (layer.GetType() == LayerType::kPreCompiled) return CreateFused(layer);
    Ops().SupportingOrThrow(layer);
    const TensorInfo& output = layer.GetOutputInfo(0);
    if (layer.GetType() == LayerType::kActivation) {
      return std::make_unique<ReluWorkload>(layer.GetName(), 1, output, memory_);
    }
    return std::make_unique<AddWorkload>(layer.GetName(), 2, output, memory_);
  }

 private:
  std::unique_ptr<IWorkload> CreateFused(const ILayerView& layer) {
    const auto* fused = dynamic_cast<const FusedAddReluDescriptor*>(layer.GetDescriptor());
    if (fused == nullptr) {
      throw Exception(ErrorCode::kUnsupported, std::string(kVariant.id) + " cannot run layer '" +
                                                   layer.GetName() +
                                                   "': a PreCompiled layer this backend did not make");
    }
    const std::size_t inputs = layer.GetNumInputs();
    const std::size_t outputs = layer.GetNumOutputs();
    if (inputs < 1 || inputs > 2 || outputs < 1 || outputs > 2) {
      throw Exception(ErrorCode::kUnsupported,
                      std::string(kVariant.id) + " cannot run layer '" + layer.GetName() + "' (fused from " +
                          fused->add + " and " + fused->relu + "): expected 1-2 inputs and 1-2 outputs, got " +
                          Decimal(inputs) + " and " + Decimal(outputs));
    }
    const TensorInfo& info = layer.GetOutputInfo(outputs - 1);
    for (std::size_t i = 0; i < inputs; ++i) {
      if (layer.GetInputInfo(i) != info) {
        throw Exception(ErrorCode::kUnsupported, std::string(kVariant.id) + " cannot run layer '" +
                                                     layer.GetName() + "': its tensors differ in shape or type");
      }
    }
    return std::make_unique<FusedAddReluWorkload>(layer.GetName(), inputs, outputs, info, memory_);
  }

  std::shared_ptr<TestMemoryManager> memory_;
};

// ---- Backend context -------------------------------------------------------------------------

// Traces every notification and checks that each network goes through
// BeforeLoad -> AfterLoad -> BeforeUnload -> AfterUnload; a call out of order returns false.
// Backend option "RejectLoadOf" = "<network id>" makes BeforeLoadNetwork refuse that network;
// "UnavailableBecause" = "<reason>" makes the backend unavailable in this runtime
// (IBackend::IsAvailable with this context); "LogOnCreate" = "<message>" is written to the
// runtime's log channel as a warning of category plugin.
class TestBackendContext final : public IBackendContext {
 public:
  explicit TestBackendContext(const BackendConfig& config) {
    const BackendOptions& options = config.options;
    if (auto it = options.find("RejectLoadOf"); it != options.end()) reject_load_of_ = it->second;
    if (auto it = options.find("UnavailableBecause"); it != options.end()) unavailable_because_ = it->second;
    if (auto it = options.find("LogOnCreate"); it != options.end() && config.log &&
                                               config.log->IsEnabled(LogLevel::kWarning, LogCategory::kPlugin)) {
      config.log->Write(LogLevel::kWarning, LogCategory::kPlugin, it->second);
    }
  }
  const std::string& UnavailableBecause() const { return unavailable_because_; }
  ~TestBackendContext() override { Trace(std::string("context ") + kVariant.id + " destroyed"); }

  bool BeforeLoadNetwork(NetworkId network) override {
    Note("BeforeLoadNetwork", network);
    if (Decimal(network) == reject_load_of_) return false;
    return Advance(network, State::kNone, State::kLoading);
  }
  bool AfterLoadNetwork(NetworkId network) override {
    Note("AfterLoadNetwork", network);
    return Advance(network, State::kLoading, State::kLoaded);
  }
  bool BeforeUnloadNetwork(NetworkId network) override {
    Note("BeforeUnloadNetwork", network);
    return Advance(network, State::kLoaded, State::kUnloading);
  }
  bool AfterUnloadNetwork(NetworkId network) override {
    Note("AfterUnloadNetwork", network);
    return Advance(network, State::kUnloading, State::kNone);
  }

 private:
  enum class State { kNone, kLoading, kLoaded, kUnloading };

  static void Note(const char* call, NetworkId network) {
    Trace(std::string("context ") + kVariant.id + " " + call + " " + Decimal(network));
  }
  bool Advance(NetworkId network, State from, State to) {
    auto it = states_.find(network);
    const State current = it == states_.end() ? State::kNone : it->second;
    if (current != from) return false;
    if (to == State::kNone) {
      states_.erase(network);
    } else {
      states_[network] = to;
    }
    return true;
  }

  std::string reject_load_of_;
  std::string unavailable_because_;
  std::map<NetworkId, State> states_;
};

// ---- The backend -----------------------------------------------------------------------------

TestBackend::TestBackend() {
  if (kVariant.construction == Variant::Construction::kAborts) std::abort();
  if (kVariant.construction == Variant::Construction::kThrows) {
    throw std::runtime_error(std::string(kVariant.id) + " constructor failed: deliberate test failure 0xBADC0DE");
  }
  Trace(std::string("created ") + kVariant.id);
}

TestBackend::~TestBackend() { Trace(std::string("destroyed ") + kVariant.id); }

// get_id as kVariant.id_bytes says: the id's bytes, with a length claiming far more.
BpString OverlongId(const BpBackend*) noexcept { return {kVariant.id, static_cast<std::size_t>(kVariant.id_bytes)}; }

void* GuardedBackendFactory(IBackend* (*create)()) {
  auto* backend = static_cast<BpBackend*>(plugin_detail::GuardedFactory(create));
  if (backend != nullptr && kVariant.id_bytes != 0) {
    // The adapter's table with get_id replaced; the object keeps pointing at a table of this library.
    static const BpBackendTable table = [&] {
      BpBackendTable copy = *backend->table;
      copy.get_id = &OverlongId;
      return copy;
    }();
    backend->table = &table;
  }
  return backend;
}

BackendId TestBackend::GetId() const { return kVariant.id; }

// Available, unless this runtime's context was given UnavailableBecause.
bool TestBackend::IsAvailable(IBackendContext* context, std::string* reason) const {
  Trace(std::string("availability ") + kVariant.id);
  const auto* ours = dynamic_cast<const TestBackendContext*>(context);
  if (ours && !ours->UnavailableBecause().empty()) {
    if (reason) *reason = ours->UnavailableBecause();
    return false;
  }
  if (reason) reason->clear();
  return true;
}

std::vector<OptionSpec> TestBackend::GetOptionSpecs() const {
  return {
      {"RejectLoadOf", OptionSpec::Type::kInteger, "0", "BeforeLoadNetwork refuses the network of this id (0: none)"},
      {"UnavailableBecause", OptionSpec::Type::kString, "", "unavailable in this runtime, with this reason"},
      {"LogOnCreate", OptionSpec::Type::kString, "", "written to the runtime's log when the context is made"},
      {"threads", OptionSpec::Type::kInteger, "1", "the common option; ignored"},
  };
}

std::vector<DeviceInfo> TestBackend::GetDevices() const {
  Trace(std::string("devices ") + kVariant.id);
  return {DeviceInfo{std::string("Test host CPU (") + kVariant.id + ")", kVariant.device_kind, true, ""}};
}

BackendCapabilities TestBackend::GetCapabilities() const {
  BackendCapabilities capabilities;
  capabilities.device_kind = kVariant.device_kind;
  capabilities.data_types = {DataType::kFloat32};
  capabilities.layer_types = Ops().LayerTypes();
  capabilities.values = {{"ProtectedContentAllocation", false}, {"TestCapability", true}};
  if (kVariant.reference_implementation) capabilities.values[kReferenceImplementation] = true;
  return capabilities;
}

std::shared_ptr<ILayerSupport> TestBackend::GetLayerSupport() const {
  return std::shared_ptr<ILayerSupport>(new TestLayerSupport());
}

// Runs of supported layers are kept untouched; each unsupported layer is handed back as failed
// so the optimizer can place it elsewhere. With kVariant.fuses_add_relu, an Add directly followed
// by a ReLU of the same shape becomes one PreCompiled layer "<add>+<relu>". (SubgraphView does
// not say which layer reads which, so this assumes that ReLU reads that Add, as it does in the
// networks the tests build.)
OptimizationViews TestBackend::OptimizeSubgraph(const SubgraphView& subgraph) const {
  OptimizationViews views;
  SubgraphView run;
  for (std::size_t i = 0; i < subgraph.layers.size(); ++i) {
    const ILayerView* layer = subgraph.layers[i];
    std::string reason;
    const ILayerView* next = i + 1 < subgraph.layers.size() ? subgraph.layers[i + 1] : nullptr;
    if (kVariant.fuses_add_relu && layer != nullptr && next != nullptr &&
        layer->GetType() == LayerType::kElementwiseBinary && next->GetType() == LayerType::kActivation &&
        Ops().Supporting(*layer, reason) && Ops().Supporting(*next, reason) &&
        layer->GetOutputInfo(0) == next->GetInputInfo(0)) {
      auto* descriptor = new FusedAddReluDescriptor();
      descriptor->add = layer->GetName();
      descriptor->relu = next->GetName();
      Substitution substitution;
      substitution.replaced.layers = {layer, next};
      substitution.name = layer->GetName() + "+" + next->GetName();
      substitution.descriptor = std::shared_ptr<const LayerDescriptor>(descriptor);
      views.substitutions.push_back(std::move(substitution));
      ++i;
      continue;
    }
    if (layer != nullptr && Ops().Supporting(*layer, reason)) {
      run.layers.push_back(layer);
      continue;
    }
    if (!run.layers.empty()) views.untouched.push_back(std::move(run));
    run = SubgraphView{};
    views.failed.push_back(SubgraphView{{layer}});
  }
  if (!run.layers.empty()) views.untouched.push_back(std::move(run));
  return views;
}

std::shared_ptr<IMemoryManager> TestBackend::CreateMemoryManager() const {
  return std::shared_ptr<IMemoryManager>(new TestMemoryManager());
}

// Traces whether the runtime handed over this backend's own context. Another backend's manager
// (or none) is allowed; then nothing needs acquiring.
std::unique_ptr<IWorkloadFactory> TestBackend::CreateWorkloadFactory(
    const std::shared_ptr<IMemoryManager>& memory_manager, IBackendContext* context) const {
  Trace(std::string("workload factory ") + kVariant.id +
        (dynamic_cast<TestBackendContext*>(context) ? " in its context" : " without its context"));
  return std::make_unique<TestWorkloadFactory>(std::dynamic_pointer_cast<TestMemoryManager>(memory_manager));
}

std::unique_ptr<IBackendContext> TestBackend::CreateBackendContext(const BackendConfig& config) const {
  return std::make_unique<TestBackendContext>(config);
}

void TestBackend::RegisterTensorHandleFactories(ITensorHandleFactoryRegistry& registry) const {
  registry.RegisterFactory(std::make_unique<HostTensorHandleFactory>());
}

// Its own factory first; with kVariant.shares_host_memory also the runtime's host memory, which
// this backend can read and write directly (so edges to other host backends need no copy).
std::vector<FactoryId> TestBackend::GetHandleFactoryPreferences() const {
  if (kVariant.shares_host_memory) return {HostFactoryId(), kHostFactoryId};
  return {HostFactoryId()};
}

}  // namespace test_backend
