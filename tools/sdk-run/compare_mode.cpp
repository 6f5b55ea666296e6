#include "compare_mode.hpp"

#include "benchmark.hpp"
#include "loaded_network.hpp"
#include "prepared_model.hpp"
#include "runtime_setup.hpp"
#include "trimmed_outputs.hpp"

#include <memory>

namespace backplane::sdk_run {

namespace {

// Runs the network on `backend` alone; fills `run` and returns the outputs.
std::vector<HostTensor> RunAlone(Runtime& runtime, const Network& network, const std::string& backend,
                                 const std::vector<HostTensor>& inputs, ComparedRun& run) {
  OptimizeOptions options;
  options.backends = {backend};
  options.strict = true;
  const LoadedNetwork loaded(runtime, network, options);
  run.backend = backend;
  run.optimize_ms = loaded.optimize_ms();
  run.load_ms = loaded.load_ms();
  run.placement = loaded.placement();
  return RunOnce(loaded, inputs);
}

}  // namespace

CompareReport CompareBackends(const CommandLine& command_line, bool show_progress) {
  const std::unique_ptr<Runtime> runtime = CreateRuntime(command_line);
  RequireBackends(*runtime, "--compare-backends", command_line.compare);

  const PreparedModel model = PrepareModel(*runtime, command_line, show_progress);

  CompareReport report;
  report.model = model.report;
  report.threads = command_line.threads;
  report.backend_options = command_line.backend_options;
  report.tolerance = command_line.tolerance;
  // Outputs of data-dependent extent compared as the model defines them (trimmed).
  const std::vector<onnx::TrimmedOutput>& trimmed = model.imported.model.trimmed_outputs;
  const std::vector<HostTensor> a = TrimOutputs(
      RunAlone(*runtime, model.imported.model.network, command_line.compare[0], model.inputs, report.a), trimmed);
  const std::vector<HostTensor> b = TrimOutputs(
      RunAlone(*runtime, model.imported.model.network, command_line.compare[1], model.inputs, report.b), trimmed);
  report.outputs = CompareOutputs(a, b, command_line.tolerance);
  return report;
}

}  // namespace backplane::sdk_run
