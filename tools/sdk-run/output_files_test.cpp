#include "output_files.hpp"

#include <doctest/doctest.h>

namespace backplane::sdk_run {
namespace {

TEST_CASE("output names become safe file names") {
  CHECK(SanitizeFileName("output") == "output");
  CHECK(SanitizeFileName("logits.v2-final_0") == "logits.v2-final_0");
  CHECK(SanitizeFileName("/head/fc:0") == "_head_fc_0");
  CHECK(SanitizeFileName("a b\\c") == "a_b_c");
  CHECK(SanitizeFileName("..") == "_..");
  CHECK(SanitizeFileName(".hidden") == "_.hidden");
  CHECK(SanitizeFileName("") == "_");
  CHECK(SanitizeFileName("\xc3\xa9t\xc3\xa9") == "__t__");  // UTF-8 bytes, one '_' each
}

}  // namespace
}  // namespace backplane::sdk_run
