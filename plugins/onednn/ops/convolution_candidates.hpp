// The convolution's implementations, best first, with the reason each ranks where it does and
// the reason it is passed over (oneDNN's own impl_list style). Convolution2d (convolution.cpp)
// tries them in order: the first oneDNN makes with a non-reference kernel is taken; when none,
// the last it could make at all. Static data and pure functions; thread-safe.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <string>
#include <vector>

namespace backplane::onednn {

// What of one convolution decides which candidates apply.
struct ConvolutionTraits {
  // 3x3, stride 1, no dilation, one group, weights not scaled per run (a channel gate's: Winograd
  // transforms the weights, which are then no longer one per input channel).
  bool winograd_shape = false;
  // The backend option winograd (default on); off, Winograd is passed over for faster loads.
  bool winograd_allowed = true;
  // The primitive's channels include the activation layout's padding (paired half-block groups
  // of an odd count): such a tensor is read in no other layout.
  bool padded = false;
};

struct ConvolutionCandidate {
  const char* name;
  dnnl::algorithm algorithm;
  bool activation_layout;  // source and destination in ExecutionSettings::activation_tag's layout; else "any"
  bool residual_as_sum;    // a residual Add as a sum post-op (copied in first); else a binary post-op
  const char* rank;        // why it ranks here
  // Why it does not apply to a convolution of `traits` computing in `type`; nullptr when it does.
  const char* (*passed_over)(const ConvolutionTraits& traits, dnnl::memory::data_type type);
};

// Every candidate, best first.
const std::vector<ConvolutionCandidate>& ConvolutionCandidates();

// One candidate to make, in one activation type.
struct ConvolutionTry {
  const ConvolutionCandidate* candidate;
  dnnl::memory::data_type type;
};

// What to make for a convolution of `traits`, in order: for each activation type in `types`
// (best first), the candidates that apply. Appends a line for each one passed over, with its
// reason, to `verdicts`.
std::vector<ConvolutionTry> ConvolutionTries(const ConvolutionTraits& traits,
                                             const std::vector<dnnl::memory::data_type>& types,
                                             std::vector<std::string>& verdicts);

// "winograd F(2x2,3x3) in bf16", for verdicts and messages.
std::string Describe(const ConvolutionTry& attempt);

}  // namespace backplane::onednn
