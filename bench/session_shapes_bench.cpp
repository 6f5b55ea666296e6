// What a shape costs an onnx::Session (issue 40): per set of input shapes, the cost of a new
// shape (import + optimize + load of that specialization) against a fresh load of the model with
// that shape fixed, and the steady latency of a cached shape against the fixed-shape network.
// Interleaved rounds (each round: every shape set, fixed then session), medians over rounds.
//   build/bin/backplane_session_shapes_bench --model tests/data/bert_dynamic.onnx
//     --shapes "input_ids=1,16;attention_mask=1,16" --shapes "input_ids=2,40;attention_mask=2,40"
// Inputs get zeros (integers, bool) or values in [-1, 1) (floating point), so token ids and masks
// stay valid for any model. Then, on Linux, the resident memory one session adds per shape set
// loaded in it (weights are read once per session and shared by its specializations).
#include <backplane/onnx_importer.hpp>
#include <backplane/onnx_session.hpp>
#include <backplane/runtime.hpp>

#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace backplane;
using Clock = std::chrono::steady_clock;
using Shapes = std::map<std::string, std::vector<std::int64_t>>;

double Ms(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// The process's resident memory in MiB (Linux: /proc/self/status VmRSS), or -1 where unknown.
double ResidentMiB() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // "VmRSS:  1234 kB"
  }
  return -1;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

// "a=1,16;b=1,16"
Shapes ParseShapes(const std::string& text) {
  Shapes shapes;
  std::stringstream sets(text);
  for (std::string item; std::getline(sets, item, ';');) {
    const auto equals = item.find('=');
    if (equals == std::string::npos) throw std::runtime_error("--shapes: expected NAME=D,D,... in '" + item + "'");
    std::vector<std::int64_t>& dims = shapes[item.substr(0, equals)];
    std::stringstream list(item.substr(equals + 1));
    for (std::string dim; std::getline(list, dim, ',');) dims.push_back(std::stoll(dim));
  }
  return shapes;
}

std::string ShapesText(const Shapes& shapes) {
  std::string text;
  for (const auto& [name, dims] : shapes) text += (text.empty() ? "" : " ") + name + "=" + ToString(TensorShape(dims));
  return text;
}

// Input data for one set, by input name: the model's type comes from a fixed-shape import.
struct InputSet {
  std::map<std::string, std::vector<std::uint8_t>> buffers;
  std::vector<InputBinding> bindings;
};

InputSet MakeInputs(const onnx::ImportedModel& model) {
  InputSet set;
  for (const auto& name : model.inputs) {
    const TensorInfo info = model.network.GetOutputInfo({model.network.FindLayer(name), 0});
    auto& bytes = set.buffers[name];
    bytes.assign(info.NumBytes(), 0);
    if (info.type == DataType::kFloat32) {
      auto* values = reinterpret_cast<float*>(bytes.data());
      for (std::size_t i = 0; i < bytes.size() / 4; ++i) values[i] = float(i * 7919 % 2000) / 1000.0f - 1.0f;
    }
    set.bindings.push_back({name, ConstTensorView{info, bytes.data()}});
  }
  return set;
}

struct Round {
  double fresh_load_ms, new_shape_ms, fixed_p50_ms, session_p50_ms;
};

Round MeasureOnce(Runtime& runtime, const std::string& path, const Shapes& shapes, const OptimizeOptions& optimize,
                  int runs) {
  Round round{};
  onnx::ImportOptions fixed_options;
  fixed_options.input_shapes = shapes;
  auto start = Clock::now();
  const onnx::ImportedModel model = onnx::ImportModel(path, fixed_options);
  const NetworkId id = runtime.LoadNetwork(runtime.Optimize(model.network, optimize));
  round.fresh_load_ms = Ms(start);
  const InputSet inputs = MakeInputs(model);
  std::vector<std::vector<std::uint8_t>> output_buffers;
  std::vector<OutputBinding> outputs;
  for (const auto& output : runtime.GetNetworkSignature(id).outputs) {
    output_buffers.emplace_back(std::max<std::size_t>(output.info.NumBytes(), 1));
    outputs.push_back({output.name, TensorView{output.info, output_buffers.back().data()}});
  }
  {
    auto context = runtime.CreateExecutionContext(id);
    context->Run(inputs.bindings, outputs);  // warm-up
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
      start = Clock::now();
      context->Run(inputs.bindings, outputs);
      times.push_back(Ms(start));
    }
    round.fixed_p50_ms = Median(times);
  }
  runtime.UnloadNetwork(id);

  onnx::SessionOptions session_options;
  session_options.optimize = optimize;
  auto session = onnx::Session::Open(runtime, path, session_options);
  session->Run(inputs.bindings);  // the new shape, and the warm-up
  round.new_shape_ms = session->GetStats().last_specialization_ms;
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    start = Clock::now();
    session->Run(inputs.bindings);
    times.push_back(Ms(start));
  }
  round.session_p50_ms = Median(times);
  return round;
}

// One session, each shape set run once in order: the resident memory it adds per set.
void PrintMemory(Runtime& runtime, const std::string& path, const std::vector<Shapes>& sets,
                 const OptimizeOptions& optimize) {
  if (ResidentMiB() < 0) return;
  onnx::SessionOptions options;
  options.optimize = optimize;
  std::vector<InputSet> inputs;
  for (const auto& shapes : sets) {
    onnx::ImportOptions fixed;
    fixed.input_shapes = shapes;
    inputs.push_back(MakeInputs(onnx::ImportModel(path, fixed)));
  }
  const double before = ResidentMiB();
  auto session = onnx::Session::Open(runtime, path, options);
  std::printf("resident memory: the opened session +%.1f MiB", ResidentMiB() - before);
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const double start = ResidentMiB();
    session->Run(inputs[i].bindings);
    std::printf("; %s +%.1f MiB", ShapesText(sets[i]).c_str(), ResidentMiB() - start);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  std::string model, backends = "CpuOneDnn,CpuRef";
  std::vector<std::string> shape_texts;
  int rounds = 5, runs = 20;
  po::options_description options("backplane_session_shapes_bench");
  options.add_options()("help", "this text")("model", po::value(&model)->required(), "a model with dynamic inputs")(
      "shapes", po::value(&shape_texts)->required(), "NAME=D,D,...;NAME=... (repeat per shape set)")(
      "backends", po::value(&backends), "preferred backends, comma-separated (default CpuOneDnn,CpuRef)")(
      "rounds", po::value(&rounds), "interleaved rounds (default 5)")("runs", po::value(&runs),
                                                                      "timed runs per latency (default 20)");
  try {
    po::variables_map values;
    po::store(po::parse_command_line(argc, argv, options), values);
    if (values.count("help")) {
      std::cout << options << "\n";
      return 0;
    }
    po::notify(values);
    OptimizeOptions optimize;
    std::stringstream list(backends);
    for (std::string id; std::getline(list, id, ',');) optimize.backends.push_back(id);
    std::vector<Shapes> sets;
    for (const auto& text : shape_texts) sets.push_back(ParseShapes(text));

    auto runtime = Runtime::Create();
    std::vector<std::vector<Round>> measured(sets.size());
    for (int round = 0; round < rounds; ++round) {
      for (std::size_t i = 0; i < sets.size(); ++i) measured[i].push_back(MeasureOnce(*runtime, model, sets[i], optimize, runs));
    }
    std::printf("%s on %s, %d rounds (medians), %d runs per latency\n", model.c_str(), backends.c_str(), rounds, runs);
    std::printf("| shapes | fresh load (ms) | session, new shape (ms) | ratio | fixed p50 (ms) | session p50 (ms) | ratio |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i < sets.size(); ++i) {
      auto median = [&](auto value) {  // over rounds; ratios are paired within a round
        std::vector<double> values;
        for (const auto& round : measured[i]) values.push_back(value(round));
        return Median(values);
      };
      std::printf("| %s | %.1f | %.1f | %.2f | %.3f | %.3f | %.3f |\n", ShapesText(sets[i]).c_str(),
                  median([](const Round& r) { return r.fresh_load_ms; }),
                  median([](const Round& r) { return r.new_shape_ms; }),
                  median([](const Round& r) { return r.new_shape_ms / r.fresh_load_ms; }),
                  median([](const Round& r) { return r.fixed_p50_ms; }),
                  median([](const Round& r) { return r.session_p50_ms; }),
                  median([](const Round& r) { return r.session_p50_ms / r.fixed_p50_ms; }));
    }
    PrintMemory(*runtime, model, sets, optimize);
  } catch (const std::exception& error) {
    std::cerr << "backplane_session_shapes_bench: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
