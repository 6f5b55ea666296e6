#include "loading/shared_library.hpp"

#include <backplane/exception.hpp>

#include <boost/dll/shared_library.hpp>

namespace backplane::loading {

struct SharedLibrary::Handle {
  boost::dll::shared_library library;
};

SharedLibrary::SharedLibrary(std::filesystem::path path, std::unique_ptr<Handle> handle)
    : path_(std::move(path)), handle_(std::move(handle)) {}

SharedLibrary::~SharedLibrary() = default;

std::shared_ptr<SharedLibrary> SharedLibrary::Open(const std::filesystem::path& path) {
  if (!path.is_absolute()) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "refusing to open " + path.string() + ": not an absolute path");
  }
  auto handle = std::make_unique<Handle>();
  try {
    // rtld_local: the plugin's symbols do not leak into the global namespace, so two plugins
    // exporting the same names (all of them do) never collide. No decorations, no system
    // search: exactly this file.
    handle->library.load(path, boost::dll::load_mode::rtld_local | boost::dll::load_mode::rtld_lazy);
  } catch (const std::system_error& error) {
    std::string message = error.what();
    // Boost.DLL prefixes its own function name; keep only the loader's words.
    const std::string prefix = "boost::dll::shared_library::load() failed (dlerror system message: ";
    if (message.rfind(prefix, 0) == 0 && message.back() == ')') {
      message = message.substr(prefix.size(), message.size() - prefix.size() - 1);
    }
    throw Exception(ErrorCode::kBackendFailure, "cannot open " + path.string() + ": " + message);
  }
  return std::shared_ptr<SharedLibrary>(new SharedLibrary(path, std::move(handle)));
}

bool SharedLibrary::Has(const char* symbol) const { return handle_->library.has(symbol); }

void* SharedLibrary::Find(const char* symbol) const {
  if (!handle_->library.has(symbol)) return nullptr;
  return &handle_->library.get<char>(symbol);
}

}  // namespace backplane::loading
