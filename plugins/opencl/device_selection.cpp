#include "device_selection.hpp"

#include "opencl_device.hpp"

#include <algorithm>
#include <cctype>
#include <mutex>

namespace backplane::opencl {

namespace {

// CL_PLATFORM_NOT_FOUND_KHR (cl_khr_icd): the loader found no vendor.
constexpr cl_int kPlatformNotFoundKhr = -1001;

std::string PlatformString(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  if (clGetPlatformInfo(platform, what, size, text.data(), nullptr) != CL_SUCCESS) return {};
  text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  return text;
}

std::string DeviceString(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
  std::string text(size, '\0');
  if (clGetDeviceInfo(device, what, size, text.data(), nullptr) != CL_SUCCESS) return {};
  text.resize(text.find('\0') == std::string::npos ? text.size() : text.find('\0'));
  return text;
}

template <typename T>
T DeviceValue(cl_device_id device, cl_device_info what, T fallback) {
  T value{};
  return clGetDeviceInfo(device, what, sizeof(T), &value, nullptr) == CL_SUCCESS ? value : fallback;
}

DeviceEnumeration Enumerate() {
  DeviceEnumeration result;
  cl_uint platform_count = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &platform_count);
  if (status == kPlatformNotFoundKhr || (status == CL_SUCCESS && platform_count == 0)) {
    result.error = "no OpenCL platform (ICD loader found no vendors)";
    return result;
  }
  if (status != CL_SUCCESS) {
    result.error = "clGetPlatformIDs failed: " + ClErrorName(status);
    return result;
  }
  std::vector<cl_platform_id> platforms(platform_count);
  if (const cl_int again = clGetPlatformIDs(platform_count, platforms.data(), nullptr); again != CL_SUCCESS) {
    result.error = "clGetPlatformIDs failed: " + ClErrorName(again);
    return result;
  }
  std::string empty_platforms;
  for (cl_platform_id platform : platforms) {
    const std::string platform_name = PlatformString(platform, CL_PLATFORM_NAME);
    cl_uint device_count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count) != CL_SUCCESS ||
        device_count == 0) {
      empty_platforms += (empty_platforms.empty() ? "'" : ", '") + platform_name + "'";
      continue;
    }
    std::vector<cl_device_id> devices(device_count);
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, device_count, devices.data(), nullptr) != CL_SUCCESS) {
      empty_platforms += (empty_platforms.empty() ? "'" : ", '") + platform_name + "'";
      continue;
    }
    for (cl_device_id device : devices) {
      DeviceCandidate candidate;
      candidate.platform = platform;
      candidate.device = device;
      candidate.platform_name = platform_name;
      candidate.platform_version = PlatformString(platform, CL_PLATFORM_VERSION);
      candidate.device_name = DeviceString(device, CL_DEVICE_NAME);
      candidate.device_version = DeviceString(device, CL_DEVICE_VERSION);
      candidate.driver_version = DeviceString(device, CL_DRIVER_VERSION);
      const auto type = DeviceValue<cl_device_type>(device, CL_DEVICE_TYPE, CL_DEVICE_TYPE_DEFAULT);
      candidate.kind = (type & CL_DEVICE_TYPE_GPU)   ? backend::DeviceKind::kGpu
                       : (type & CL_DEVICE_TYPE_CPU) ? backend::DeviceKind::kCpu
                                                     : backend::DeviceKind::kAccelerator;
      candidate.device_available = DeviceValue<cl_bool>(device, CL_DEVICE_AVAILABLE, CL_FALSE) == CL_TRUE;
      candidate.compiler_available =
          DeviceValue<cl_bool>(device, CL_DEVICE_COMPILER_AVAILABLE, CL_FALSE) == CL_TRUE;
      candidate.host_unified_memory =
          DeviceValue<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY, CL_FALSE) == CL_TRUE;
      result.devices.push_back(std::move(candidate));
    }
  }
  if (result.devices.empty()) result.error = "no OpenCL device on platform(s) " + empty_platforms;
  return result;
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string FullName(const DeviceCandidate& candidate) {
  return candidate.platform_name + " / " + candidate.device_name;
}

bool IsIndex(const std::string& text) {
  return !text.empty() && text.size() < 6 &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

bool PassesFilter(const DeviceEnumeration& enumeration, std::size_t index, const DevicePolicy& policy) {
  if (policy.device_filter.empty()) return true;
  if (IsIndex(policy.device_filter)) return std::stoul(policy.device_filter) == index;
  return Lower(FullName(enumeration.devices[index])).find(Lower(policy.device_filter)) != std::string::npos;
}

// Why `candidate` cannot be used at all, whatever the policy; empty when it can.
std::string Unusable(const DeviceCandidate& candidate) {
  if (!candidate.device_available) return "the device reports CL_DEVICE_AVAILABLE false";
  if (!candidate.compiler_available) return "the device has no OpenCL C compiler (CL_DEVICE_COMPILER_AVAILABLE false)";
  return {};
}

std::string CpuNotAllowed(const DeviceCandidate& candidate) {
  return "CPU device '" + candidate.device_name +
         "' present but not allowed (set BACKPLANE_OPENCL_ALLOW_CPU=1 or backend option allow_cpu_device=1)";
}

}  // namespace

const DeviceEnumeration& EnumerateDevices() {
  static std::once_flag once;
  static DeviceEnumeration enumeration;
  std::call_once(once, [] { enumeration = Enumerate(); });
  return enumeration;
}

DeviceChoice ChooseDevice(const DeviceEnumeration& enumeration, const DevicePolicy& policy) {
  DeviceChoice choice;
  if (enumeration.devices.empty()) {
    choice.reason = enumeration.error.empty() ? "no OpenCL device" : enumeration.error;
    return choice;
  }
  // Fallback order is data: kinds in order of preference; CPU only when allowed.
  std::vector<backend::DeviceKind> order = {backend::DeviceKind::kGpu, backend::DeviceKind::kAccelerator};
  if (policy.allow_cpu) order.push_back(backend::DeviceKind::kCpu);

  std::vector<std::size_t> eligible;
  std::string unusable;
  for (std::size_t i = 0; i < enumeration.devices.size(); ++i) {
    if (!PassesFilter(enumeration, i, policy)) continue;
    if (const std::string why = Unusable(enumeration.devices[i]); !why.empty()) {
      unusable += "; device '" + enumeration.devices[i].device_name + "': " + why;
      continue;
    }
    eligible.push_back(i);
  }
  for (backend::DeviceKind kind : order) {
    for (std::size_t i : eligible) {
      const DeviceCandidate& candidate = enumeration.devices[i];
      if (candidate.kind != kind) continue;
      choice.index = static_cast<int>(i);
      choice.description = candidate.device_name + " (" + candidate.platform_name + ", " +
                           candidate.device_version + ")";
      if (kind == backend::DeviceKind::kCpu) {
        choice.description += "; cpu OpenCL device, allowed by " + policy.allow_cpu_source;
      }
      return choice;
    }
  }

  // Nothing chosen: say why, naming the filter and the CPU devices left out.
  std::string names;
  for (std::size_t i = 0; i < enumeration.devices.size(); ++i) {
    names += (names.empty() ? "" : ", ") + std::to_string(i) + " '" + FullName(enumeration.devices[i]) + "'";
  }
  bool any_filtered = false;
  for (std::size_t i = 0; i < enumeration.devices.size(); ++i) any_filtered |= PassesFilter(enumeration, i, policy);
  if (!any_filtered) {
    choice.reason = "no OpenCL device matches " + policy.device_filter_source + "='" + policy.device_filter +
                    "' (devices: " + names + ")";
    return choice;
  }
  const DeviceCandidate* cpu = nullptr;
  for (std::size_t i : eligible) {
    if (enumeration.devices[i].kind == backend::DeviceKind::kCpu) {
      cpu = &enumeration.devices[i];
      break;
    }
  }
  choice.reason = cpu ? "no GPU device; " + CpuNotAllowed(*cpu) : "no usable GPU or CPU device (devices: " + names + ")";
  choice.reason += unusable;
  return choice;
}

std::vector<backend::DeviceInfo> DescribeDevices(const DeviceEnumeration& enumeration, const DevicePolicy& policy) {
  std::vector<backend::DeviceInfo> infos;
  if (enumeration.devices.empty()) {
    backend::DeviceInfo none;
    none.name = "no OpenCL device";
    none.kind = backend::DeviceKind::kGpu;
    none.available = false;
    none.reason = enumeration.error.empty() ? "no OpenCL device" : enumeration.error;
    infos.push_back(std::move(none));
    return infos;
  }
  const DeviceChoice choice = ChooseDevice(enumeration, policy);
  for (std::size_t i = 0; i < enumeration.devices.size(); ++i) {
    const DeviceCandidate& candidate = enumeration.devices[i];
    backend::DeviceInfo info;
    info.name = FullName(candidate);
    info.kind = candidate.kind;
    info.available = choice.index == static_cast<int>(i);
    if (info.available && candidate.kind == backend::DeviceKind::kCpu) {
      info.name += " (cpu OpenCL device, allowed by " + policy.allow_cpu_source + ")";
    }
    if (!info.available) {
      if (const std::string why = Unusable(candidate); !why.empty()) {
        info.reason = why;
      } else if (!PassesFilter(enumeration, i, policy)) {
        info.reason = "not selected by " + policy.device_filter_source + "='" + policy.device_filter + "'";
      } else if (candidate.kind == backend::DeviceKind::kCpu && !policy.allow_cpu) {
        info.reason = CpuNotAllowed(candidate);
      } else {
        info.reason = "another device is used: " + choice.description;
      }
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

}  // namespace backplane::opencl
