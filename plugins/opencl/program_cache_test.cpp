// The on-disk program-binary cache alone, then through devices: a second load compiles nothing,
// in the same device and in a fresh one sharing the cache folder.
#include "program_cache.hpp"

#include "opencl_test_device.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <fstream>

namespace {

using backplane::opencl::BinaryKey;
using backplane::opencl::ProgramBinaryCache;
using backplane::opencl::testing::TempFolder;
using backplane::opencl::testing::TestDevice;

const std::string kSource = R"(
__kernel void scale(__global float* data, float factor) {
  const size_t i = get_global_id(0);
  data[i] *= factor;
}
)";

std::size_t BinFiles(const std::filesystem::path& folder) {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) count += entry.path().extension() == ".bin";
  return count;
}

}  // namespace

TEST_CASE("binary keys: sha256 hex, different for every field and for shifted field boundaries") {
  const std::string key = BinaryKey({"source", "-O2", "platform", "device", "driver"});
  CHECK(key.size() == 64);
  CHECK(key.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(key == BinaryKey({"source", "-O2", "platform", "device", "driver"}));
  CHECK(key != BinaryKey({"source", "-O3", "platform", "device", "driver"}));
  CHECK(key != BinaryKey({"source", "-O2", "platform", "device", "driver 2"}));
  CHECK(BinaryKey({"ab", "c"}) != BinaryKey({"a", "bc"}));
}

TEST_CASE("a stored binary loads back, and a missing or truncated or altered file loads as nothing") {
  TempFolder folder;
  const ProgramBinaryCache cache(folder.path() / "cache");
  REQUIRE(cache.Enabled());
  CHECK(cache.Directory() == folder.path() / "cache");
  CHECK(cache.FallbackNote().empty());
  const std::vector<unsigned char> binary = {1, 2, 3, 4, 5, 0, 255};
  CHECK_FALSE(cache.Load("k").has_value());
  REQUIRE(cache.Store("k", binary));
  REQUIRE(cache.Load("k").has_value());
  CHECK(*cache.Load("k") == binary);
  // Only the final file is left: the temporary one was renamed.
  CHECK(std::distance(std::filesystem::directory_iterator(cache.Directory()), {}) == 1);

  {  // one byte of the payload changed: the checksum no longer matches
    std::fstream file(cache.PathOf("k"), std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(-1, std::ios::end);
    file.put('\x7f');
  }
  CHECK_FALSE(cache.Load("k").has_value());
  REQUIRE(cache.Store("k", binary));
  CHECK(cache.Load("k").has_value());
  std::filesystem::resize_file(cache.PathOf("k"), std::filesystem::file_size(cache.PathOf("k")) - 2);
  CHECK_FALSE(cache.Load("k").has_value());
  std::ofstream(cache.PathOf("k"), std::ios::binary | std::ios::trunc) << "garbage";
  CHECK_FALSE(cache.Load("k").has_value());
}

TEST_CASE("an unusable cache folder falls back to a private temporary folder, says why, and removes it") {
  TempFolder folder;
  std::ofstream(folder.path() / "a-file") << "not a folder";
  const auto blocked = folder.path() / "a-file" / "cache";
  std::filesystem::path used;
  {
    const ProgramBinaryCache cache(blocked);
    REQUIRE(cache.Enabled());
    used = cache.Directory();
    // (Windows' temporary folder comes with a trailing separator: compare both with one.)
    CHECK((used.parent_path() / "").lexically_normal() ==
          (std::filesystem::temp_directory_path() / "").lexically_normal());
    CHECK(used.filename().string().rfind("backplane-opencl-", 0) == 0);
    CHECK(cache.FallbackNote().find("cannot create '" + blocked.string() + "'") == 0);
    CHECK(cache.FallbackNote().find("; using '" + used.string() + "' for this process only") != std::string::npos);
    const std::vector<unsigned char> binary = {9, 8, 7};
    REQUIRE(cache.Store("key", binary));
    CHECK(*cache.Load("key") == binary);
    // Two caches never share a fallback folder.
    const ProgramBinaryCache other(blocked);
    CHECK(other.Directory() != used);
  }
  CHECK_FALSE(std::filesystem::exists(used));
}

TEST_CASE("device: a program is compiled once per device, then found in memory") {
  TempFolder folder;
  auto device = TestDevice(folder.path());
  if (!device) return;
  CHECK(device->CompiledProgramCount() == 0);
  cl_program first = device->GetProgram(kSource, "");
  CHECK(first != nullptr);
  CHECK(device->CompiledProgramCount() == 1);
  CHECK(device->GetProgram(kSource, "") == first);
  CHECK(device->CompiledProgramCount() == 1);
  // Other build options are another program.
  CHECK(device->GetProgram(kSource, "-cl-fast-relaxed-math") != first);
  CHECK(device->CompiledProgramCount() == 2);
  CHECK(BinFiles(folder.path()) == 2);
  CHECK(device->ProgramCacheDirectory() == folder.path().string());
}

TEST_CASE("device: a fresh device with the same cache folder compiles nothing, and its kernels run") {
  TempFolder folder;
  {
    auto device = TestDevice(folder.path());
    if (!device) return;
    device->GetProgram(kSource, "");
    REQUIRE(device->CompiledProgramCount() == 1);
  }
  auto fresh = TestDevice(folder.path());
  REQUIRE(fresh != nullptr);
  cl_program program = fresh->GetProgram(kSource, "");
  CHECK(fresh->CompiledProgramCount() == 0);

  // The program from the binary is executable.
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, "scale", &status);
  REQUIRE(status == CL_SUCCESS);
  float data[4] = {1, 2, 3, 4};
  cl_mem buffer = clCreateBuffer(fresh->Context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(data), data, &status);
  REQUIRE(status == CL_SUCCESS);
  const float factor = 2.5f;
  clSetKernelArg(kernel, 0, sizeof(buffer), &buffer);
  clSetKernelArg(kernel, 1, sizeof(factor), &factor);
  const std::size_t global = 4;
  REQUIRE(clEnqueueNDRangeKernel(fresh->Queue(), kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
  REQUIRE(clEnqueueReadBuffer(fresh->Queue(), buffer, CL_TRUE, 0, sizeof(data), data, 0, nullptr, nullptr) == CL_SUCCESS);
  CHECK(data[0] == 2.5f);
  CHECK(data[3] == 10.0f);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
}

TEST_CASE("device: a corrupt cache file is ignored, the program rebuilt and the file rewritten") {
  TempFolder folder;
  std::filesystem::path file;
  {
    auto device = TestDevice(folder.path());
    if (!device) return;
    device->GetProgram(kSource, "");
    REQUIRE(BinFiles(folder.path()) == 1);
    file = std::filesystem::directory_iterator(folder.path())->path();
  }
  std::ofstream(file, std::ios::binary | std::ios::trunc) << "backplane-opencl-binary-v1 5 0000\nxxxxx";
  auto fresh = TestDevice(folder.path());
  REQUIRE(fresh != nullptr);
  CHECK(fresh->GetProgram(kSource, "") != nullptr);
  CHECK(fresh->CompiledProgramCount() == 1);
  // Rewritten: a third device loads it without compiling. (Not compared by size: PoCL's binaries
  // carry its kernel cache, which other tests sharing POCL_CACHE_DIR may grow meanwhile.)
  auto third = TestDevice(folder.path());
  third->GetProgram(kSource, "");
  CHECK(third->CompiledProgramCount() == 0);
}

TEST_CASE("device: source that does not compile throws kBackendFailure with the build log") {
  TempFolder folder;
  auto device = TestDevice(folder.path());
  if (!device) return;
  try {
    device->GetProgram("__kernel void broken(__global float* x) { x[0] = undefined_name; }", "");
    FAIL("no exception");
  } catch (const backplane::Exception& error) {
    CHECK(error.code() == backplane::ErrorCode::kBackendFailure);
    const std::string message = error.what();
    CHECK(message.find("GpuOpenCl: building an OpenCL program on " + device->Description()) == 0);
    CHECK(message.find("CL_BUILD_PROGRAM_FAILURE (-11)") != std::string::npos);
    CHECK(message.find("undefined_name") != std::string::npos);
  }
  CHECK(device->CompiledProgramCount() == 0);
  CHECK(BinFiles(folder.path()) == 0);
}
