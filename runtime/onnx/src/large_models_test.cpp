// resnet18 (also saved with external data), mobilenet_v2 (random weights, opset 13) and a
// seq-128 TransformerEncoderLayer (opset 17) on CpuRef against PyTorch. The models are made on
// demand by the ctest fixture "onnx: make large models" (tests/data/generate_models.py
// --large); without them (no torch) each test says so and passes without checking anything.
#include "model_check.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

namespace {

using backplane::onnx::testing::CheckMatchesExpected;

// `expected_stem`: the model whose .npy files `stem` uses (default: its own).
void CheckLargeModel(const std::string& stem, const std::string& expected_stem = {}) {
  const std::string folder = BACKPLANE_ONNX_LARGE_MODELS;
  if (!std::filesystem::exists(folder + "/" + stem + ".onnx")) {
    MESSAGE("skipped: " << folder << "/" << stem << ".onnx is missing (run tests/data/generate_models.py --large "
                        << folder << " with /usr/bin/python3 and python3-torch, python3-torchvision)");
    return;
  }
  const auto run = CheckMatchesExpected(folder, stem, {}, 1e-4, expected_stem);
  MESSAGE(stem << ": import " << run.import_ms << " ms, optimize+load " << run.load_ms << " ms, run " << run.run_ms
               << " ms");
}

}  // namespace

TEST_CASE("resnet18") { CheckLargeModel("resnet18"); }
// The same model saved with onnx.save_model(save_as_external_data=True): a small .onnx and its
// weights in resnet18_external.data beside it.
TEST_CASE("resnet18_external") { CheckLargeModel("resnet18_external", "resnet18"); }
TEST_CASE("mobilenet_v2") { CheckLargeModel("mobilenet_v2"); }
TEST_CASE("transformer_seq128") { CheckLargeModel("transformer_seq128"); }
