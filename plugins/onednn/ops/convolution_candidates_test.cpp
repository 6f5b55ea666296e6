// The convolution's ordered candidates: which apply to which convolution, in what order, and
// the reason each one passed over is given.
#include "convolution_candidates.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace backplane::onednn {
namespace {

using dnnl::memory;

// The tries for `traits` in `types`, as "name in type" lines.
std::vector<std::string> Tries(const ConvolutionTraits& traits, const std::vector<memory::data_type>& types,
                               std::vector<std::string>& verdicts) {
  std::vector<std::string> names;
  for (const ConvolutionTry& attempt : ConvolutionTries(traits, types, verdicts)) names.push_back(Describe(attempt));
  return names;
}

TEST_CASE("convolution candidates: Winograd first for 3x3 stride 1, then direct in the activation layout, then any") {
  std::vector<std::string> verdicts;
  ConvolutionTraits traits;
  traits.winograd_shape = true;
  CHECK(Tries(traits, {memory::data_type::f32}, verdicts) ==
        std::vector<std::string>{"winograd F(2x2,3x3) in f32", "direct in f32",
                                 "direct in oneDNN's own layouts in f32"});
  REQUIRE(verdicts.size() == 1);
  CHECK(verdicts[0] == "direct, residual as sum in f32: passed over, in f32 the residual is read in place "
                       "(next candidate)");
  const auto& winograd = *ConvolutionTries(traits, {memory::data_type::f32}, verdicts).front().candidate;
  CHECK(winograd.algorithm == dnnl::algorithm::convolution_winograd);
  CHECK(winograd.residual_as_sum);  // its kernel has no binary post-op
}

TEST_CASE("convolution candidates: the option winograd=0 passes Winograd over, saying why") {
  std::vector<std::string> verdicts;
  ConvolutionTraits traits;
  traits.winograd_shape = true;
  traits.winograd_allowed = false;
  CHECK(Tries(traits, {memory::data_type::f32}, verdicts) ==
        std::vector<std::string>{"direct in f32", "direct in oneDNN's own layouts in f32"});
  CHECK(verdicts.front() == "winograd F(2x2,3x3) in f32: passed over, the option winograd=0 (faster loads: no weight "
                            "transform)");
}

TEST_CASE("convolution candidates: in bf16 the residual is a sum first, and f32 follows every bf16 candidate") {
  std::vector<std::string> verdicts;
  ConvolutionTraits traits;
  traits.winograd_shape = false;
  CHECK(Tries(traits, {memory::data_type::bf16, memory::data_type::f32}, verdicts) ==
        std::vector<std::string>{"direct, residual as sum in bf16", "direct in bf16",
                                 "direct in oneDNN's own layouts in bf16", "direct in f32",
                                 "direct in oneDNN's own layouts in f32"});
  CHECK(verdicts == std::vector<std::string>{
                        "winograd F(2x2,3x3) in bf16: passed over, not a 3x3 stride-1 undilated convolution of one "
                        "group with constant weights",
                        "winograd F(2x2,3x3) in f32: passed over, not a 3x3 stride-1 undilated convolution of one "
                        "group with constant weights",
                        "direct, residual as sum in f32: passed over, in f32 the residual is read in place "
                        "(next candidate)"});
}

TEST_CASE("convolution candidates: padded channels stay in the activation layout") {
  std::vector<std::string> verdicts;
  ConvolutionTraits traits;
  traits.padded = true;
  CHECK(Tries(traits, {memory::data_type::f32}, verdicts) == std::vector<std::string>{"direct in f32"});
  CHECK(verdicts.back() == "direct in oneDNN's own layouts in f32: passed over, its padded channels are the "
                           "activation layout's padding, read in no other layout");
  for (const ConvolutionCandidate& candidate : ConvolutionCandidates()) {
    CAPTURE(candidate.name);
    CHECK(std::string(candidate.rank).size() > 20);  // each says why it ranks where it does
  }
}

}  // namespace
}  // namespace backplane::onednn
