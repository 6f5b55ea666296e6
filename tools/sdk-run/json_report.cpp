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

// Pretty-printed; bytes that are not UTF-8 (in a path or a name) become U+FFFD.
std::string Dump(const json& document) {
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string JsonReport(const RunReport& report) {
  json outputs = json::array();
  for (const OutputReport& output : report.outputs) {
    outputs.push_back({{"name", output.name},
                       {"type", ToString(output.info.type)},
                       {"shape", output.info.shape.Dims()},
                       {"min", Number(output.values.min)},
                       {"max", Number(output.values.max)},
                       {"mean", Number(output.values.mean)},
                       {"non_finite", output.values.non_finite},
                       {"file", output.file}});
  }
  const LatencyStats& latency = report.latency;
  json document = {
      {"format", kJsonFormatVersion},
      {"kind", "run"},
      {"sdk_version", ToString(kSdkVersion)},
      {"model", Model(report.model)},
      {"backends", report.backends},
      {"strict", report.strict},
      {"threads", report.threads},
      {"backend_options", report.backend_options},
      {"iterations", report.iterations},
      {"warmup", report.warmup},
      {"concurrency", report.concurrency},
      {"import_time_ms", Number(report.model.import_ms)},
      {"optimize_time_ms", Number(report.optimize_ms)},
      {"load_time_ms", Number(report.load_ms)},
      {"latency_ms",
       {{"p50", Number(latency.p50)}, {"p90", Number(latency.p90)}, {"p99", Number(latency.p99)},
        {"mean", Number(latency.mean)}, {"min", Number(latency.min)}, {"max", Number(latency.max)},
        {"count", latency.count}}},
      {"wall_time_ms", Number(report.wall_ms)},
      {"throughput_runs_per_s", Number(report.throughput)},
  };
  document.update(Placement(report.placement));
  document["outputs"] = outputs;
  document["profile"] = {{"file", report.profile}, {"events", report.profile_events}};
  document["status"] = ToString(ExitCode::kOk);
  document["exit_code"] = static_cast<int>(ExitCode::kOk);
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
  for (const OutputDifference& output : report.outputs) {
    outputs.push_back({{"name", output.name},
                       {"type", ToString(output.info.type)},
                       {"shape", output.info.shape.Dims()},
                       {"max_abs_error", Number(output.max_abs_error)},
                       {"max_rel_error", Number(output.max_rel_error)},
                       {"reference_max_abs", Number(output.reference_max_abs)},
                       {"within_tolerance", output.within_tolerance}});
  }
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
