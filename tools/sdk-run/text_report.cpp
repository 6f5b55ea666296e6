#include "text_report.hpp"

#include "text_style.hpp"

#include <backplane/backend/layer.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

namespace backplane::sdk_run {

namespace {

using tools::Plural;
using tools::TextStyle;

// printf-style formatting of one number.
std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// Three or four significant digits for the times sdk-run meets (microseconds to minutes).
std::string Ms(double value) {
  return Format(value >= 100 ? "%.1f ms" : value >= 1 ? "%.3f ms" : "%.4f ms", value);
}

std::string Field(const TextStyle& style, const std::string& label) {
  std::string padded = label;
  padded.resize(std::max<std::size_t>(label.size() + 1, 12), ' ');
  return style.Heading(padded);
}

void WriteModel(std::ostream& out, const ModelReport& model, const TextStyle& style) {
  out << Field(style, "Model") << model.path << "  (opset " << model.opset;
  const std::size_t first = model.producer.find_first_not_of(' ');
  if (first != std::string::npos) {
    out << ", made by " << model.producer.substr(first, model.producer.find_last_not_of(' ') + 1 - first);
  }
  out << ")\n";
  for (std::size_t i = 0; i < model.inputs.size(); ++i) {
    const InputReport& input = model.inputs[i];
    out << Field(style, i == 0 ? "Inputs" : "") << style.Name(input.name) << "  "
        << Describe(input.info) << "  "
        << (input.file.empty() ? "random (seed " + std::to_string(model.seed) + ")"
                               : "from " + input.file)
        << '\n';
  }
}

void WritePlacement(std::ostream& out, const PlacementReport& placement, const TextStyle& style,
                    bool verbose) {
  const std::vector<BackendCount> counts = CountByBackend(placement);
  std::size_t placed = 0;
  for (const BackendCount& count : counts) placed += count.layers;
  out << '\n'
      << style.Heading("Placement") << ": " << Plural(placed, "layer", "layers") << " on "
      << Plural(counts.size(), "backend", "backends") << '\n';
  for (const BackendCount& count : counts) {
    out << "  " << style.Name(count.backend) << "  " << Plural(count.layers, "layer", "layers") << '\n';
  }
  std::size_t non_direct = 0;
  for (const EdgeReport& edge : placement.edges) non_direct += edge.strategy != EdgeStrategy::kDirect;
  out << style.Heading("Copies") << ": " << placement.copies << "  ("
      << Plural(non_direct, "edge is", "edges are") << " not direct)\n";
  for (const EdgeReport& edge : placement.edges) {
    if (edge.strategy == EdgeStrategy::kDirect) continue;
    out << "  " << edge.producer << " -> " << edge.consumer << ": " << ToString(edge.strategy)
        << '\n';
  }
  if (!verbose) return;
  // Constants (weights) have no workload and would drown the layers: counted, not listed.
  std::size_t constants = 0;
  std::size_t name_width = 0;
  for (const LayerPlacement& layer : placement.layers) {
    if (layer.type == backend::LayerType::kConstant) {
      ++constants;
    } else {
      name_width = std::max(name_width, layer.layer.size());
    }
  }
  out << style.Heading("Layers") << " (" << Plural(constants, "constant", "constants")
      << " not shown):\n";
  for (const LayerPlacement& layer : placement.layers) {
    if (layer.type == backend::LayerType::kConstant) continue;
    std::string name = layer.layer;
    name.resize(name_width, ' ');
    std::string type = backend::ToString(layer.type);
    type.resize(std::max<std::size_t>(type.size(), 18), ' ');
    out << "  " << name << "  " << type << "  "
        << (layer.backend.IsEmpty() ? std::string("-") : style.Name(layer.backend.Get()))
        << (layer.reason.empty() ? "" : "  " + layer.reason) << '\n';
  }
  out << style.Heading("Graph passes") << ":" << (placement.pass_log.empty() ? " none" : "") << '\n';
  for (const std::string& line : placement.pass_log) out << "  " << line << '\n';
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string joined;
  for (const std::string& item : items) joined += (joined.empty() ? "" : separator) + item;
  return joined;
}

// "Options     CpuOneDnn: fast_math=1, foo=bar; *: x=y" (--backend-option), when any was given.
void WriteBackendOptions(std::ostream& out, const BackendOptionValues& options, const TextStyle& style) {
  std::vector<std::string> backends;
  for (const auto& [id, values] : options) {
    std::vector<std::string> pairs;
    for (const auto& [key, value] : values) pairs.push_back(key + "=" + value);
    backends.push_back(id + ": " + Join(pairs, ", "));
  }
  if (!backends.empty()) out << Field(style, "Options") << Join(backends, "; ") << '\n';
}

// The Backends line, and the Threads and Options lines when they were given.
void WriteBackends(std::ostream& out, const std::vector<std::string>& backends, bool strict, int threads,
                   const BackendOptionValues& options, const TextStyle& style) {
  out << Field(style, "Backends") << Join(backends, ", ") << "  (in order of preference"
      << (strict ? ", strict" : "") << ")\n";
  if (threads > 0) out << Field(style, "Threads") << threads << " per backend\n";
  WriteBackendOptions(out, options, style);
}

// How the table is sorted, in words; indexed by LayerSort.
constexpr const char* kSortWords[] = {"slowest first", "by name", "in execution order", "slowest to load first"};

std::string Padded(std::string text, std::size_t width) {
  if (text.size() < width) text.resize(width, ' ');
  return text;
}

// The per-layer table of a profiled run (--per-layer, --profile).
void WritePerLayer(std::ostream& out, const RunReport& report, const TextStyle& style) {
  std::size_t name_width = 5, op_width = 2, backend_width = 7, implementation_width = 14;  // the headings
  for (const LayerTiming& row : report.per_layer) {
    name_width = std::max(name_width, row.layer.size());
    op_width = std::max(op_width, row.op.size());
    backend_width = std::max(backend_width, row.backend.size());
    implementation_width = std::max(implementation_width, row.implementation.size());
  }
  double load_ms = 0;
  for (const LayerTiming& row : report.per_layer) load_ms += row.load_ms;
  out << style.Heading("Per layer") << " (" << Plural(report.per_layer.size(), "step", "steps") << ", "
      << Plural(report.profiled_runs, "profiled run", "profiled runs") << ", "
      << kSortWords[static_cast<int>(report.per_layer_sort)] << "; creating the workloads took "
      << Format("%.1f", load_ms) << " ms of the load):\n"
      << "  " << Padded("layer", name_width) << "  " << Padded("op", op_width) << "  "
      << Padded("backend", backend_width) << "     avg ms   share   calls   GFLOP/s   load ms  "
      << Padded("implementation", implementation_width) << "  flagged\n";
  for (const LayerTiming& row : report.per_layer) {
    std::string line = "  " + Padded(row.layer, name_width) + "  " + Padded(row.op, op_width) + "  " +
                       Padded(row.backend.empty() ? "-" : row.backend, backend_width) +
                       Format(" %10.4f", row.average_ms) + Format(" %6.1f%%", 100 * row.share) +
                       Format(" %7.0f", static_cast<double>(row.calls)) +
                       (row.gflops_per_s > 0 ? Format(" %9.2f", row.gflops_per_s) : std::string(10, ' ')) +
                       Format(" %9.2f", row.load_ms) + "  " +
                       Padded(row.implementation.empty() ? "-" : row.implementation, implementation_width);
    // Flagged: why it is not on the preferred backend, why its backend calls its path slow.
    std::vector<std::string> flags;
    if (!row.fallback.empty()) flags.push_back(row.fallback);
    if (!row.slow_path.empty()) flags.push_back("slow path: " + row.slow_path);
    if (flags.empty()) line.erase(line.find_last_not_of(' ') + 1);
    out << line << (flags.empty() ? "" : "  " + style.Bad(Join(flags, "; "))) << '\n';
  }
}

// "  y  f32 [4,10]  max abs error 0.5  max rel error 0.125  (largest |REFERENCE| 4)  ok",
// without a newline.
void WriteDifference(std::ostream& out, const OutputDifference& output, const std::string& reference,
                     const TextStyle& style) {
  out << "  " << style.Name(output.name) << "  " << Describe(output.info) << "  max abs error "
      << Format("%.3g", output.max_abs_error) << "  max rel error "
      << Format("%.3g", output.max_rel_error) << "  (largest |" << reference << "| "
      << Format("%.3g", output.reference_max_abs) << ")  "
      << (output.within_tolerance ? style.Good("ok") : style.Bad("ABOVE TOLERANCE"));
}

// "All 2 outputs within tolerance" or "1 output of 2 above tolerance".
void WriteToleranceVerdict(std::ostream& out, std::size_t outputs, std::size_t above,
                           const TextStyle& style) {
  if (above == 0) {
    out << style.Good("All " + Plural(outputs, "output", "outputs") + " within tolerance") << '\n';
  } else {
    out << style.Bad(Plural(above, "output", "outputs") + " of " + std::to_string(outputs) +
                     " above tolerance")
        << '\n';
  }
}

// "Runs        10 timed runs (10 per context after 1 warmup, 1 context)", or with --duration
// "Runs        523 timed runs (for 2 s, at least 1 per context, after 1 warmup, 1 context)".
void WriteRuns(std::ostream& out, const RunReport& report, const TextStyle& style) {
  out << Field(style, "Runs") << Plural(report.latency.count, "timed run", "timed runs") << " (";
  if (report.duration_s > 0) {
    out << "for " << Format("%g", report.duration_s) << " s, at least " << report.iterations
        << " per context, after ";
  } else {
    out << report.iterations << " per context after ";
  }
  out << report.warmup << " warmup, "
      << Plural(static_cast<std::size_t>(report.concurrency), "context", "contexts in parallel")
      << ")\n";
  if (report.interrupted) {
    out << Field(style, "Interrupted")
        << style.Bad("by Ctrl-C (SIGINT): the report covers the runs done until then") << '\n';
  }
}

// "p50 0.0085 ms   p99 0.0091 ms   mean 0.0087 ms   (min 0.0079 ms, max 0.012 ms)", no newline.
void WriteLatencyNumbers(std::ostream& out, const LatencyStats& latency) {
  for (const PercentileValue& value : latency.percentiles) {
    out << PercentileLabel(value.percent) << " " << Ms(value.ms) << "   ";
  }
  out << "mean " << Ms(latency.mean) << "   (min " << Ms(latency.min) << ", max "
      << Ms(latency.max) << ")";
  if (latency.percentile_relative_error > 0) {
    out << "   percentiles within " << Format("%.2g", 100 * latency.percentile_relative_error) << "%";
  }
}

// "p99 4.143 ms, --max-latency-ms 2  ABOVE THE LIMIT", no newline.
void WriteLimitVerdict(std::ostream& out, const LatencyLimit& limit, const TextStyle& style) {
  out << PercentileLabel(limit.checked.percent) << " " << Ms(limit.checked.ms) << ", --max-latency-ms "
      << Format("%g", limit.limit_ms) << "  " << (limit.within ? style.Good("ok") : style.Bad("ABOVE THE LIMIT"));
}

void WriteLatency(std::ostream& out, const RunReport& report, const TextStyle& style) {
  out << Field(style, "Latency");
  WriteLatencyNumbers(out, report.latency);
  out << '\n';
  if (report.latency_limit.limit_ms > 0) {
    out << Field(style, "Limit");
    WriteLimitVerdict(out, report.latency_limit, style);
    out << '\n';
  }
}

// "  output  f32 [4,10]  min 0.02  max 0.32  mean 0.1", without a newline.
void WriteOutputSummary(std::ostream& out, const OutputReport& output, const TextStyle& style) {
  out << "  " << style.Name(output.name) << "  " << Describe(output.info) << "  min "
      << Format("%.6g", output.values.min) << "  max " << Format("%.6g", output.values.max)
      << "  mean " << Format("%.6g", output.values.mean);
  if (output.values.non_finite > 0) {
    out << "  " << style.Bad(Plural(output.values.non_finite, "non-finite value", "non-finite values"));
  }
}

void WriteExpected(std::ostream& out, const RunReport& report, const TextStyle& style) {
  if (report.expected.empty()) return;
  out << style.Heading("Expected") << " (tolerance " << Format("%g", report.tolerance)
      << " relative to the largest magnitude of the reference):\n";
  std::size_t above = 0;
  for (const ExpectedOutput& output : report.expected) {
    above += !output.difference.within_tolerance;
    WriteDifference(out, output.difference, "reference", style);
    out << "  <- " << output.file << '\n';
  }
  WriteToleranceVerdict(out, report.expected.size(), above, style);
}

// "input_ids i64 [1,16], attention_mask i64 [1,16]"
std::string DescribeInputs(const std::vector<InputReport>& inputs, const TextStyle& style) {
  std::vector<std::string> items;
  for (const InputReport& input : inputs) items.push_back(style.Name(input.name) + " " + Describe(input.info));
  return Join(items, ", ");
}

// "Runs        2 input sets round-robin: a first run each, 1 warmup round, 10 timed rounds ...".
void WriteSetRuns(std::ostream& out, const SetsReport& report, const TextStyle& style) {
  out << Field(style, "Runs") << Plural(report.sets.size(), "input set", "input sets")
      << " round-robin: a first run each, " << Plural(static_cast<std::size_t>(report.warmup), "warmup round", "warmup rounds")
      << ", then " << Plural(report.rounds, "timed round", "timed rounds");
  if (report.duration_s > 0) {
    out << " (for " << Format("%g", report.duration_s) << " s, at least " << report.iterations << ")";
  }
  out << " of one run per set\n";
  if (report.interrupted) {
    out << Field(style, "Interrupted")
        << style.Bad("by Ctrl-C (SIGINT): the report covers the runs done until then") << '\n';
  }
}

void WriteSet(std::ostream& out, const SetsReport& report, std::size_t index, const TextStyle& style) {
  const InputSetReport& set = report.sets[index];
  for (std::size_t i = 0; i < set.inputs.size(); ++i) {
    const InputReport& input = set.inputs[i];
    out << Field(style, i == 0 ? "Set " + std::to_string(index + 1) : "") << style.Name(input.name) << "  "
        << Describe(input.info) << "  from " << input.file << '\n';
  }
  out << Field(style, "");
  if (set.runs == 0) {
    out << "not run\n";
    return;
  }
  out << "first run " << Ms(set.first_run_ms) << ": shape " << set.shape + 1;
  if (set.specialized) {
    out << ", new (import, optimize and load " << Ms(set.specialize_ms) << ")\n";
  } else {
    out << ", cached\n";
  }
}

void WriteShape(std::ostream& out, const SetsReport& report, std::size_t index, const TextStyle& style) {
  const ShapeReport& shape = report.shapes[index];
  std::vector<std::string> sets;
  for (std::size_t set : shape.sets) sets.push_back(std::to_string(set + 1));
  out << Field(style, "Shape " + std::to_string(index + 1)) << DescribeInputs(shape.inputs, style) << "  ("
      << (sets.size() == 1 ? "set " : "sets ") << Join(sets, ", ") << ")\n";
  out << Field(style, "") << "first run " << Ms(shape.first_run_ms) << " (import, optimize and load "
      << Ms(shape.specialize_ms) << ")\n";
  out << Field(style, "") << "steady " << Plural(shape.steady.count, "run", "runs");
  if (shape.steady.count > 0) {
    out << ":  ";
    WriteLatencyNumbers(out, shape.steady);
  }
  out << '\n';
  if (shape.latency_limit.limit_ms > 0) {
    out << Field(style, "") << "limit  ";
    WriteLimitVerdict(out, shape.latency_limit, style);
    out << '\n';
  }
  if (shape.reloads > 0) {
    out << Field(style, "") << style.Bad("reloaded " + Plural(shape.reloads, "time", "times")) << " (mean "
        << Ms(shape.reload_mean_ms) << ", not in steady): unloaded for another shape, --max-specializations "
        << report.max_specializations << '\n';
  }
}

void WriteSetOutputs(std::ostream& out, const SetsReport& report, const TextStyle& style) {
  out << '\n' << style.Heading("Outputs") << " (last run of each set):\n";
  for (std::size_t i = 0; i < report.sets.size(); ++i) {
    for (const OutputReport& output : report.sets[i].outputs) {
      out << "  set " << i + 1;
      WriteOutputSummary(out, output, style);
      if (!output.file.empty()) out << "  -> " << output.file;
      out << '\n';
    }
  }
  std::size_t compared = 0, above = 0;
  for (const InputSetReport& set : report.sets) compared += set.expected.size();
  if (compared == 0) return;
  out << style.Heading("Expected") << " (tolerance " << Format("%g", report.tolerance)
      << " relative to the largest magnitude of the reference):\n";
  for (std::size_t i = 0; i < report.sets.size(); ++i) {
    for (const ExpectedOutput& output : report.sets[i].expected) {
      above += !output.difference.within_tolerance;
      out << "  set " << i + 1;
      WriteDifference(out, output.difference, "reference", style);
      out << "  <- " << output.file << '\n';
    }
  }
  WriteToleranceVerdict(out, compared, above, style);
}

}  // namespace

void WriteTextReport(std::ostream& out, const SetsReport& report, const TextReportOptions& options) {
  const TextStyle style(options.colour);
  out << Field(style, "Model") << report.model << "  (opened in " << Ms(report.open_ms) << ")\n";
  WriteBackends(out, report.backends, report.strict, report.threads, report.backend_options, style);
  WriteSetRuns(out, report, style);
  for (std::size_t i = 0; i < report.sets.size(); ++i) WriteSet(out, report, i, style);
  for (std::size_t i = 0; i < report.shapes.size(); ++i) WriteShape(out, report, i, style);
  const onnx::SessionStats& cache = report.cache;
  out << Field(style, "Cache") << Plural(cache.specializations_made, "specialization", "specializations")
      << " made, " << cache.specializations_loaded << " loaded, " << cache.specializations_unloaded
      << " unloaded (--max-specializations " << report.max_specializations << "); "
      << Plural(cache.runs, "run", "runs") << '\n';
  std::size_t timed = 0;
  for (const ShapeReport& shape : report.shapes) timed += shape.steady.count + shape.reloads;
  out << Field(style, "Throughput") << Format("%.1f", report.throughput) << " runs/s ("
      << Plural(timed, "timed run", "timed runs") << " in " << Ms(report.wall_ms) << ")\n";
  WriteSetOutputs(out, report, style);
}

void WriteTextReport(std::ostream& out, const RunReport& report, const TextReportOptions& options) {
  const TextStyle style(options.colour);
  WriteModel(out, report.model, style);
  WriteBackends(out, report.backends, report.strict, report.threads, report.backend_options, style);
  out << Field(style, "Times") << "import " << Ms(report.model.import_ms) << ", optimize "
      << Ms(report.optimize_ms) << ", load " << Ms(report.load_ms) << '\n';
  WriteRuns(out, report, style);
  WriteLatency(out, report, style);
  out << Field(style, "Throughput") << Format("%.1f", report.throughput) << " runs/s\n";
  WritePlacement(out, report.placement, style, options.verbose);

  out << style.Heading("Outputs") << ":\n";
  for (const OutputReport& output : report.outputs) {
    WriteOutputSummary(out, output, style);
    if (!output.file.empty()) out << "  -> " << output.file;
    out << '\n';
  }
  WriteExpected(out, report, style);
  if (report.profiled) WritePerLayer(out, report, style);
  if (!report.profile.empty()) {
    out << style.Heading("Profile") << ": " << report.profile << " ("
        << Plural(report.profile_events, "event", "events") << " of "
        << Plural(report.profiled_runs, "timed run", "timed runs") << ")\n";
  }
}

void WriteTextReport(std::ostream& out, const CompareReport& report, const TextReportOptions& options) {
  const TextStyle style(options.colour);
  WriteModel(out, report.model, style);
  if (report.threads > 0) out << Field(style, "Threads") << report.threads << " per backend\n";
  WriteBackendOptions(out, report.backend_options, style);
  out << Field(style, "Compare") << style.Name(report.a.backend) << " against "
      << style.Name(report.b.backend) << " (reference), each alone; tolerance "
      << Format("%g", report.tolerance) << " relative to the largest magnitude of "
      << report.b.backend << "'s output\n";
  for (const ComparedRun* run : {&report.a, &report.b}) {
    std::size_t placed = 0;
    for (const BackendCount& count : CountByBackend(run->placement)) placed += count.layers;
    out << Field(style, "") << run->backend << ": optimize " << Ms(run->optimize_ms) << ", load "
        << Ms(run->load_ms) << ", " << Plural(placed, "layer", "layers") << '\n';
  }
  out << '\n' << style.Heading("Outputs") << ":\n";
  std::size_t above = 0;
  for (const OutputDifference& output : report.outputs) {
    above += !output.within_tolerance;
    WriteDifference(out, output, report.b.backend, style);
    out << '\n';
  }
  out << '\n';
  WriteToleranceVerdict(out, report.outputs.size(), above, style);
}

}  // namespace backplane::sdk_run
