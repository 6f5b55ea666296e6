// The ONNX signal ops whose output depends only on shape-deciding scalars (HannWindow,
// HammingWindow, BlackmanWindow, MelWeightMatrix): computed at import in double and rounded once
// to the requested floating-point type. ONNX's formulas (Operators.md; MelWeightMatrix as
// onnx/reference computes it). Each checks its result's size against `max_bytes` before
// allocating and throws Exception (kInvalidArgument) naming the bad argument.
#pragma once

#include "constant_tensor.hpp"

#include <cstdint>

namespace backplane::onnx::signal {

enum class Window { kHann, kHamming, kBlackman };

// [size] values w[n] over N = size (periodic) or size - 1 (symmetric):
// Hann sin^2(pi n / N); Hamming 25/46 - 21/46 cos(2 pi n / N);
// Blackman 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N).
// A symmetric window of one point is [1]; size 0 gives an empty tensor.
ConstantTensor MakeWindow(Window window, std::int64_t size, bool periodic, DataType type, std::uint64_t max_bytes);

// [dft_length / 2 + 1, num_mel_bins]: triangular filters between num_mel_bins + 2 points evenly
// spaced in mel (2595 log10(1 + f / 700)) from lower_edge_hertz to upper_edge_hertz, each point
// at DFT bin floor((dft_length + 1) f / sample_rate). Throws when a point's bin is past the last
// (upper_edge_hertz too high for sample_rate) or the arguments are out of range.
ConstantTensor MelWeightMatrix(std::int64_t num_mel_bins, std::int64_t dft_length, std::int64_t sample_rate,
                               double lower_edge_hertz, double upper_edge_hertz, DataType type,
                               std::uint64_t max_bytes);

}  // namespace backplane::onnx::signal
