#include "profile_trace.hpp"

#include "exit_code.hpp"

#include <backplane/path_text.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace backplane::sdk_run {

namespace {

using json = nlohmann::ordered_json;

json Shapes(const std::vector<TensorInfo>& tensors) {
  json shapes = json::array();
  for (const TensorInfo& tensor : tensors) shapes.push_back(tensor.shape.Dims());
  return shapes;
}

}  // namespace

void CheckProfilePath(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path file = PathFromUtf8(path);
  const fs::path folder = file.parent_path();
  if (!folder.empty() && !fs::is_directory(folder)) {
    throw ToolError(ExitCode::kCannotWrite,
                    "--profile " + path + ": the folder " + PathToUtf8(folder) + " does not exist");
  }
  if (fs::is_directory(file)) {
    throw ToolError(ExitCode::kCannotWrite, "--profile " + path + ": is a folder, not a file");
  }
}

void WriteTrace(const TimedProfile& profile, std::ostream& out) {
  // The per-step part of every event, built once.
  std::vector<json> steps;
  for (std::size_t s = 0; s < profile.steps.size(); ++s) {
    const ProfiledStep& step = profile.steps[s];
    const ProfiledStepDetail detail = s < profile.details.size() ? profile.details[s] : ProfiledStepDetail();
    const std::string backend = step.backend.Get();
    steps.push_back({{"name", step.layer},
                     {"cat", backend.empty() ? "runtime" : backend},
                     {"op", step.op},
                     {"backend", backend},
                     {"implementation", detail.implementation},
                     {"input_shapes", Shapes(step.inputs)},
                     {"output_shapes", Shapes(step.outputs)}});
  }
  out << "{\"traceEvents\":[";
  bool first = true;
  for (const ProfiledRun& run : profile.runs) {
    for (const StepTime& time : run.steps) {
      if (time.step >= steps.size()) continue;
      const json& step = steps[time.step];
      const json event = {{"name", step["name"]},
                          {"cat", step["cat"]},
                          {"ph", "X"},
                          {"ts", run.start_us + time.start_us},
                          {"dur", time.duration_us},
                          {"pid", 1},
                          {"tid", run.context + 1},
                          {"args",
                           {{"run", run.run},
                            {"context", run.context},
                            {"op", step["op"]},
                            {"backend", step["backend"]},
                            {"implementation", step["implementation"]},
                            {"input_shapes", step["input_shapes"]},
                            {"output_shapes", step["output_shapes"]}}}};
      out << (first ? "\n" : ",\n") << event.dump(-1, ' ', false, json::error_handler_t::replace);
      first = false;
    }
  }
  out << "\n],\"displayTimeUnit\":\"ms\"}\n";
}

std::size_t WriteProfileTrace(const TimedProfile& profile, const std::string& path) {
  std::ofstream out(PathFromUtf8(path), std::ios::binary | std::ios::trunc);
  if (!out) throw ToolError(ExitCode::kCannotWrite, "--profile " + path + ": cannot create the file");
  WriteTrace(profile, out);
  out.close();
  if (!out) throw ToolError(ExitCode::kCannotWrite, "--profile " + path + ": writing the trace failed");
  return profile.EventCount();
}

}  // namespace backplane::sdk_run
