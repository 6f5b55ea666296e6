#include "json_report.hpp"

#include <backplane/backend/layer.hpp>
#include <backplane/version.hpp>

#include <nlohmann/json.hpp>

#include <cmath>

namespace backplane::sdk_run {

namespace {

using json = nlohmann::ordered_json;  // fields in the documented order

json Number(double value) {
  if (std::isfinite(value)) return value;
  return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
}

json Model(const ModelReport& model) {
  json inputs = json::array();
  for (const InputReport& input : model.inputs) {
    json entry = {{"name", input.name}, {"type", ToString(input.info.type)},
                  {"shape", input.info.shape.Dims()}, {"source", input.file.empty() ? "random" : "file"},
                  {"file", input.file}};
    inputs.push_back(entry);
  }
  return {{"path", model.path},           {"opset", model.opset},
          {"producer", model.producer},   {"inputs", inputs},
          {"seed", model.seed},           {"import_time_ms", Number(model.import_ms)}};
}

json Placement(const PlacementReport& placement) {
  json layers = json::array();
  for (const LayerPlacement& layer : placement.layers) {
    layers.push_back({{"layer", layer.layer}, {"type", backend::ToString(layer.type)},
                      {"backend", layer.backend.Get()}, {"reason", layer.reason}});
  }
  json counts = json::object();
  for (const BackendCount& count : CountByBackend(placement)) counts[count.backend] = count.layers;
  json edges = json::array();
  for (const EdgeReport& edge : placement.edges) {
    if (edge.strategy == EdgeStrategy::kDirect) continue;
    edges.push_back({{"producer", edge.producer}, {"consumer", edge.consumer},
                     {"strategy", ToString(edge.strategy)}, {"factory", edge.factory}});
  }
  return {{"placement", layers},   {"layers_per_backend", counts}, {"edges", edges},
          {"copies", placement.copies}, {"pass_log", placement.pass_log}};
}

// The per-layer table: [] unless the runs were profiled.
json PerLayer(const std::vector<LayerTiming>& table) {
  json rows = json::array();
  for (const LayerTiming& row : table) {
    rows.push_back({{"layer", row.layer},
                    {"op", row.op},
                    {"backend", row.backend},
                    {"order", row.order},
                    {"calls", row.calls},
                    {"average_ms", Number(row.average_ms)},
                    {"total_ms", Number(row.total_ms)},
                    {"share", Number(row.share)},
                    {"flops", Number(row.flops)},
                    {"gflops_per_s", row.gflops_per_s > 0 ? Number(row.gflops_per_s) : json(nullptr)},
                    {"implementation", row.implementation},
                    {"fallback", row.fallback},
                    {"slow_path", row.slow_path},
                    {"load_ms", Number(row.load_ms)}});
  }
  return rows;
}

// One output against its reference (--compare-backends, --expected).
json Difference(const OutputDifference& output) {
  return {{"name", output.name},
          {"type", ToString(output.info.type)},
          {"shape", output.info.shape.Dims()},
          {"max_abs_error", Number(output.max_abs_error)},
          {"max_rel_error", Number(output.max_rel_error)},
          {"reference_max_abs", Number(output.reference_max_abs)},
          {"within_tolerance", output.within_tolerance}};
}

// "latency_ms": one field per reported percentile ("p50", "p99.9"), then mean, min, max, count and
// the percentiles' relative error bound (0: exact).
json Latency(const LatencyStats& latency) {
  json fields = json::object();
  for (const PercentileValue& value : latency.percentiles) {
    fields[PercentileLabel(value.percent)] = Number(value.ms);
  }
  fields["mean"] = Number(latency.mean);
  fields["min"] = Number(latency.min);
  fields["max"] = Number(latency.max);
  fields["count"] = latency.count;
  fields["percentile_relative_error"] = Number(latency.percentile_relative_error);
  return fields;
}

// An --input-set's inputs (with `file`) or a shape's (without).
json Inputs(const std::vector<InputReport>& inputs, bool with_file) {
  json entries = json::array();
  for (const InputReport& input : inputs) {
    json entry = {{"name", input.name}, {"type", ToString(input.info.type)}, {"shape", input.info.shape.Dims()}};
    if (with_file) entry["file"] = input.file;
    entries.push_back(entry);
  }
  return entries;
}

// "outputs": per output its summary and its --output-dir file (empty when not written).
json Outputs(const std::vector<OutputReport>& outputs) {
  json entries = json::array();
  for (const OutputReport& output : outputs) {
    json entry = {{"name", output.name},
                  {"type", ToString(output.info.type)},
                  {"shape", output.info.shape.Dims()},
                  {"min", Number(output.values.min)},
                  {"max", Number(output.values.max)},
                  {"mean", Number(output.values.mean)},
                  {"non_finite", output.values.non_finite},
                  {"file", output.file}};
    entries.push_back(entry);
  }
  return entries;
}

// "expected": per --expected (or --expected-set) output its difference and file.
json Expected(const std::vector<ExpectedOutput>& expected) {
  json entries = json::array();
  for (const ExpectedOutput& output : expected) {
    json entry = Difference(output.difference);
    entry["file"] = output.file;
    entries.push_back(entry);
  }
  return entries;
}

json Limit(const LatencyLimit& limit) {
  return {{"limit_ms", limit.limit_ms}, {"statistic", PercentileLabel(limit.checked.percent)},
          {"value_ms", Number(limit.checked.ms)}, {"within_limit", limit.within}};
}

// The settings a "run" and a "sets" document both give (CopyRunSettings), in that order.
template <typename Report>
json Settings(const Report& report) {
  return {{"backends", report.backends},   {"strict", report.strict},
          {"threads", report.threads},     {"backend_options", report.backend_options},
          {"iterations", report.iterations}, {"duration_s", report.duration_s},
          {"warmup", report.warmup}};
}

// Pretty-printed; bytes that are not UTF-8 (in a path or a name) become U+FFFD.
std::string Dump(const json& document) {
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string JsonReport(const RunReport& report) {
  const ExitCode status = report.Status();
  json document = {
      {"format", kJsonFormatVersion},
      {"kind", "run"},
      {"sdk_version", ToString(kSdkVersion)},
      {"model", Model(report.model)},
  };
  document.update(Settings(report));
  document.update({
      {"concurrency", report.concurrency},
      {"import_time_ms", Number(report.model.import_ms)},
      {"optimize_time_ms", Number(report.optimize_ms)},
      {"load_time_ms", Number(report.load_ms)},
      {"latency_ms", Latency(report.latency)},
      {"latency_limit", Limit(report.latency_limit)},
      {"interrupted", report.interrupted},
      {"wall_time_ms", Number(report.wall_ms)},
      {"throughput_runs_per_s", Number(report.throughput)},
  });
  document.update(Placement(report.placement));
  document["outputs"] = Outputs(report.outputs);
  document["tolerance"] = report.tolerance;
  document["expected"] = Expected(report.expected);
  document["profile"] = {{"file", report.profile},
                         {"events", report.profile_events},
                         {"profiled", report.profiled},
                         {"runs", report.profiled_runs},
                         {"sort", ToString(report.per_layer_sort)}};
  document["per_layer"] = PerLayer(report.per_layer);
  document["status"] = ToString(status);
  document["exit_code"] = static_cast<int>(status);
  return Dump(document);
}

std::string JsonReport(const SetsReport& report) {
  json sets = json::array();
  for (const InputSetReport& set : report.sets) {
    sets.push_back({{"inputs", Inputs(set.inputs, true)},
                    {"shape", set.shape},
                    {"runs", set.runs},
                    {"first_run_ms", Number(set.first_run_ms)},
                    {"specialized", set.specialized},
                    {"specialize_ms", Number(set.specialize_ms)},
                    {"outputs", Outputs(set.outputs)},
                    {"expected", Expected(set.expected)}});
  }
  json shapes = json::array();
  for (const ShapeReport& shape : report.shapes) {
    shapes.push_back({{"inputs", Inputs(shape.inputs, false)},
                      {"sets", shape.sets},
                      {"first_run_ms", Number(shape.first_run_ms)},
                      {"specialize_ms", Number(shape.specialize_ms)},
                      {"latency_ms", Latency(shape.steady)},
                      {"latency_limit", Limit(shape.latency_limit)},
                      {"reloads", shape.reloads},
                      {"reload_mean_ms", Number(shape.reload_mean_ms)}});
  }
  const onnx::SessionStats& cache = report.cache;
  const ExitCode status = report.Status();
  json document = {
      {"format", kJsonFormatVersion},
      {"kind", "sets"},
      {"sdk_version", ToString(kSdkVersion)},
      {"model", {{"path", report.model}, {"open_time_ms", Number(report.open_ms)}}},
  };
  document.update(Settings(report));
  document.update({
      {"rounds", report.rounds},
      {"sets", sets},
      {"shapes", shapes},
      {"cache",
       {{"max_specializations", report.max_specializations},
        {"specializations_made", cache.specializations_made},
        {"specializations_loaded", cache.specializations_loaded},
        {"specializations_unloaded", cache.specializations_unloaded},
        {"runs", cache.runs}}},
      {"interrupted", report.interrupted},
      {"wall_time_ms", Number(report.wall_ms)},
      {"throughput_runs_per_s", Number(report.throughput)},
      {"tolerance", report.tolerance},
      {"status", ToString(status)},
      {"exit_code", static_cast<int>(status)},
  });
  return Dump(document);
}

std::string JsonReport(const CompareReport& report) {
  json runs = json::array();
  for (const ComparedRun* run : {&report.a, &report.b}) {
    json entry = {{"backend", run->backend}, {"optimize_time_ms", Number(run->optimize_ms)},
                  {"load_time_ms", Number(run->load_ms)}};
    entry.update(Placement(run->placement));
    runs.push_back(entry);
  }
  json outputs = json::array();
  for (const OutputDifference& output : report.outputs) outputs.push_back(Difference(output));
  const ExitCode status = report.Status();
  const json document = {
      {"format", kJsonFormatVersion},
      {"kind", "compare"},
      {"sdk_version", ToString(kSdkVersion)},
      {"model", Model(report.model)},
      {"backends", {report.a.backend, report.b.backend}},
      {"reference", report.b.backend},
      {"threads", report.threads},
      {"backend_options", report.backend_options},
      {"tolerance", report.tolerance},
      {"runs", runs},
      {"outputs", outputs},
      {"within_tolerance", report.WithinTolerance()},
      {"status", ToString(status)},
      {"exit_code", static_cast<int>(status)},
  };
  return Dump(document);
}

}  // namespace backplane::sdk_run
