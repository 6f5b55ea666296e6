// libFuzzer target: the ONNX importer (backplane::onnx::ImportModelFromMemory) on arbitrary
// bytes. The importer and the runtime are compiled with coverage instrumentation too
// (BACKPLANE_BUILD_FUZZERS adds -fsanitize=fuzzer-no-link to every target), so the fuzzer
// steers by what happens inside the converters, shape inference and constant folding.
//
// The contract under test: a bad model is a backplane::Exception (UnsupportedModelError is
// one); anything else escaping (std::out_of_range, std::length_error, ...), a crash, a sanitizer
// report, a timeout or memory over libFuzzer's -rss_limit_mb is a finding. The import's memory
// budget is lowered to 256 MiB (the default, 8 GiB, is for real hosts), well under the
// -rss_limit_mb scripts/fuzz.sh sets (2 GiB), so staying inside the budget is what is tested.
// From memory the importer reads no file: a tensor with external data is an Exception.
#include <backplane/onnx_importer.hpp>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const backplane::onnx::ImportOptions options = [] {
    backplane::onnx::ImportOptions lowered;
    lowered.memory_budget_bytes = 256ull << 20;
    return lowered;
  }();
  try {
    backplane::onnx::ImportModelFromMemory(data, size, "fuzz.onnx", options);
  } catch (const backplane::Exception&) {
    // The documented failure for a model that is not valid or not supported.
  }
  return 0;
}
