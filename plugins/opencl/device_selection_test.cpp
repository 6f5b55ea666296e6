// The device-choice rules on made-up device lists (no OpenCL needed), and the real enumeration.
#include "device_selection.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

using backplane::backend::DeviceKind;
using backplane::opencl::ChooseDevice;
using backplane::opencl::DescribeDevices;
using backplane::opencl::DeviceCandidate;
using backplane::opencl::DeviceEnumeration;
using backplane::opencl::DevicePolicy;

DeviceCandidate Device(std::string platform, std::string name, DeviceKind kind) {
  DeviceCandidate candidate;
  candidate.platform_name = std::move(platform);
  candidate.device_name = std::move(name);
  candidate.device_version = "OpenCL 1.2";
  candidate.kind = kind;
  return candidate;
}

const DeviceCandidate kPocl = Device("Portable Computing Language", "pthread-skylake", DeviceKind::kCpu);
const DeviceCandidate kGpu = Device("NVIDIA CUDA", "NVIDIA H100", DeviceKind::kGpu);

DevicePolicy AllowCpu() {
  DevicePolicy policy;
  policy.allow_cpu = true;
  policy.allow_cpu_source = "environment variable BACKPLANE_OPENCL_ALLOW_CPU=1";
  return policy;
}

}  // namespace

TEST_CASE("no platform: no device, and the enumeration's reason") {
  DeviceEnumeration none;
  none.error = "no OpenCL platform (ICD loader found no vendors)";
  const auto choice = ChooseDevice(none, AllowCpu());
  CHECK(choice.index == -1);
  CHECK(choice.reason == "no OpenCL platform (ICD loader found no vendors)");
  const auto devices = DescribeDevices(none, AllowCpu());
  REQUIRE(devices.size() == 1);
  CHECK_FALSE(devices[0].available);
  CHECK(devices[0].reason == "no OpenCL platform (ICD loader found no vendors)");
}

TEST_CASE("a GPU is chosen before a CPU device, even when the CPU device is allowed and listed first") {
  DeviceEnumeration both;
  both.devices = {kPocl, kGpu};
  const auto choice = ChooseDevice(both, AllowCpu());
  CHECK(choice.index == 1);
  CHECK(choice.description == "NVIDIA H100 (NVIDIA CUDA, OpenCL 1.2)");
  const auto devices = DescribeDevices(both, AllowCpu());
  REQUIRE(devices.size() == 2);
  CHECK(devices[1].available);
  CHECK(devices[1].name == "NVIDIA CUDA / NVIDIA H100");
  CHECK_FALSE(devices[0].available);
  CHECK(devices[0].reason == "another device is used: NVIDIA H100 (NVIDIA CUDA, OpenCL 1.2)");
}

TEST_CASE("no GPU: the CPU device is refused unless allowed, and the reason says how to allow it") {
  DeviceEnumeration cpu_only;
  cpu_only.devices = {kPocl};
  const auto refused = ChooseDevice(cpu_only, DevicePolicy{});
  CHECK(refused.index == -1);
  CHECK(refused.reason ==
        "no GPU device; CPU device 'pthread-skylake' present but not allowed (set BACKPLANE_OPENCL_ALLOW_CPU=1 or "
        "backend option allow_cpu_device=1)");
  const auto described = DescribeDevices(cpu_only, DevicePolicy{});
  REQUIRE(described.size() == 1);
  CHECK_FALSE(described[0].available);
  CHECK(described[0].kind == DeviceKind::kCpu);
  CHECK(described[0].reason.rfind("CPU device 'pthread-skylake' present but not allowed", 0) == 0);

  const auto allowed = ChooseDevice(cpu_only, AllowCpu());
  CHECK(allowed.index == 0);
  CHECK(allowed.description ==
        "pthread-skylake (Portable Computing Language, OpenCL 1.2); cpu OpenCL device, allowed by environment "
        "variable BACKPLANE_OPENCL_ALLOW_CPU=1");
  const auto listed = DescribeDevices(cpu_only, AllowCpu());
  CHECK(listed[0].available);
  CHECK(listed[0].name ==
        "Portable Computing Language / pthread-skylake (cpu OpenCL device, allowed by environment variable "
        "BACKPLANE_OPENCL_ALLOW_CPU=1)");
}

TEST_CASE("devices without a compiler or marked unavailable are skipped with their reason") {
  DeviceCandidate broken = kGpu;
  broken.compiler_available = false;
  DeviceEnumeration list;
  list.devices = {broken, kPocl};
  const auto choice = ChooseDevice(list, AllowCpu());
  CHECK(choice.index == 1);
  const auto refused = ChooseDevice(list, DevicePolicy{});
  CHECK(refused.index == -1);
  CHECK(refused.reason.find("; device 'NVIDIA H100': the device has no OpenCL C compiler") != std::string::npos);
  CHECK(DescribeDevices(list, AllowCpu())[0].reason ==
        "the device has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE false)");
}

TEST_CASE("a device filter picks by index or by case-insensitive name, and says when nothing matches") {
  DeviceEnumeration list;
  list.devices = {kGpu, Device("AMD APP", "gfx1100", DeviceKind::kGpu)};
  DevicePolicy by_index;
  by_index.device_filter = "1";
  by_index.device_filter_source = "BACKPLANE_OPENCL_DEVICE";
  CHECK(ChooseDevice(list, by_index).index == 1);
  DevicePolicy by_name;
  by_name.device_filter = "h100";
  by_name.device_filter_source = "backend option device";
  CHECK(ChooseDevice(list, by_name).index == 0);
  DevicePolicy missing;
  missing.device_filter = "intel";
  missing.device_filter_source = "BACKPLANE_OPENCL_DEVICE";
  const auto none = ChooseDevice(list, missing);
  CHECK(none.index == -1);
  CHECK(none.reason ==
        "no OpenCL device matches BACKPLANE_OPENCL_DEVICE='intel' (devices: 0 'NVIDIA CUDA / NVIDIA H100', 1 "
        "'AMD APP / gfx1100')");
  CHECK(DescribeDevices(list, missing)[0].reason == "not selected by BACKPLANE_OPENCL_DEVICE='intel'");
}

TEST_CASE("the real enumeration is cached and self-consistent") {
  const DeviceEnumeration& first = backplane::opencl::EnumerateDevices();
  CHECK(&first == &backplane::opencl::EnumerateDevices());
  CHECK(first.devices.empty() != first.error.empty());
  for (const auto& device : first.devices) {
    CHECK(device.device != nullptr);
    CHECK_FALSE(device.device_name.empty());
    CHECK_FALSE(device.platform_name.empty());
  }
}
