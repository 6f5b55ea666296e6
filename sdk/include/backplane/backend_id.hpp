// BackendId: the unique name of a backend ("CpuRef", "CpuOneDnn", "GpuOpenCl").
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace backplane {

// A well-formed id is 1 to 64 characters from [A-Za-z0-9], the same alphabet as the <name>
// field of spec 001's file-naming scheme, so an id can always appear in a plugin file name.
inline constexpr std::size_t kMaxBackendIdLength = 64;
bool IsWellFormedBackendId(std::string_view id);

// Value type; cheap to copy; compares by exact (case-sensitive) text. It does not validate:
// use IsWellFormedBackendId where the text comes from outside.
class BackendId {
 public:
  BackendId() = default;
  BackendId(std::string id) : id_(std::move(id)) {}
  BackendId(const char* id) : id_(id ? id : "") {}

  const std::string& Get() const { return id_; }
  bool IsEmpty() const { return id_.empty(); }

  friend bool operator==(const BackendId& a, const BackendId& b) { return a.id_ == b.id_; }
  friend bool operator!=(const BackendId& a, const BackendId& b) { return a.id_ != b.id_; }
  friend bool operator<(const BackendId& a, const BackendId& b) { return a.id_ < b.id_; }

 private:
  std::string id_;
};

}  // namespace backplane

template <>
struct std::hash<backplane::BackendId> {
  std::size_t operator()(const backplane::BackendId& id) const noexcept {
    return std::hash<std::string>{}(id.Get());
  }
};
