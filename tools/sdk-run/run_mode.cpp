#include "run_mode.hpp"

#include "benchmark.hpp"
#include "loaded_network.hpp"
#include "output_files.hpp"
#include "prepared_model.hpp"
#include "profile_trace.hpp"
#include "runtime_setup.hpp"

#include <memory>

namespace backplane::sdk_run {

namespace {

OptimizeOptions MakeOptimizeOptions(const CommandLine& command_line) {
  OptimizeOptions options;
  for (const std::string& id : command_line.backends) options.backends.emplace_back(id);
  options.strict = command_line.strict;
  for (const auto& [layer, backend] : command_line.pins) options.pins.emplace(layer, backend);
  return options;
}

}  // namespace

RunReport RunModel(const CommandLine& command_line, bool show_progress) {
  const std::unique_ptr<Runtime> runtime = CreateRuntime(command_line);
  RequireBackends(*runtime, "--backends", command_line.backends);
  std::vector<std::string> pinned;
  for (const auto& [layer, backend] : command_line.pins) pinned.push_back(backend);
  RequireBackends(*runtime, "--pin", pinned);

  const PreparedModel model = PrepareModel(command_line);
  // Where the results go is checked before the (possibly long) runs.
  if (!command_line.output_dir.empty()) CreateOutputFolder(command_line.output_dir);
  if (!command_line.profile.empty()) CheckProfilePath(command_line.profile);

  RunReport report;
  report.model = model.report;
  report.backends = command_line.backends.empty() ? AvailableBackends(*runtime) : command_line.backends;
  report.strict = command_line.strict;
  report.threads = command_line.threads;
  report.backend_options = command_line.backend_options;
  report.iterations = command_line.iterations;
  report.warmup = command_line.warmup;
  report.concurrency = command_line.concurrency;

  const LoadedNetwork network(*runtime, model.imported.model.network, MakeOptimizeOptions(command_line));
  report.optimize_ms = network.optimize_ms();
  report.load_ms = network.load_ms();
  report.placement = network.placement();

  BenchmarkSettings settings;
  settings.iterations = command_line.iterations;
  settings.warmup = command_line.warmup;
  settings.concurrency = command_line.concurrency;
  settings.show_progress = show_progress;
  BenchmarkResult result = RunBenchmark(network, model.inputs, settings);
  report.latency = Summarize(result.latencies_ms);
  report.wall_ms = result.wall_ms;
  report.throughput = result.throughput;

  std::vector<std::string> files;
  if (!command_line.output_dir.empty()) files = WriteOutputs(command_line.output_dir, result.outputs);
  for (std::size_t i = 0; i < result.outputs.size(); ++i) {
    const HostTensor& output = result.outputs[i];
    report.outputs.push_back(
        {output.name, output.info, SummarizeValues(output), i < files.size() ? files[i] : ""});
  }
  if (!command_line.profile.empty()) {
    report.profile_events = WriteProfileTrace(network, model.inputs, command_line.profile);
    report.profile = command_line.profile;
  }
  return report;
}

}  // namespace backplane::sdk_run
