// The signal ops' import (convert_signal.cpp): a window folds when its size is known and names
// the size as a value input when it is not; STFT (Gather, window, Dft) and DFT-20's axis and
// dft_length inputs on CpuRef against a direct DFT written here; model errors by text.
#include "model_builder.hpp"

#include <backplane/onnx_importer.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <map>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::Exception;
using backplane::NpyArray;
using backplane::TensorShape;
using backplane::onnx::UnsupportedModelError;
using namespace backplane::onnx::testing;

std::vector<float> Ramp(std::int64_t n, float scale) {
  std::vector<float> values;
  for (std::int64_t k = 0; k < n; ++k) values.push_back(std::sin(0.7f * static_cast<float>(k)) * scale + 0.25f);
  return values;
}

// The transform of points[0 .. n) (complex), bins 0 .. bins - 1.
std::vector<std::complex<double>> Direct(const std::vector<std::complex<double>>& points, std::size_t n, std::size_t bins) {
  std::vector<std::complex<double>> out;
  const double pi = std::acos(-1.0);
  for (std::size_t k = 0; k < bins; ++k) {
    std::complex<double> sum = 0;
    for (std::size_t t = 0; t < n && t < points.size(); ++t) sum += points[t] * std::polar(1.0, -2 * pi * double(t * k % n) / double(n));
    out.push_back(sum);
  }
  return out;
}

void CheckClose(const std::vector<float>& actual, const std::vector<double>& expected) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    INFO("element " << i);
    CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(1e-5).scale(1.0));
  }
}

std::string ErrorOf(const ::onnx::ModelProto& model) {
  try {
    ImportProto(model);
  } catch (const Exception& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("signal import: HannWindow folds for a known size, and names a run-time size as a value input") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(17, "HannWindow", {"size"}, {"y"}, node);
  AddInt64Initializer(*model.mutable_graph(), "size", 4);
  CheckClose(Floats(Run(model, {}).at("y")), {0, 0.5, 1, 0.5});

  auto runtime = OneNode(17, "HannWindow", {"size"}, {"y"}, node);
  SetTensorType(*runtime.mutable_graph()->add_input(), "size", ::onnx::TensorProto::INT64, {});
  try {
    ImportProto(runtime);
    FAIL("imported");
  } catch (const UnsupportedModelError& error) {
    REQUIRE(error.nodes().size() == 1);
    CHECK(error.nodes()[0].value_inputs == std::vector<std::string>{"size"});
  }
}

TEST_CASE("signal import: STFT with a window is its frames, windowed, transformed (onesided)") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(17, "STFT", {"signal", "frame_step", "window"}, {"y"}, node);
  SetTensorType(*model.mutable_graph()->add_input(), "signal", ::onnx::TensorProto::FLOAT, {1, 20, 1});
  SetTensorType(*model.mutable_graph()->add_input(), "window", ::onnx::TensorProto::FLOAT, {8});
  AddInt64Initializer(*model.mutable_graph(), "frame_step", 4);
  const auto signal = Ramp(20, 1.0f), window = Ramp(8, 0.5f);
  const NpyArray y = Run(model, {{"signal", Array(DataType::kFloat32, TensorShape{1, 20, 1}, signal)},
                                 {"window", Array(DataType::kFloat32, TensorShape{8}, window)}})
                         .at("y");
  CHECK(y.shape == TensorShape{1, 4, 5, 2});  // 1 + (20 - 8) / 4 frames, 8 / 2 + 1 bins
  std::vector<double> expected;
  for (std::size_t f = 0; f < 4; ++f) {
    std::vector<std::complex<double>> frame;
    for (std::size_t t = 0; t < 8; ++t) frame.emplace_back(double(signal[f * 4 + t]) * double(window[t]));
    for (const auto& bin : Direct(frame, 8, 5)) {
      expected.push_back(bin.real());
      expected.push_back(bin.imag());
    }
  }
  CheckClose(Floats(y), expected);
}

TEST_CASE("signal import: STFT of a complex signal with frame_length, both sides, and DFT-20 with axis and dft_length inputs") {
  ::onnx::NodeProto* node = nullptr;
  auto stft = OneNode(17, "STFT", {"signal", "frame_step", "", "frame_length"}, {"y"}, node);
  AddInt(*node, "onesided", 0);
  SetTensorType(*stft.mutable_graph()->add_input(), "signal", ::onnx::TensorProto::FLOAT, {1, 9, 2});
  AddInt64Initializer(*stft.mutable_graph(), "frame_step", 3);
  AddInt64Initializer(*stft.mutable_graph(), "frame_length", 5);
  const auto signal = Ramp(18, 2.0f);
  const NpyArray y = Run(stft, {{"signal", Array(DataType::kFloat32, TensorShape{1, 9, 2}, signal)}}).at("y");
  CHECK(y.shape == TensorShape{1, 2, 5, 2});
  std::vector<double> expected;
  for (std::size_t f = 0; f < 2; ++f) {
    std::vector<std::complex<double>> frame;
    for (std::size_t t = 0; t < 5; ++t) frame.emplace_back(signal[(f * 3 + t) * 2], signal[(f * 3 + t) * 2 + 1]);
    for (const auto& bin : Direct(frame, 5, 5)) {
      expected.push_back(bin.real());
      expected.push_back(bin.imag());
    }
  }
  CheckClose(Floats(y), expected);

  auto dft = OneNode(20, "DFT", {"x", "length", "axis"}, {"y"}, node);
  SetTensorType(*dft.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {6, 2, 1});
  AddInt64Initializer(*dft.mutable_graph(), "length", 8);
  AddInt64Initializer(*dft.mutable_graph(), "axis", -3);  // axis 0 of [6, 2, 1]
  const auto x = Ramp(12, 1.0f);
  const NpyArray z = Run(dft, {{"x", Array(DataType::kFloat32, TensorShape{6, 2, 1}, x)}}).at("y");
  CHECK(z.shape == TensorShape{8, 2, 2});
  std::vector<double> transformed(32);
  for (std::size_t column = 0; column < 2; ++column) {
    std::vector<std::complex<double>> points;
    for (std::size_t t = 0; t < 6; ++t) points.emplace_back(x[t * 2 + column]);
    const auto bins = Direct(points, 8, 8);  // zero-padded to 8
    for (std::size_t k = 0; k < 8; ++k) {
      transformed[(k * 2 + column) * 2] = bins[k].real();
      transformed[(k * 2 + column) * 2 + 1] = bins[k].imag();
    }
  }
  CheckClose(Floats(z), transformed);
}

TEST_CASE("signal import: model errors name what is wrong") {
  ::onnx::NodeProto* node = nullptr;
  auto dft = OneNode(17, "DFT", {"x"}, {"y"}, node);
  AddInt(*node, "onesided", 1);
  SetTensorType(*dft.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 8, 2});
  CHECK(ErrorOf(dft).find("onesided output needs a real signal (a trailing axis of 1)") != std::string::npos);

  auto axis = OneNode(17, "DFT", {"x"}, {"y"}, node);
  AddInt(*node, "axis", 2);
  SetTensorType(*axis.mutable_graph()->add_input(), "x", ::onnx::TensorProto::FLOAT, {1, 8, 1});
  CHECK(ErrorOf(axis).find("axis 2 is out of range [-3, -2] or [0, 1] for input [1,8,1]") != std::string::npos);

  auto stft = OneNode(17, "STFT", {"signal", "frame_step", "", "frame_length"}, {"y"}, node);
  SetTensorType(*stft.mutable_graph()->add_input(), "signal", ::onnx::TensorProto::FLOAT, {1, 20, 1});
  AddInt64Initializer(*stft.mutable_graph(), "frame_step", 4);
  AddInt64Initializer(*stft.mutable_graph(), "frame_length", 30);
  CHECK(ErrorOf(stft).find("frame_length 30 must be in [1, 20], the signal's length") != std::string::npos);
}
