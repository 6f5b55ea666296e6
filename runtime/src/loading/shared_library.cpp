#include "loading/shared_library.hpp"

#include "platform/loaded_library.hpp"

#include <backplane/exception.hpp>
#include <backplane/path_text.hpp>

#include <boost/dll/shared_library.hpp>

#if defined(_WIN32)
#include "platform/windows_text.hpp"
#endif

namespace backplane::loading {

struct SharedLibrary::Handle {
  boost::dll::shared_library library;
};

SharedLibrary::SharedLibrary(std::filesystem::path path, std::unique_ptr<Handle> handle)
    : path_(std::move(path)), handle_(std::move(handle)) {}

SharedLibrary::~SharedLibrary() = default;

std::shared_ptr<SharedLibrary> SharedLibrary::Open(const std::filesystem::path& path,
                                                   const std::filesystem::path& name) {
  const std::filesystem::path& shown = name.empty() ? path : name;
  if (!path.is_absolute()) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "refusing to open " + PathToUtf8(path) + ": not an absolute path");
  }
  auto handle = std::make_unique<Handle>();
#if defined(_WIN32)
  // LoadLibraryExW's flags, which Boost.DLL passes on (1.74 has no names for them):
  // LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS. The plugin's own
  // dependencies resolve from its folder, then the application's and System32; never from the
  // current folder or PATH, where anyone could plant a DLL of the same name.
  const auto mode = static_cast<boost::dll::load_mode::type>(0x00000100 | 0x00001000);
#else
  // rtld_local: the plugin's symbols do not leak into the global namespace, so two plugins
  // exporting the same names (all of them do) never collide.
  const auto mode = boost::dll::load_mode::rtld_local | boost::dll::load_mode::rtld_lazy;
#endif
  try {
    // No decorations, no system search: exactly this file.
#if defined(_WIN32)
    // A long path goes in its extended-length form (\\?\C:\...), which std::filesystem does
    // not take for absolute, so Boost.DLL would put the current folder before it.
    // search_system_folders is Boost.DLL's word for "pass the name on as it is" (Boost.DLL takes
    // it off again: it is no LoadLibraryExW flag); the path is absolute, checked above.
    handle->library.load(boost::dll::fs::path(platform::ExtendedLengthPath(path)),
                         mode | boost::dll::load_mode::search_system_folders);
#else
    handle->library.load(path, mode);
#endif
  } catch (const std::system_error& error) {
#if defined(_WIN32)
    // Boost.DLL's text for a Win32 code is "Unknown error code" under MinGW; ask Windows.
    std::string message = platform::SystemErrorText(static_cast<unsigned long>(error.code().value()));
#else
    std::string message = error.what();
    // Boost.DLL prefixes its own function name; keep only the loader's words.
    const std::string prefix = "boost::dll::shared_library::load() failed (dlerror system message: ";
    if (message.rfind(prefix, 0) == 0 && message.back() == ')') {
      message = message.substr(prefix.size(), message.size() - prefix.size() - 1);
    }
#endif
    throw Exception(ErrorCode::kBackendFailure, "cannot open " + PathToUtf8(shown) + ": " + message);
  }
  return std::shared_ptr<SharedLibrary>(new SharedLibrary(shown, std::move(handle)));
}

std::optional<platform::FileIdentity> SharedLibrary::MappedFile() const {
  return platform::MappedFileIdentity(reinterpret_cast<void*>(handle_->library.native()));
}

bool SharedLibrary::Has(const char* symbol) const { return handle_->library.has(symbol); }

void* SharedLibrary::Find(const char* symbol) const {
  if (!handle_->library.has(symbol)) return nullptr;
  return &handle_->library.get<char>(symbol);
}

}  // namespace backplane::loading
