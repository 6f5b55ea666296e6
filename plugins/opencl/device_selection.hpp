// Which OpenCL device the GpuOpenCl backend runs on: the process-wide list of OpenCL devices,
// and the rules that choose one of them (a GPU first; a CPU device only when allowed).
//
// The enumeration is immutable process-wide data: taken once (std::call_once) and kept for the
// life of the process, so IsAvailable and GetDevices stay cheap on the fresh backend instances
// the runtime creates. The choice is a pure function of that list and a DevicePolicy, so the
// rules are tested with made-up device lists.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <backplane/backend/capabilities.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace backplane::opencl {

// One OpenCL device as the ICD loader reported it.
struct DeviceCandidate {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platform_name;     // "Portable Computing Language"
  std::string platform_version;  // "OpenCL 3.0 PoCL 3.1 ..."
  std::string device_name;       // "pthread-skylake-avx512-Intel(R) Xeon(R) Processor"
  std::string device_version;    // "OpenCL 3.0 PoCL HSTR: ..."
  std::string driver_version;    // "3.1"
  backend::DeviceKind kind = backend::DeviceKind::kGpu;
  bool device_available = true;    // CL_DEVICE_AVAILABLE
  bool compiler_available = true;  // CL_DEVICE_COMPILER_AVAILABLE
  bool host_unified_memory = false;  // CL_DEVICE_HOST_UNIFIED_MEMORY
};

// Every device of every platform, in platform then device order, or why there are none.
struct DeviceEnumeration {
  std::vector<DeviceCandidate> devices;
  // Why `devices` is empty ("no OpenCL platform (ICD loader found no vendors)"); empty when
  // it is not.
  std::string error;
};

// The OpenCL devices of this process, enumerated on the first call and cached for the life of
// the process. Thread-safe. Never throws (a failing OpenCL call becomes `error`).
const DeviceEnumeration& EnumerateDevices();

// What the application allows and asks for.
struct DevicePolicy {
  bool allow_cpu = false;
  // Who allowed it, for messages: "environment variable BACKPLANE_OPENCL_ALLOW_CPU=1" or
  // "backend option allow_cpu_device=1". Empty when not allowed.
  std::string allow_cpu_source;
  // Restricts the choice: a decimal index into the enumeration (as GetDevices lists it), or a
  // case-insensitive substring of "<platform name> / <device name>". Empty: no restriction.
  std::string device_filter;
  std::string device_filter_source;  // "BACKPLANE_OPENCL_DEVICE" or "backend option device"
};

// The outcome of applying a DevicePolicy to an enumeration.
struct DeviceChoice {
  // Index into the enumeration's devices; -1 when no device may be used.
  int index = -1;
  // When index is -1: why ("no GPU device; CPU device 'pthread-...' present but not allowed
  // (set BACKPLANE_OPENCL_ALLOW_CPU=1 or backend option allow_cpu_device=1)").
  std::string reason;
  // Human-readable description of the chosen device, e.g. "pthread-... (Portable Computing
  // Language, OpenCL 3.0 PoCL ...); cpu OpenCL device, allowed by environment variable
  // BACKPLANE_OPENCL_ALLOW_CPU=1".
  std::string description;
};

// Chooses the device for `policy`: among usable devices (available, with a compiler) that pass
// the filter, the first GPU, else the first accelerator, else — only when the policy allows
// it — the first CPU device. Never throws except on out-of-memory.
DeviceChoice ChooseDevice(const DeviceEnumeration& enumeration, const DevicePolicy& policy);

// One DeviceInfo per enumerated device: "<platform> / <device>", its kind, and whether the
// policy lets the backend use it (the chosen device is available; every other one is
// "unavailable: <why>"). When nothing was enumerated, one entry named "no OpenCL device" that
// is unavailable with the enumeration's error.
std::vector<backend::DeviceInfo> DescribeDevices(const DeviceEnumeration& enumeration, const DevicePolicy& policy);

}  // namespace backplane::opencl
