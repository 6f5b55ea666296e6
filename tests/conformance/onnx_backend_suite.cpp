#include "onnx_backend_suite.hpp"

#include "external_data.hpp"
#include "model_file.hpp"

#include <backplane/exception.hpp>
#include <backplane/onnx_importer.hpp>
#include <backplane/onnx_session.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

namespace backplane::conformance {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxFileBytes = 1ull << 30;
constexpr const char* kKinds[] = {"node", "pytorch-converted", "pytorch-operator", "simple"};

// One test_data_set_<n> folder: input_<i>.pb and output_<i>.pb, by index.
struct DataSet {
  std::string name;
  std::vector<onnx::ConstantTensor> inputs;
  std::vector<onnx::ConstantTensor> outputs;
};

onnx::ConstantTensor ReadTensorFile(const fs::path& file) {
  std::ifstream stream(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  ::onnx::TensorProto tensor;
  if (!stream.good() && !stream.eof()) throw Exception(ErrorCode::kNotFound, file.string() + ": cannot be read");
  if (!tensor.ParseFromString(bytes)) throw Exception(ErrorCode::kInvalidArgument, file.string() + ": not a TensorProto");
  try {
    return onnx::ReadTensorProto(tensor, kMaxFileBytes, onnx::ExternalDataFolder());
  } catch (const Exception& e) {
    throw Exception(e.code(), file.filename().string() + ": " + e.what());
  }
}

// Reads <prefix>_0.pb, <prefix>_1.pb, ... until one is missing.
std::vector<onnx::ConstantTensor> ReadTensorFiles(const fs::path& folder, const std::string& prefix) {
  std::vector<onnx::ConstantTensor> tensors;
  for (std::size_t index = 0;; ++index) {
    const fs::path file = folder / (prefix + "_" + std::to_string(index) + ".pb");
    if (!fs::exists(file)) return tensors;
    tensors.push_back(ReadTensorFile(file));
  }
}

std::vector<DataSet> ReadDataSets(const fs::path& case_folder) {
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(case_folder)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      folders.push_back(entry.path());
    }
  }
  std::sort(folders.begin(), folders.end());
  std::vector<DataSet> sets;
  for (const auto& folder : folders) {
    sets.push_back({folder.filename().string(), ReadTensorFiles(folder, "input"), ReadTensorFiles(folder, "output")});
  }
  return sets;
}

// Why the suite's measure leaves `model` out, or empty.
std::string SetAsideReason(const ::onnx::ModelProto& model) {
  for (const auto& node : model.graph().node()) {
    if (node.domain() == "ai.onnx.preview.training") return "training op " + node.op_type();
  }
  for (const auto* values : {&model.graph().input(), &model.graph().output()}) {
    for (const auto& value : *values) {
      if (!value.type().has_tensor_type()) return "graph value '" + value.name() + "' is not a tensor (sequence, map or optional)";
      if (value.type().tensor_type().elem_type() == ::onnx::TensorProto::BFLOAT16) {
        return "graph value '" + value.name() + "' is bfloat16";
      }
    }
  }
  return {};
}

std::string OpOf(const SuiteCase& test, const ::onnx::ModelProto& model) {
  const std::string kind = test.name.substr(0, test.name.find('/'));
  if (kind != "node" || model.graph().node_size() == 0) return kind;
  const std::string suffix = "_expanded";
  if (test.name.size() > suffix.size() && test.name.compare(test.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return "(expanded)";
  }
  return model.graph().node(model.graph().node_size() - 1).op_type();
}

std::string IndexText(std::size_t flat, const TensorShape& shape) {
  std::vector<std::int64_t> index(shape.Rank());
  for (std::size_t axis = shape.Rank(); axis-- > 0;) {
    const auto extent = static_cast<std::size_t>(shape[axis]);
    index[axis] = static_cast<std::int64_t>(flat % extent);
    flat /= extent;
  }
  return ToString(TensorShape(index));
}

std::string UnsupportedText(const onnx::UnsupportedModelError& error) {
  if (error.nodes().empty()) return error.what();
  const auto& node = error.nodes().front();
  std::string text = node.op_type + " (opset " + std::to_string(node.opset) + "): " + node.reason;
  if (error.nodes().size() > 1) text += " (and " + std::to_string(error.nodes().size() - 1) + " more nodes)";
  return text;
}

// Runs every data set of a case through one session (a new shape or value of a shape-deciding
// input makes a new specialization); the verdict of the first set that is not a pass.
// `stage` says what a throw came from.
CaseResult RunDataSets(onnx::Session& session, const std::vector<DataSet>& sets, std::string& stage) {
  const std::vector<std::string>& names = session.InputNames();
  for (const auto& set : sets) {
    std::vector<InputBinding> inputs;
    for (std::size_t i = 0; i < set.inputs.size() && i < names.size(); ++i) {
      inputs.push_back({names[i], ConstTensorView{set.inputs[i].info(), set.inputs[i].data()}});
    }
    stage = "import or load";
    session.Specialize(inputs);
    stage = "run";
    const std::vector<onnx::SessionOutput> outputs = session.Run(inputs);
    for (std::size_t i = 0; i < set.outputs.size(); ++i) {
      const onnx::ConstantTensor actual(
          outputs[i].info, std::make_shared<const std::vector<std::uint8_t>>(std::move(outputs[i].data)));
      const std::string difference = CompareTensors(set.outputs[i], actual);
      if (!difference.empty()) {
        return {Verdict::kWrong, "", set.name + " output " + std::to_string(i) + " '" + outputs[i].name + "': " + difference};
      }
    }
  }
  return {Verdict::kPass, "", ""};
}

}  // namespace

const char* ToString(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return "pass";
    case Verdict::kRefused: return "refused";
    case Verdict::kWrong: return "wrong";
    case Verdict::kSetAside: return "set aside";
  }
  return "?";
}

std::vector<SuiteCase> FindCases(const fs::path& root) {
  std::vector<SuiteCase> cases;
  for (const char* kind : kKinds) {
    std::error_code error;
    for (fs::directory_iterator it(root / kind, error), end; !error && it != end; it.increment(error)) {
      if (fs::exists(it->path() / "model.onnx")) {
        cases.push_back({std::string(kind) + "/" + it->path().filename().string(), it->path()});
      }
    }
  }
  std::sort(cases.begin(), cases.end(), [](const SuiteCase& a, const SuiteCase& b) { return a.name < b.name; });
  return cases;
}

CaseResult RunCase(const SuiteCase& test, Runtime& runtime, const std::vector<BackendId>& backends) {
  const fs::path model_path = test.folder / "model.onnx";
  CaseResult result;
  std::string stage = "model file";
  try {
    const ::onnx::ModelProto model = onnx::ParseModelFile(model_path.string(), kMaxFileBytes);
    result.op = OpOf(test, model);
    if (std::string why = SetAsideReason(model); !why.empty()) return {Verdict::kSetAside, result.op, why};

    stage = "test data";
    const std::vector<DataSet> sets = ReadDataSets(test.folder);
    if (sets.empty()) throw Exception(ErrorCode::kInvalidArgument, "no test_data_set_* folder");

    stage = "import";
    onnx::SessionOptions options;
    options.optimize.backends = backends;
    const auto session = onnx::Session::Open(runtime, model_path.string(), options);
    for (const auto& set : sets) {
      if (set.inputs.size() != session->InputNames().size() || set.outputs.size() != session->OutputNames().size()) {
        throw Exception(ErrorCode::kInvalidArgument,
                        set.name + " has " + std::to_string(set.inputs.size()) + " inputs and " +
                            std::to_string(set.outputs.size()) + " outputs, the model " +
                            std::to_string(session->InputNames().size()) + " and " +
                            std::to_string(session->OutputNames().size()));
      }
    }
    CaseResult run = RunDataSets(*session, sets, stage);
    run.op = result.op;
    return run;
  } catch (const onnx::UnsupportedModelError& error) {
    result.detail = "import: " + UnsupportedText(error);
  } catch (const std::exception& error) {
    result.detail = stage + ": " + error.what();
  }
  result.verdict = Verdict::kRefused;
  return result;
}

std::string CompareTensors(const onnx::ConstantTensor& expected, const onnx::ConstantTensor& actual) {
  if (expected.type() != actual.type()) {
    return std::string("type ") + ToString(actual.type()) + ", expected " + ToString(expected.type());
  }
  if (expected.shape() != actual.shape()) {
    return "shape " + ToString(actual.shape()) + ", expected " + ToString(expected.shape());
  }
  std::size_t differing = 0, worst = 0;
  double worst_excess = -1;
  std::ostringstream values;
  values.precision(9);
  if (expected.IsFloatingPoint()) {
    const std::vector<double> e = expected.AsDoubles(), a = actual.AsDoubles();
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (e[i] == a[i] || (std::isnan(e[i]) && std::isnan(a[i]))) continue;
      const double excess = std::fabs(a[i] - e[i]) - (kAbsoluteTolerance + kRelativeTolerance * std::fabs(e[i]));
      if (excess <= 0) continue;  // NaN on one side only makes excess NaN: counted below
      ++differing;
      if (!(excess <= worst_excess)) {  // NaN: the worst there is
        worst_excess = std::isnan(excess) ? INFINITY : excess;
        worst = i;
      }
    }
    if (differing) values << "expected " << e[worst] << ", got " << a[worst];
  } else {
    const std::vector<std::int64_t> e = expected.ToInt64(), a = actual.ToInt64();
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (e[i] != a[i] && differing++ == 0) worst = i;
    }
    if (differing) values << "expected " << e[worst] << ", got " << a[worst];
  }
  if (!differing) return {};
  return std::to_string(differing) + " of " + std::to_string(expected.NumElements()) + " elements differ, the " +
         (expected.IsFloatingPoint() ? "largest" : "first") + " at " + IndexText(worst, expected.shape()) + ": " +
         values.str();
}

}  // namespace backplane::conformance
