// backplane-classify: the smallest complete Backplane application. Imports an ONNX model, lets
// the runtime place it on the preferred backends, runs it once on inputs filled with a constant
// and prints each output's shape and first values. Built by docs/app-developers.md's CMake and
// pkg-config lines (and by the test "packaging: the app example builds against the installed
// SDK with CMake and with pkg-config").
//
//   backplane-classify MODEL.onnx [BACKEND,...]     e.g. backplane-classify mlp.onnx CpuRef
//
// Exits 0 after a run, 1 with the library's message on any error (a bad model, an unknown
// backend), 2 on a usage error.
#include <backplane/onnx_importer.hpp>
#include <backplane/runtime.hpp>
#include <backplane/version.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: backplane-classify MODEL.onnx [BACKEND,...]\n";
    return 2;
  }
  try {
    using namespace backplane;
    // The headers this program was compiled with, and the library it loaded.
    std::cout << "Backplane headers " << ToString(kSdkVersion) << ", library "
              << ToString(LoadedSdkVersion()) << "\n";

    onnx::ImportedModel model = onnx::ImportModel(argv[1]);
    std::unique_ptr<Runtime> runtime = Runtime::Create();

    OptimizeOptions options;
    if (argc == 3) {
      std::istringstream list(argv[2]);
      for (std::string id; std::getline(list, id, ',');) options.backends.push_back(BackendId(id));
    }
    NetworkId id = runtime->LoadNetwork(runtime->Optimize(model.network, options));

    // One buffer per input and output, shaped as the loaded network says.
    NetworkSignature signature = runtime->GetNetworkSignature(id);
    std::vector<std::vector<std::uint8_t>> buffers;
    std::vector<InputBinding> inputs;
    std::vector<OutputBinding> outputs;
    buffers.reserve(signature.inputs.size() + signature.outputs.size());
    for (const TensorSignature& input : signature.inputs) {
      buffers.emplace_back(input.info.NumBytes(), std::uint8_t{0});
      if (input.info.type == DataType::kFloat32) {
        std::vector<float> ones(static_cast<std::size_t>(input.info.shape.NumElements()), 1.0f);
        std::copy(ones.begin(), ones.end(), reinterpret_cast<float*>(buffers.back().data()));
      }
      inputs.push_back({input.name, {input.info, buffers.back().data()}});
    }
    for (const TensorSignature& output : signature.outputs) {
      buffers.emplace_back(output.info.NumBytes(), std::uint8_t{0});
      outputs.push_back({output.name, {output.info, buffers.back().data()}});
    }

    runtime->CreateExecutionContext(id)->Run(inputs, outputs);

    for (const OutputBinding& output : outputs) {
      std::cout << output.name << " " << ToString(output.tensor.info.shape);
      if (output.tensor.info.type == DataType::kFloat32) {
        const auto* values = static_cast<const float*>(output.tensor.data);
        const std::int64_t shown = std::min<std::int64_t>(output.tensor.info.shape.NumElements(), 4);
        for (std::int64_t i = 0; i < shown; ++i) std::cout << (i == 0 ? ": " : " ") << values[i];
      }
      std::cout << "\n";
    }
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "backplane-classify: " << error.what() << "\n";
    return 1;
  }
}
