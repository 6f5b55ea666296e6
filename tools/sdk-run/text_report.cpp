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

}  // namespace

void WriteTextReport(std::ostream& out, const RunReport& report, const TextReportOptions& options) {
  const TextStyle style(options.colour);
  WriteModel(out, report.model, style);
  out << Field(style, "Backends") << Join(report.backends, ", ") << "  (in order of preference"
      << (report.strict ? ", strict" : "") << ")\n";
  if (report.threads > 0) out << Field(style, "Threads") << report.threads << " per backend\n";
  WriteBackendOptions(out, report.backend_options, style);
  out << Field(style, "Times") << "import " << Ms(report.model.import_ms) << ", optimize "
      << Ms(report.optimize_ms) << ", load " << Ms(report.load_ms) << '\n'
      << Field(style, "Runs") << Plural(report.latency.count, "timed run", "timed runs") << " ("
      << report.iterations << " per context after " << report.warmup << " warmup, "
      << Plural(static_cast<std::size_t>(report.concurrency), "context", "contexts in parallel")
      << ")\n"
      << Field(style, "Latency") << "p50 " << Ms(report.latency.p50) << "   p90 "
      << Ms(report.latency.p90) << "   p99 " << Ms(report.latency.p99) << "   mean "
      << Ms(report.latency.mean) << "   (min " << Ms(report.latency.min) << ", max "
      << Ms(report.latency.max) << ")\n"
      << Field(style, "Throughput") << Format("%.1f", report.throughput) << " runs/s\n";
  WritePlacement(out, report.placement, style, options.verbose);

  out << style.Heading("Outputs") << ":\n";
  for (const OutputReport& output : report.outputs) {
    out << "  " << style.Name(output.name) << "  " << Describe(output.info) << "  min "
        << Format("%.6g", output.values.min) << "  max " << Format("%.6g", output.values.max)
        << "  mean " << Format("%.6g", output.values.mean);
    if (output.values.non_finite > 0) {
      out << "  " << style.Bad(Plural(output.values.non_finite, "non-finite value", "non-finite values"));
    }
    if (!output.file.empty()) out << "  -> " << output.file;
    out << '\n';
  }
  if (!report.profile.empty()) {
    out << style.Heading("Profile") << ": " << report.profile << " ("
        << Plural(report.profile_events, "event", "events") << ", one run)\n";
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
    out << "  " << style.Name(output.name) << "  " << Describe(output.info) << "  max abs error "
        << Format("%.3g", output.max_abs_error) << "  max rel error "
        << Format("%.3g", output.max_rel_error) << "  (largest |" << report.b.backend << "| "
        << Format("%.3g", output.reference_max_abs) << ")  "
        << (output.within_tolerance ? style.Good("ok") : style.Bad("ABOVE TOLERANCE")) << '\n';
  }
  out << '\n';
  if (above == 0) {
    out << style.Good("All " + Plural(report.outputs.size(), "output", "outputs") + " within tolerance")
        << '\n';
  } else {
    out << style.Bad(Plural(above, "output", "outputs") + " of " + std::to_string(report.outputs.size()) +
                     " above tolerance")
        << '\n';
  }
}

}  // namespace backplane::sdk_run
