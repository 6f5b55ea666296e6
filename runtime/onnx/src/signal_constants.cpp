#include "signal_constants.hpp"

#include <backplane/checked_size.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace backplane::onnx::signal {

namespace {

[[noreturn]] void Invalid(const std::string& message) { throw Exception(ErrorCode::kInvalidArgument, message); }

void CheckSize(const std::vector<std::int64_t>& dims, DataType type, std::uint64_t max_bytes) {
  CheckedNumBytes(dims, type, max_bytes, "ImportOptions::max_model_bytes", "the result");
}

double Mel(double hertz) { return 2595.0 * std::log10(1.0 + hertz / 700.0); }
double Hertz(double mel) { return 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0); }

}  // namespace

ConstantTensor MakeWindow(Window window, std::int64_t size, bool periodic, DataType type, std::uint64_t max_bytes) {
  if (size < 0) Invalid("size " + std::to_string(size) + " must not be negative");
  CheckSize({size}, type, max_bytes);
  const double pi = std::acos(-1.0);
  const double span = static_cast<double>(periodic ? size : size - 1);
  std::vector<double> values(static_cast<std::size_t>(size), 1.0);  // one symmetric point: 1
  if (span > 0) {
    for (std::size_t n = 0; n < values.size(); ++n) {
      const double phase = 2.0 * pi * static_cast<double>(n) / span;
      switch (window) {
        case Window::kHann: values[n] = 0.5 - 0.5 * std::cos(phase); break;
        case Window::kHamming: values[n] = 25.0 / 46.0 - 21.0 / 46.0 * std::cos(phase); break;
        case Window::kBlackman: values[n] = 0.42 - 0.5 * std::cos(phase) + 0.08 * std::cos(2.0 * phase); break;
      }
    }
  }
  return ConstantTensor::FromDouble(TensorShape{size}, values, type);
}

ConstantTensor MelWeightMatrix(std::int64_t num_mel_bins, std::int64_t dft_length, std::int64_t sample_rate,
                               double lower_edge_hertz, double upper_edge_hertz, DataType type,
                               std::uint64_t max_bytes) {
  if (num_mel_bins < 1) Invalid("num_mel_bins " + std::to_string(num_mel_bins) + " must be positive");
  if (dft_length < 1) Invalid("dft_length " + std::to_string(dft_length) + " must be positive");
  if (sample_rate < 1) Invalid("sample_rate " + std::to_string(sample_rate) + " must be positive");
  if (!(lower_edge_hertz >= 0) || !(upper_edge_hertz > lower_edge_hertz) || !std::isfinite(upper_edge_hertz)) {
    Invalid("the edges " + std::to_string(lower_edge_hertz) + " and " + std::to_string(upper_edge_hertz) +
            " Hz must satisfy 0 <= lower < upper");
  }
  const std::int64_t bins = dft_length / 2 + 1;
  CheckSize({bins, num_mel_bins}, type, max_bytes);
  // The filters' corners: num_mel_bins + 2 points, mel_step = the mel range / (num_mel_bins + 2).
  const std::size_t points = static_cast<std::size_t>(num_mel_bins) + 2;
  const double low = Mel(lower_edge_hertz);
  const double step = (Mel(upper_edge_hertz) - low) / static_cast<double>(points);
  std::vector<std::int64_t> corner(points);
  for (std::size_t i = 0; i < points; ++i) {
    const double hertz = Hertz(static_cast<double>(i) * step + low);
    corner[i] = static_cast<std::int64_t>(std::floor(static_cast<double>(dft_length + 1) * hertz / static_cast<double>(sample_rate)));
    if (corner[i] >= bins) {
      Invalid("a filter reaches " + std::to_string(hertz) + " Hz, DFT bin " + std::to_string(corner[i]) +
              ", past the last bin " + std::to_string(bins - 1) + " of dft_length " + std::to_string(dft_length) +
              " at sample_rate " + std::to_string(sample_rate) + " (upper_edge_hertz " +
              std::to_string(upper_edge_hertz) + " is too high)");
    }
  }
  const auto columns = static_cast<std::size_t>(num_mel_bins);
  std::vector<double> values(static_cast<std::size_t>(bins) * columns, 0.0);
  const auto at = [&](std::int64_t bin, std::size_t filter) -> double& {
    return values[static_cast<std::size_t>(bin) * columns + filter];
  };
  for (std::size_t i = 0; i < columns; ++i) {
    const std::int64_t left = corner[i], center = corner[i + 1], right = corner[i + 2];
    if (center == left) {
      at(center, i) = 1.0;
    } else {
      for (std::int64_t j = left; j <= center; ++j) at(j, i) = static_cast<double>(j - left) / static_cast<double>(center - left);
    }
    for (std::int64_t j = center; j < right; ++j) at(j, i) = static_cast<double>(right - j) / static_cast<double>(right - center);
  }
  return ConstantTensor::FromDouble(TensorShape{bins, num_mel_bins}, values, type);
}

}  // namespace backplane::onnx::signal
