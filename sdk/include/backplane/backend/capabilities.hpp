// What a backend can do and which devices it drives.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/types.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace backplane::backend {

enum class DeviceKind { kCpu, kGpu, kAccelerator };
const char* ToString(DeviceKind kind);  // "cpu", "gpu", "accelerator"
std::optional<DeviceKind> DeviceKindFromString(std::string_view name);

// The named value (BackendCapabilities::values) that marks a reference implementation: correct
// everywhere, fast nowhere. The runtime's default preference order puts such a backend after
// every other (docs/backend-discovery.md §7). Declare it in the manifest and report it alike.
inline constexpr const char* kReferenceImplementation = "ReferenceImplementation";

// Declared in the manifest (readable without opening the library) and reported by the
// backend itself. Named values follow spec 001, e.g. {"ProtectedContentAllocation", false}.
struct BackendCapabilities {
  DeviceKind device_kind = DeviceKind::kCpu;
  std::vector<DataType> data_types;
  std::vector<LayerType> layer_types;
  std::map<std::string, bool> values;
};

// One device a backend can run on, for diagnostics ("pthread-Intel(R) Xeon", "NVIDIA H100").
struct DeviceInfo {
  std::string name;
  DeviceKind kind = DeviceKind::kCpu;
  bool available = true;
  std::string reason;  // why not available; empty when available
};

}  // namespace backplane::backend
