// The folded signal constants against values worked out by hand (windows) and by ONNX's
// reference algorithm (MelWeightMatrix), and their refusals by text.
#include "signal_constants.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::Exception;
using backplane::TensorShape;
using backplane::onnx::ConstantTensor;
namespace signal = backplane::onnx::signal;

constexpr std::uint64_t kLimit = 1 << 20;

void CheckValues(const ConstantTensor& actual, const std::vector<double>& expected) {
  const auto values = actual.AsDoubles();
  REQUIRE(values.size() == expected.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    INFO("element " << i);
    CHECK(values[i] == doctest::Approx(expected[i]).epsilon(1e-12).scale(1.0));
  }
}

std::string ErrorOf(void (*f)()) {
  try {
    f();
  } catch (const Exception& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("signal constants: Hann, Hamming and Blackman windows, periodic and symmetric") {
  using signal::Window;
  const auto f64 = DataType::kFloat64;
  CheckValues(signal::MakeWindow(Window::kHann, 4, true, f64, kLimit), {0, 0.5, 1, 0.5});
  CheckValues(signal::MakeWindow(Window::kHann, 5, false, f64, kLimit), {0, 0.5, 1, 0.5, 0});
  CheckValues(signal::MakeWindow(Window::kHamming, 4, true, f64, kLimit), {4.0 / 46, 25.0 / 46, 1, 25.0 / 46});
  CheckValues(signal::MakeWindow(Window::kBlackman, 4, true, f64, kLimit), {0, 0.34, 1, 0.34});
  CheckValues(signal::MakeWindow(Window::kBlackman, 3, false, f64, kLimit), {0, 1, 0});
  CheckValues(signal::MakeWindow(Window::kHann, 1, false, f64, kLimit), {1});  // one symmetric point
  const ConstantTensor f32 = signal::MakeWindow(Window::kHann, 10, true, DataType::kFloat32, kLimit);
  CHECK(f32.type() == DataType::kFloat32);
  CHECK(f32.shape() == TensorShape{10});
  CHECK(signal::MakeWindow(Window::kHann, 0, true, f64, kLimit).NumElements() == 0);
  CHECK(ErrorOf([] { signal::MakeWindow(Window::kHann, -1, true, DataType::kFloat32, kLimit); }) ==
        "size -1 must not be negative");
  CHECK(ErrorOf([] { signal::MakeWindow(Window::kHann, 1 << 20, true, DataType::kFloat32, kLimit); }).find("the result") !=
        std::string::npos);
}

TEST_CASE("signal constants: MelWeightMatrix as ONNX's reference computes it") {
  // ONNX's backend test: 8 bins, dft_length 16, 8192 Hz, 0 to 4096 Hz.
  const ConstantTensor onnx_case = signal::MelWeightMatrix(8, 16, 8192, 0, 4096, DataType::kFloat32, kLimit);
  CHECK(onnx_case.shape() == TensorShape{9, 8});
  std::vector<double> expected(72, 0.0);
  for (const auto& [row, column] : std::vector<std::pair<int, int>>{{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 5}, {4, 6}, {5, 7}}) {
    expected[static_cast<std::size_t>(row * 8 + column)] = 1.0;
  }
  CheckValues(onnx_case, expected);
  // Corners at bins 0, 1, 2, 5, 9 (of 17): rising and falling slopes.
  CheckValues(signal::MelWeightMatrix(3, 32, 16000, 100, 8000, DataType::kFloat64, kLimit),
              {0, 0, 0,  1, 0, 0,  0, 1, 0,  0, 2.0 / 3, 1.0 / 3,  0, 1.0 / 3, 2.0 / 3,  0, 0, 1,  0, 0, 0.75,
               0, 0, 0.5,  0, 0, 0.25,  0, 0, 0,  0, 0, 0,  0, 0, 0,  0, 0, 0,  0, 0, 0,  0, 0, 0,  0, 0, 0,  0, 0, 0});
  CHECK(ErrorOf([] { signal::MelWeightMatrix(3, 32, 16000, 100, 40000, DataType::kFloat32, kLimit); }).find(
            ", past the last bin 16 of dft_length 32 at sample_rate 16000 (upper_edge_hertz 40000.000000 is too high)") !=
        std::string::npos);
  CHECK(ErrorOf([] { signal::MelWeightMatrix(0, 32, 16000, 0, 8000, DataType::kFloat32, kLimit); }) ==
        "num_mel_bins 0 must be positive");
  CHECK(ErrorOf([] { signal::MelWeightMatrix(3, 32, 16000, 500, 100, DataType::kFloat32, kLimit); }) ==
        "the edges 500.000000 and 100.000000 Hz must satisfy 0 <= lower < upper");
}
