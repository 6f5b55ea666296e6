#include "platform/loaded_library.hpp"

#if defined(_WIN32)
#include "platform/windows_api.hpp"

#include <string>
#elif defined(__linux__)
#include <dlfcn.h>
#include <link.h>
#include <sys/sysmacros.h>

#include <cinttypes>
#include <cstdio>
#include <memory>
#endif

namespace backplane::platform {

#if defined(_WIN32)

std::optional<FileIdentity> MappedFileIdentity(void* handle) {
  std::wstring name(32768, L'\0');  // the longest extended-length path
  const DWORD length = ::GetModuleFileNameW(static_cast<HMODULE>(handle), name.data(),
                                            static_cast<DWORD>(name.size()));
  if (length == 0 || length >= name.size()) return std::nullopt;
  name.resize(length);
  return IdentityOf(std::filesystem::path(name));
}

#elif defined(__linux__)

std::optional<FileIdentity> MappedFileIdentity(void* handle) {
  link_map* map = nullptr;
  if (handle == nullptr || ::dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_ld == nullptr) {
    return std::nullopt;
  }
  const auto address = reinterpret_cast<std::uintptr_t>(map->l_ld);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> maps(std::fopen("/proc/self/maps", "re"), &std::fclose);
  if (!maps) return std::nullopt;
  // "start-end perms offset major:minor inode [path]", numbers in hex but the inode.
  char line[8192];  // a line is at most 4096 bytes of path and ~100 of fields
  while (std::fgets(line, sizeof line, maps.get())) {
    std::uintptr_t start = 0, end = 0;
    unsigned int major = 0, minor = 0;
    std::uint64_t inode = 0;
    if (std::sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %*s %*s %x:%x %" SCNu64, &start, &end, &major, &minor,
                    &inode) != 5) {
      continue;
    }
    if (address >= start && address < end) {
      if (inode == 0) return std::nullopt;  // anonymous memory: no file
      return FileIdentity{static_cast<std::uint64_t>(makedev(major, minor)), inode};
    }
  }
  return std::nullopt;
}

#else

std::optional<FileIdentity> MappedFileIdentity(void* /*handle*/) { return std::nullopt; }

#endif

}  // namespace backplane::platform
