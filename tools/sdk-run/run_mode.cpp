#include "run_mode.hpp"

#include "benchmark.hpp"
#include "expected_outputs.hpp"
#include "loaded_network.hpp"
#include "output_files.hpp"
#include "prepared_model.hpp"
#include "profile_trace.hpp"
#include "progress_line.hpp"
#include "runtime_setup.hpp"
#include "trimmed_outputs.hpp"

#include <iostream>
#include <memory>
#include <utility>

namespace backplane::sdk_run {

RunReport RunModel(const CommandLine& command_line, bool show_progress) {
  const std::unique_ptr<Runtime> runtime = CreateRuntime(command_line);
  RequirePlacementBackends(*runtime, command_line);

  PreparedModel model = PrepareModel(*runtime, command_line, show_progress);
  // Where the results go is checked before the (possibly long) runs.
  if (!command_line.output_dir.empty()) CreateOutputFolder(command_line.output_dir);
  if (!command_line.profile.empty()) CheckProfilePath(command_line.profile);

  RunReport report;
  report.model = model.report;
  CopyRunSettings(command_line, UsedBackends(*runtime, command_line), report);
  report.concurrency = command_line.concurrency;

  LoadedNetwork network = [&] {
    const ProgressLine progress(std::cerr, "optimizing and loading", 0, show_progress);
    return LoadedNetwork(*runtime, std::move(model.imported.model.network), MakeOptimizeOptions(command_line));
  }();
  // The reference outputs are checked against the network before the runs.
  const std::vector<onnx::TrimmedOutput>& trimmed = model.imported.model.trimmed_outputs;
  const std::vector<ExpectedTensor> expected =
      ReadExpectedOutputs(command_line.expected_files, network.signature(), "--expected", trimmed);
  report.optimize_ms = network.optimize_ms();
  report.load_ms = network.load_ms();
  report.placement = network.TakePlacement();

  BenchmarkSettings settings;
  settings.iterations = command_line.iterations;
  settings.duration_s = command_line.duration;
  settings.stop_on_interrupt = true;
  settings.warmup = command_line.warmup;
  settings.concurrency = command_line.concurrency;
  settings.show_progress = show_progress;
  settings.profiling = !command_line.profile.empty() || !command_line.per_layer.empty();
  BenchmarkResult result = RunBenchmark(network, model.inputs, settings);
  result.outputs = TrimOutputs(std::move(result.outputs), trimmed);  // the outputs ONNX defines
  report.latency = result.latency.Summarize(command_line.percentiles);
  report.latency_limit = CheckLatencyLimit(report.latency, command_line.max_latency_ms);
  report.interrupted = result.interrupted;
  report.wall_ms = result.wall_ms;
  report.throughput = result.throughput;
  report.tolerance = command_line.tolerance;

  // Interrupted: the report covers the runs done; the last run's outputs are not checked or
  // written (with no timed run they may come from a warmup run, or from none).
  std::vector<std::string> files;
  if (!result.interrupted) {
    report.expected = CompareWithExpected(result.outputs, expected, command_line.tolerance);
    if (!command_line.output_dir.empty()) files = WriteOutputs(command_line.output_dir, result.outputs);
  }
  for (std::size_t i = 0; i < result.outputs.size(); ++i) {
    const HostTensor& output = result.outputs[i];
    report.outputs.push_back(
        {output.name, output.info, SummarizeValues(output), i < files.size() ? files[i] : ""});
  }
  if (settings.profiling) {
    report.profiled = true;
    report.profiled_runs = result.profile.runs.size();
    report.per_layer_sort = LayerSortFromString(command_line.per_layer).value_or(LayerSort::kTime);
    report.per_layer = BuildLayerTable(result.profile, report.placement,
                                       report.backends.empty() ? "" : report.backends.front(),
                                       report.per_layer_sort);
  }
  if (!command_line.profile.empty()) {
    report.profile_events = WriteProfileTrace(result.profile, command_line.profile);
    report.profile = command_line.profile;
  }
  return report;
}

}  // namespace backplane::sdk_run
