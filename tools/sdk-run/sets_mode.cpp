#include "sets_mode.hpp"

#include "exit_code.hpp"
#include "expected_outputs.hpp"
#include "input_sets.hpp"
#include "interrupt.hpp"
#include "loaded_network.hpp"
#include "model_import.hpp"
#include "output_files.hpp"
#include "progress_line.hpp"
#include "runtime_setup.hpp"
#include "value_summary.hpp"

#include "text_style.hpp"

#include <backplane/exception.hpp>
#include <backplane/onnx_importer.hpp>
#include <backplane/path_text.hpp>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <utility>

namespace backplane::sdk_run {

namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One Session::Run of a set: its outputs, how long the call took, and whether it imported and
// loaded a specialization (the shape was new, or had been unloaded).
struct SetRun {
  std::vector<HostTensor> outputs;
  double ms = 0;
  bool specialized = false;
};

// Runs `set` once; `phase` and `round` (from 1) name the run in a failure. A model the importer
// cannot take at these shapes is a bad model (65), inputs it contradicts are bad input (66),
// anything else is a runtime failure (70); each message names the set and the run.
SetRun RunSet(onnx::Session& session, const InputSet& set, const char* phase, std::size_t round) {
  const std::vector<InputBinding> bindings = set.Bindings();
  const std::uint64_t made = session.GetStats().specializations_made;
  const auto fail = [&](ExitCode code, const std::string& why) -> ToolError {
    return ToolError(code, set.option + ", " + phase + (round ? " " + std::to_string(round) : "") + ", failed" + why);
  };
  SetRun run;
  std::vector<onnx::SessionOutput> outputs;
  try {
    const auto start = Clock::now();
    outputs = session.Run(bindings);
    run.ms = MillisecondsSince(start);
  } catch (const onnx::UnsupportedModelError& error) {
    throw fail(ExitCode::kBadModel, std::string(": ") + error.what());
  } catch (const Exception& error) {
    const bool bad_input = error.code() == ErrorCode::kInvalidArgument;
    throw fail(bad_input ? ExitCode::kBadInput : ExitCode::kRuntimeFailure,
               std::string(" (") + ToString(error.code()) + "): " + error.what());
  } catch (const std::exception& error) {
    throw fail(ExitCode::kRuntimeFailure, std::string(": ") + error.what());
  }
  run.specialized = session.GetStats().specializations_made > made;
  for (onnx::SessionOutput& output : outputs) {
    run.outputs.push_back({std::move(output.name), output.info, std::move(output.data)});
  }
  return run;
}

// The shape group of `set`: the first whose inputs have the same names, types and shapes, or a
// new one at the end.
std::size_t ShapeOf(const InputSet& set, std::vector<ShapeReport>& shapes) {
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    bool same = shapes[i].inputs.size() == set.tensors.size();
    for (std::size_t j = 0; same && j < set.tensors.size(); ++j) {
      same = shapes[i].inputs[j].name == set.tensors[j].name && shapes[i].inputs[j].info == set.tensors[j].info;
    }
    if (same) return i;
  }
  ShapeReport& shape = shapes.emplace_back();
  for (const HostTensor& tensor : set.tensors) shape.inputs.push_back({tensor.name, tensor.info, ""});
  return shapes.size() - 1;
}

// The outputs of a run as a signature, for reading the --expected-set files against it.
NetworkSignature SignatureOf(const std::vector<HostTensor>& outputs) {
  NetworkSignature signature;
  for (const HostTensor& output : outputs) signature.outputs.push_back({output.name, output.info});
  return signature;
}

// --pin names a layer of the model, as a plain run checks: against the network the first set
// imports (the optimizer would ignore a pin on no layer). Costs one import, only with --pin.
void RequirePins(onnx::Session& session, const InputSet& set, const OptimizeOptions& options) {
  onnx::ImportedModel imported;
  try {
    imported = session.Import(set.Bindings());
  } catch (const Exception& error) {
    throw ToolError(ExitCode::kBadModel, set.option + ", importing it to check --pin, failed: " + error.what());
  }
  RequirePinnedLayers(imported.network, options);
}

// --output-dir DIR: the `index`th set's outputs go to DIR/set-<index + 1>.
std::string SetFolder(const std::string& dir, std::size_t index) {
  return PathToUtf8(PathFromUtf8(dir) / ("set-" + std::to_string(index + 1)));
}

SetsReport StartReport(const CommandLine& command_line, const Runtime& runtime) {
  SetsReport report;
  report.model = command_line.model;
  CopyRunSettings(command_line, UsedBackends(runtime, command_line), report);
  report.max_specializations = command_line.max_specializations;
  report.tolerance = command_line.tolerance;
  return report;
}

// Reads and checks every --input-set before any run, filing each under its distinct shape.
std::vector<InputSet> ReadInputSets(const onnx::Session& session, const CommandLine& command_line, SetsReport& report) {
  std::vector<InputSet> sets;
  for (std::size_t i = 0; i < command_line.input_sets.size(); ++i) {
    sets.push_back(ReadInputSet(session, i + 1, command_line.input_sets[i]));
    InputSetReport& set = report.sets.emplace_back();
    for (std::size_t j = 0; j < sets[i].tensors.size(); ++j) {
      set.inputs.push_back({sets[i].tensors[j].name, sets[i].tensors[j].info, sets[i].files[j]});
    }
    set.shape = ShapeOf(sets[i], report.shapes);
    report.shapes[set.shape].sets.push_back(i);
  }
  return sets;
}

// Per shape: the steady latency (timed runs that did not reload) and the reloads.
void SummarizeShapes(const CommandLine& command_line, const std::vector<LatencyRecorder>& steady,
                     const std::vector<LatencyRecorder>& reloads, SetsReport& report) {
  for (std::size_t s = 0; s < report.shapes.size(); ++s) {
    ShapeReport& shape = report.shapes[s];
    shape.steady = steady[s].Summarize(command_line.percentiles);
    shape.latency_limit = CheckLatencyLimit(shape.steady, command_line.max_latency_ms);
    shape.reloads = reloads[s].count();
    shape.reload_mean_ms = reloads[s].Summarize().mean;
  }
}

// Per set: its last outputs summarized, compared with --expected-set and written to
// --output-dir; interrupted, only summarized (as a plain run's).
void ReportOutputs(const CommandLine& command_line, const std::vector<std::vector<HostTensor>>& last,
                   const std::vector<std::vector<ExpectedTensor>>& expected, SetsReport& report) {
  for (std::size_t i = 0; i < last.size(); ++i) {
    std::vector<std::string> files;
    if (!report.interrupted) {
      report.sets[i].expected = CompareWithExpected(last[i], expected[i], command_line.tolerance);
      if (!command_line.output_dir.empty()) files = WriteOutputs(SetFolder(command_line.output_dir, i), last[i]);
    }
    for (std::size_t j = 0; j < last[i].size(); ++j) {
      report.sets[i].outputs.push_back(
          {last[i][j].name, last[i][j].info, SummarizeValues(last[i][j]), j < files.size() ? files[j] : ""});
    }
  }
}

}  // namespace

SetsReport RunInputSets(const CommandLine& command_line, bool show_progress) {
  const std::unique_ptr<Runtime> runtime = CreateRuntime(command_line);
  RequirePlacementBackends(*runtime, command_line);
  SetsReport report = StartReport(command_line, *runtime);

  onnx::SessionOptions options;
  options.optimize = MakeOptimizeOptions(command_line);
  options.max_specializations = command_line.max_specializations;
  const auto open_start = Clock::now();
  const std::unique_ptr<onnx::Session> session = OpenSession(*runtime, command_line.model, options);
  report.open_ms = MillisecondsSince(open_start);

  const std::vector<InputSet> sets = ReadInputSets(*session, command_line, report);

  if (!options.optimize.pins.empty()) RequirePins(*session, sets.front(), options.optimize);
  // Where the outputs go is checked before the runs.
  if (!command_line.output_dir.empty()) CreateOutputFolder(command_line.output_dir);

  std::vector<std::vector<HostTensor>> last(sets.size());            // each set's last outputs
  std::vector<std::vector<ExpectedTensor>> expected(sets.size());    // --expected-set
  std::vector<LatencyRecorder> steady(report.shapes.size());
  std::vector<LatencyRecorder> reloads(report.shapes.size());
  std::size_t timed_runs = 0;
  {
    const InterruptScope interrupt;
    const std::size_t total =
        command_line.duration > 0 ? 0 : sets.size() * static_cast<std::size_t>(1 + command_line.warmup + command_line.iterations);
    ProgressLine progress(std::cerr, "running " + tools::Plural(sets.size(), "input set", "input sets"), total,
                          show_progress);
    const auto run = [&](std::size_t i, const char* phase, std::size_t round) {
      SetRun result = RunSet(*session, sets[i], phase, round);
      ++report.sets[i].runs;
      progress.Advance();
      return result;
    };
    // The first run of every set: each new shape is imported, optimized and loaded here.
    for (std::size_t i = 0; i < sets.size() && !InterruptRequested(); ++i) {
      SetRun first = run(i, "first run", 0);
      InputSetReport& set = report.sets[i];
      set.first_run_ms = first.ms;
      set.specialized = first.specialized;
      if (first.specialized) set.specialize_ms = session->GetStats().last_specialization_ms;
      ShapeReport& shape = report.shapes[set.shape];
      if (shape.sets.front() == i) {
        shape.first_run_ms = set.first_run_ms;
        shape.specialize_ms = set.specialize_ms;
      }
      if (!command_line.expected_sets.empty()) {  // checked now, before the timed runs
        expected[i] = ReadExpectedOutputs(command_line.expected_sets[i], SignatureOf(first.outputs),
                                          "--expected-set " + std::to_string(i + 1));
      }
      last[i] = std::move(first.outputs);
    }
    for (int round = 0; round < command_line.warmup && !InterruptRequested(); ++round) {
      for (std::size_t i = 0; i < sets.size() && !InterruptRequested(); ++i) {
        last[i] = run(i, "warmup round", round + 1).outputs;
      }
    }
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(command_line.duration));
    const auto more = [&] {
      return static_cast<int>(report.rounds) < command_line.iterations ||
             (command_line.duration > 0 && Clock::now() < deadline);
    };
    while (!InterruptRequested() && more()) {
      ++report.rounds;
      for (std::size_t i = 0; i < sets.size() && !InterruptRequested(); ++i) {
        SetRun timed = run(i, "timed round", report.rounds);
        (timed.specialized ? reloads : steady)[report.sets[i].shape].Add(timed.ms);
        ++timed_runs;
        last[i] = std::move(timed.outputs);
      }
    }
    report.wall_ms = MillisecondsSince(start);
    report.interrupted = InterruptRequested();
  }
  report.throughput = report.wall_ms > 0 ? 1000.0 * static_cast<double>(timed_runs) / report.wall_ms : 0;

  SummarizeShapes(command_line, steady, reloads, report);
  ReportOutputs(command_line, last, expected, report);
  report.cache = session->GetStats();
  return report;
}

}  // namespace backplane::sdk_run
