#include <backplane/backend_id.hpp>

namespace backplane {

bool IsWellFormedBackendId(std::string_view id) {
  if (id.empty() || id.size() > kMaxBackendIdLength) return false;
  for (char c : id) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) return false;
  }
  return true;
}

}  // namespace backplane
