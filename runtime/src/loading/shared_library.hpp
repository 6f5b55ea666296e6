// An open shared library (Boost.DLL), by absolute path, with local symbol binding.
#pragma once

#include "platform/regular_file.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace backplane::loading {

// Owns one OS handle on a library; closing happens in the destructor, so whoever holds the
// last reference decides when the library is unloaded (objects created by its code must be
// gone by then). Thread-safe to read symbols from.
class SharedLibrary {
 public:
  // Opens `path` (must be absolute). Throws backplane::Exception (kBackendFailure) with the
  // OS loader's message ("not an ELF file", "undefined symbol ...") when it cannot be opened.
  // `name` (default: `path`) is the library's name in messages and Path(): the file a pinned
  // image (platform::PinnedImage) at `path` was copied from.
  static std::shared_ptr<SharedLibrary> Open(const std::filesystem::path& path,
                                             const std::filesystem::path& name = {});
  ~SharedLibrary();

  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  const std::filesystem::path& Path() const { return path_; }
  // The identity of the file the OS loader mapped (platform::MappedFileIdentity), or nullopt
  // where the platform cannot tell.
  std::optional<platform::FileIdentity> MappedFile() const;
  bool Has(const char* symbol) const;
  // Address of `symbol`, or null when it is not exported.
  void* Find(const char* symbol) const;

  template <typename T>
  T* FindAs(const char* symbol) const {
    return reinterpret_cast<T*>(Find(symbol));
  }

 private:
  struct Handle;
  SharedLibrary(std::filesystem::path path, std::unique_ptr<Handle> handle);
  std::filesystem::path path_;
  std::unique_ptr<Handle> handle_;
};

}  // namespace backplane::loading
