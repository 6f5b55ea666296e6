#include "convolution_candidates.hpp"

namespace backplane::onednn {

namespace {
using dnnl::algorithm;
using dnnl::memory;

const char* TypeName(memory::data_type type) {
  switch (type) {
    case memory::data_type::f32: return "f32";
    case memory::data_type::bf16: return "bf16";
    default: return "another type";
  }
}
}  // namespace

const std::vector<ConvolutionCandidate>& ConvolutionCandidates() {
  static const std::vector<ConvolutionCandidate> candidates{
      {"winograd F(2x2,3x3)", algorithm::convolution_winograd, true, true,
       "fastest where it applies: measured ~18% faster than direct on resnet18, ~5% on resnet50 with 2 "
       "threads; its kernel takes a residual only as a sum post-op",
       [](const ConvolutionTraits& traits, memory::data_type) -> const char* {
         if (!traits.winograd_allowed) return "the option winograd=0 (faster loads: no weight transform)";
         return traits.winograd_shape ? nullptr
                                      : "not a 3x3 stride-1 undilated convolution of one group with constant weights";
       }},
      {"direct, residual as sum", algorithm::convolution_direct, true, true,
       "in bf16 a residual as a sum: oneDNN's AMX (brgemm) convolutions take no full-tensor binary operand and "
       "fall back to an older kernel with one (mobilenet_v2 1.9 -> 1.7 ms, resnet50 7.2 -> 6.7 ms)",
       [](const ConvolutionTraits&, memory::data_type type) -> const char* {
         return type != memory::data_type::f32 ? nullptr : "in f32 the residual is read in place (next candidate)";
       }},
      {"direct", algorithm::convolution_direct, true, false,
       "in the activation layout with a residual as a binary post-op read in place (on resnet50 ~10% faster "
       "than a sum with its copy)",
       [](const ConvolutionTraits&, memory::data_type) -> const char* { return nullptr; }},
      {"direct in oneDNN's own layouts", algorithm::convolution_direct, false, true,
       "the layouts oneDNN picks by itself (\"any\") when it has no fast kernel for the activation layout; a "
       "residual as a sum",
       [](const ConvolutionTraits& traits, memory::data_type) -> const char* {
         return traits.padded ? "its padded channels are the activation layout's padding, read in no other layout"
                              : nullptr;
       }},
  };
  return candidates;
}

std::vector<ConvolutionTry> ConvolutionTries(const ConvolutionTraits& traits,
                                             const std::vector<memory::data_type>& types,
                                             std::vector<std::string>& verdicts) {
  std::vector<ConvolutionTry> tries;
  for (const memory::data_type type : types) {
    for (const ConvolutionCandidate& candidate : ConvolutionCandidates()) {
      const ConvolutionTry attempt{&candidate, type};
      if (const char* why = candidate.passed_over(traits, type)) {
        verdicts.push_back(Describe(attempt) + ": passed over, " + why);
      } else {
        tries.push_back(attempt);
      }
    }
  }
  return tries;
}

std::string Describe(const ConvolutionTry& attempt) {
  return std::string(attempt.candidate->name) + " in " + TypeName(attempt.type);
}

}  // namespace backplane::onednn
