// libFuzzer target: the manifest checker (discovery::CheckManifestText) on arbitrary text.
//
// The contract under test: it never throws, crashes or hangs for bad content; every problem is
// a ManifestProblem in the result. The manifest "lies" in a scratch folder holding one empty
// file named like the seeds' library (Backplane_CpuRef_backend.so), so a well-formed manifest
// passes every check (the library is never opened or hashed here).
#include "discovery/manifest.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

// The scratch folder, made once per process (idempotent, so parallel jobs may share it).
std::filesystem::path ManifestFile() {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / "backplane-fuzz-manifest";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "Backplane_CpuRef_backend.so", std::ios::app).flush();
  return folder / "Backplane_CpuRef_backend.json";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const backplane::loading::TargetTags target = backplane::loading::RuntimeTargetTags();
  static const std::filesystem::path file = ManifestFile();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const backplane::discovery::ManifestCheck check =
      backplane::discovery::CheckManifestText(file, text, target);
  // A result is either a manifest or at least one problem, never both or neither.
  if (check.manifest.has_value() == !check.problems.empty()) std::abort();
  return 0;
}
