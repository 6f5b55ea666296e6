// BackendId and the well-formedness rule for ids coming from outside (plugins, manifests).
#include <backplane/backend_id.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <unordered_set>

namespace backplane {
namespace {

TEST_CASE("IsWellFormedBackendId accepts 1 to 64 letters and digits") {
  CHECK(IsWellFormedBackendId("CpuRef"));
  CHECK(IsWellFormedBackendId("GpuOpenCl"));
  CHECK(IsWellFormedBackendId("A"));
  CHECK(IsWellFormedBackendId("7"));
  CHECK(IsWellFormedBackendId("Gpu456"));
  CHECK(IsWellFormedBackendId("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"));
  CHECK(IsWellFormedBackendId(std::string(kMaxBackendIdLength, 'x')));
}

TEST_CASE("IsWellFormedBackendId rejects empty and over-long ids") {
  CHECK_FALSE(IsWellFormedBackendId(""));
  CHECK_FALSE(IsWellFormedBackendId(std::string_view{}));
  CHECK(kMaxBackendIdLength == 64);
  CHECK_FALSE(IsWellFormedBackendId(std::string(kMaxBackendIdLength + 1, 'x')));
  CHECK_FALSE(IsWellFormedBackendId(std::string(1000, 'x')));
}

TEST_CASE("IsWellFormedBackendId rejects characters outside [A-Za-z0-9]") {
  // The same alphabet as spec 001's <name> field: "Gpu.Acc" and "Arm%Co" are its examples.
  const char* const ill_formed[] = {
      "Gpu.Acc", "Arm%Co", "Cpu_Ref", "Cpu-Ref", "Cpu Ref", " CpuRef", "CpuRef ",
      "Cpu/Ref", "Cpu\\Ref", "Cpu:Ref", "CpuRef\n", "Cpu\tRef", "..", "Cpu,Ref",
      "CpuR\xC3\xA9" /* UTF-8 e-acute */, "\xFF",
  };
  for (const char* id : ill_formed) {
    INFO("id \"" << std::string(id) << "\"");
    CHECK_FALSE(IsWellFormedBackendId(id));
  }
}

TEST_CASE("IsWellFormedBackendId sees the whole view, embedded NUL included") {
  CHECK_FALSE(IsWellFormedBackendId(std::string_view("Cpu\0Ref", 7)));
  CHECK(IsWellFormedBackendId(std::string_view("Cpu\0Ref", 3)));
}

TEST_CASE("BackendId compares by exact, case-sensitive text") {
  CHECK(BackendId("CpuRef") == BackendId(std::string("CpuRef")));
  CHECK(BackendId("CpuRef") != BackendId("cpuref"));
  CHECK_FALSE(BackendId("CpuRef") == BackendId("CpuRef "));
  CHECK(BackendId("A") < BackendId("B"));
  CHECK(BackendId("B") < BackendId("a"));  // byte order
  CHECK_FALSE(BackendId("A") < BackendId("A"));
  CHECK(BackendId("GpuOpenCl").Get() == "GpuOpenCl");
}

TEST_CASE("BackendId from a null pointer or nothing is empty") {
  CHECK(BackendId().IsEmpty());
  CHECK(BackendId(static_cast<const char*>(nullptr)).IsEmpty());
  CHECK(BackendId(static_cast<const char*>(nullptr)).Get().empty());
  CHECK(BackendId("").IsEmpty());
  CHECK_FALSE(BackendId("CpuRef").IsEmpty());
}

TEST_CASE("BackendId does not validate and hashes by its text") {
  // Validation is IsWellFormedBackendId's job; BackendId keeps whatever text it is given.
  CHECK(BackendId("Not/Valid").Get() == "Not/Valid");
  CHECK(std::hash<BackendId>{}(BackendId("CpuRef")) == std::hash<std::string>{}("CpuRef"));
  std::unordered_set<BackendId> ids{"CpuRef", "GpuOpenCl", "CpuRef"};
  CHECK(ids.size() == 2);
  CHECK(ids.count(BackendId("GpuOpenCl")) == 1);
  CHECK(ids.count(BackendId("gpuopencl")) == 0);
}

}  // namespace
}  // namespace backplane
