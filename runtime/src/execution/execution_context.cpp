// The per-run state of one loaded network (spec 004): arena, scratch, handles, bindings.
#include "execution/compiled_network.hpp"
#include "execution/mapped_handle.hpp"
#include "graph/host_tensor.hpp"
#include "loading/plugin_call.hpp"
#include "log.hpp"

#include <backplane/exception.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstring>
#include <mutex>

namespace backplane {

ExecutionContext::~ExecutionContext() = default;

void WriteChromeTrace(const std::vector<ProfileEvent>& events, std::ostream& out) {
  // nlohmann_json escapes names and replaces bytes that are not UTF-8 with U+FFFD, so any layer
  // name gives a valid document.
  out << "{\"traceEvents\":[";
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto& e = events[i];
    const nlohmann::ordered_json event = {{"name", e.layer},
                                          {"cat", e.backend.IsEmpty() ? "runtime" : e.backend.Get()},
                                          {"ph", "X"},
                                          {"ts", e.start_us},
                                          {"dur", e.duration_us},
                                          {"pid", 1},
                                          {"tid", 1}};
    out << (i ? ",\n" : "\n") << event.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  }
  out << "\n],\"displayTimeUnit\":\"ms\"}\n";
}

}  // namespace backplane

namespace backplane::execution {

namespace {

class Context final : public ExecutionContext {
 public:
  Context(std::shared_ptr<CompiledNetwork> network, const ExecutionOptions& options)
      : network_(std::move(network)), options_(options) {
    std::shared_lock<std::shared_mutex> lock(network_->LifetimeMutex());
    if (network_->IsUnloaded()) Unloaded();
    arena_ = graph::AlignedBuffer(network_->ArenaSize());
    scratch_ = graph::AlignedBuffer(network_->ScratchSize());
    auto* arena = static_cast<std::uint8_t*>(arena_.data());
    const auto& tensors = network_->Tensors();
    handles_.reserve(tensors.size());
    bound_.assign(tensors.size(), nullptr);
    for (std::size_t t = 0; t < tensors.size(); ++t) {
      const TensorSlot& slot = tensors[t];
      switch (slot.kind) {
        case TensorSlot::Kind::kArena:
          handles_.push_back(std::make_unique<backend::HostTensorHandle>(
              slot.info, slot.offset == SIZE_MAX ? nullptr : arena + slot.offset));
          break;
        case TensorSlot::Kind::kConstant:
          handles_.push_back(std::make_unique<backend::HostTensorHandle>(slot.info, const_cast<void*>(slot.constant)));
          break;
        case TensorSlot::Kind::kInput:
        case TensorSlot::Kind::kOutput: {
          auto handle = std::make_unique<backend::HostTensorHandle>(slot.info, nullptr);
          bound_[t] = handle.get();
          handles_.push_back(std::move(handle));
          break;
        }
        case TensorSlot::Kind::kDevice:
          try {
            handles_.push_back(slot.factory->CreateTensorHandle(slot.info));
          } catch (...) {
            const loading::PluginFailure failure = loading::CurrentPluginFailure();
            throw Exception(failure.code, "network " + std::to_string(network_->GetId()) +
                                              ": tensor-handle factory " + slot.factory->GetId() +
                                              " threw " + (failure.standard ? "from CreateTensorHandle: " + failure.what
                                                                            : "a non-standard exception from CreateTensorHandle"));
          }
          if (!handles_.back()) {
            throw Exception(ErrorCode::kBackendFailure, "network " + std::to_string(network_->GetId()) +
                                                            ": tensor-handle factory " + slot.factory->GetId() +
                                                            " returned a null handle");
          }
          break;
      }
    }
    for (const Step& step : network_->Steps()) {
      std::vector<backend::ITensorHandle*> inputs, outputs;
      for (auto t : step.inputs) inputs.push_back(handles_[t].get());
      for (auto t : step.outputs) outputs.push_back(handles_[t].get());
      step_inputs_.push_back(std::move(inputs));
      step_outputs_.push_back(std::move(outputs));
      if (options_.profiling) {
        ProfiledStep described{step.layer, step.backend, step.op, {}, {}};
        for (auto t : step.inputs) described.inputs.push_back(tensors[t].info);
        for (auto t : step.outputs) described.outputs.push_back(tensors[t].info);
        profiled_steps_.push_back(std::move(described));
        profiled_step_details_.push_back({step.flops, step.info.implementation, step.info.slow_path, step.load_ms});
      }
    }
  }

  void Run(const std::vector<InputBinding>& inputs, const std::vector<OutputBinding>& outputs) override {
    if (network_->IsUnloaded()) Unloaded();
    std::shared_lock<std::shared_mutex> lock(network_->LifetimeMutex());
    if (network_->IsUnloaded()) Unloaded();
    const NetworkSignature& signature = network_->GetSignature();
    Bind(signature.inputs, network_->InputTensors(), inputs, "input");
    Bind(signature.outputs, network_->OutputTensors(), outputs, "output");

    const auto& steps = network_->Steps();
    // The producers' handles mapped for kImport steps; unmapped when Run returns or throws.
    std::vector<MappedHandle> imported;
    // profile_ keeps its events (and their strings' storage) from run to run: each run
    // overwrites them and trims the rest, so a steady-state profiled run does not allocate.
    std::size_t recorded = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const Step& step = steps[s];
      const auto begin = options_.profiling ? std::chrono::steady_clock::now() : start;
      try {
        switch (step.kind) {
          case Step::Kind::kWorkload:
            step.workload->Execute({step_inputs_[s], step_outputs_[s], scratch_.data()});
            break;
          case Step::Kind::kCopy: {
            backend::ITensorHandle& from = *step_inputs_[s][0];
            CopyThroughHost(from, *step_outputs_[s][0], from.GetInfo().NumBytes());
            break;
          }
          case Step::Kind::kImport: {
            // The consumer reads the producer's memory for the rest of the run: mapped until
            // Run returns or throws (`imported`).
            imported.emplace_back(*step_inputs_[s][0]);
            if (!step_outputs_[s][0]->Import(imported.back().data(), backend::MemorySource::kHost)) {
              throw Exception(ErrorCode::kBackendFailure, "the consumer's tensor handle refused to import the memory");
            }
            break;
          }
        }
      } catch (...) {
        // Anything a workload or a tensor handle throws: the run fails with an Exception, and
        // the context stays usable (the next Run binds and runs every step again).
        const loading::PluginFailure failure = loading::CurrentPluginFailure();
        const std::string what = failure.standard
                                     ? failure.what
                                     : loading::DescribePluginFailure(failure, step.backend, "Execute", step.layer);
        Exception error(failure.code, "network " + std::to_string(network_->GetId()) + ", layer '" + step.layer +
                                          "'" + (step.backend.IsEmpty() ? "" : " on " + step.backend.Get()) + ": " +
                                          what);
        if (ILogSink* log = network_->GetLogSink()) {
          Log(*log, LogLevel::kWarning, LogCategory::kExecute, std::string("run failed: ") + error.what());
        }
        profile_.resize(recorded);
        throw error;
      }
      if (options_.profiling) {
        const auto end = std::chrono::steady_clock::now();
        if (recorded == profile_.size()) profile_.emplace_back();
        ProfileEvent& event = profile_[recorded++];
        event.layer = step.layer;
        event.backend = step.backend;
        event.start_us = std::chrono::duration<double, std::micro>(begin - start).count();
        event.duration_us = std::chrono::duration<double, std::micro>(end - begin).count();
        event.step = s;
      }
    }
    profile_.resize(recorded);
  }

  const std::vector<ProfileEvent>& GetProfile() const override { return profile_; }
  const std::vector<ProfiledStep>& GetProfiledSteps() const override { return profiled_steps_; }
  NetworkId GetNetworkId() const override { return network_->GetId(); }
  const std::vector<ProfiledStepDetail>& GetProfiledStepDetails() const override { return profiled_step_details_; }

 private:
  [[noreturn]] void Unloaded() const {
    throw Exception(ErrorCode::kNotFound, "network " + std::to_string(network_->GetId()) +
                                              " was unloaded; load it again to run it");
  }

  // Checks every binding against the signature, then points the tensors at the user memory.
  // Nothing is bound unless every binding is right.
  template <typename Binding>
  void Bind(const std::vector<TensorSignature>& expected, const std::vector<std::size_t>& tensors,
            const std::vector<Binding>& given, const char* what) {
    pending_.assign(expected.size(), nullptr);
    for (const auto& binding : given) {
      std::size_t index = expected.size();
      for (std::size_t i = 0; i < expected.size(); ++i) {
        if (expected[i].name == binding.name) index = i;
      }
      if (index == expected.size()) {
        std::string names;
        for (const auto& e : expected) names += (names.empty() ? "" : ", ") + e.name;
        Invalid(std::string("unknown ") + what + " '" + binding.name + "'; the network's " + what + "s are: " + names);
      }
      const TensorSignature& want = expected[index];
      if (pending_[index]) Invalid(std::string(what) + " '" + binding.name + "' is bound twice");
      if (binding.tensor.info.type != want.info.type) {
        Invalid(std::string(what) + " '" + binding.name + "' is " + ToString(binding.tensor.info.type) +
                ", the network expects " + ToString(want.info.type));
      }
      if (binding.tensor.info.shape != want.info.shape) {
        Invalid(std::string(what) + " '" + binding.name + "' has shape " + ToString(binding.tensor.info.shape) +
                ", the network expects " + ToString(want.info.shape));
      }
      if (binding.tensor.data == nullptr) Invalid(std::string(what) + " '" + binding.name + "' has no data (null pointer)");
      pending_[index] = const_cast<void*>(static_cast<const void*>(binding.tensor.data));
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (!pending_[i]) Invalid(std::string(what) + " '" + expected[i].name + "' is not bound");
    }
    for (std::size_t i = 0; i < expected.size(); ++i) bound_[tensors[i]]->Bind(pending_[i]);
  }

  [[noreturn]] void Invalid(const std::string& message) const {
    throw Exception(ErrorCode::kInvalidArgument,
                    "network " + std::to_string(network_->GetId()) + ": " + message + "; nothing was run");
  }

  std::shared_ptr<CompiledNetwork> network_;
  ExecutionOptions options_;
  graph::AlignedBuffer arena_;
  graph::AlignedBuffer scratch_;
  // Handles come from the backends' factories: destroyed before network_ releases their code.
  std::vector<std::unique_ptr<backend::ITensorHandle>> handles_;
  std::vector<backend::HostTensorHandle*> bound_;  // per tensor: the handle a binding points, or null
  std::vector<std::vector<backend::ITensorHandle*>> step_inputs_;
  std::vector<std::vector<backend::ITensorHandle*>> step_outputs_;
  std::vector<void*> pending_;
  std::vector<ProfileEvent> profile_;
  std::vector<ProfiledStep> profiled_steps_;  // filled once, when profiling
  std::vector<ProfiledStepDetail> profiled_step_details_;  // likewise
};

}  // namespace

std::unique_ptr<ExecutionContext> MakeExecutionContext(std::shared_ptr<CompiledNetwork> network,
                                                       const ExecutionOptions& options) {
  return std::make_unique<Context>(std::move(network), options);
}

}  // namespace backplane::execution
