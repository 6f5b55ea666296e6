// The definition of backplane/folder_entries.hpp.
#include <backplane/folder_entries.hpp>

#if defined(_WIN32)
#include "platform/windows_api.hpp"
#include "platform/windows_text.hpp"
#endif

namespace backplane {

#if defined(_WIN32)

std::vector<std::filesystem::path> FolderEntries(const std::filesystem::path& folder, std::error_code& error) {
  error.clear();
  std::vector<std::filesystem::path> entries;
  const std::wstring pattern = platform::ExtendedLengthPath(folder / L"*");
  WIN32_FIND_DATAW found{};
  HANDLE search = ::FindFirstFileExW(pattern.c_str(), FindExInfoBasic, &found, FindExSearchNameMatch, nullptr,
                                     FIND_FIRST_EX_LARGE_FETCH);
  if (search == INVALID_HANDLE_VALUE) {
    const DWORD code = ::GetLastError();
    // An empty drive root has no "." and ".." either: nothing found is not an error.
    if (code != ERROR_FILE_NOT_FOUND) error.assign(static_cast<int>(code), std::system_category());
    return entries;
  }
  do {
    const std::wstring_view name(found.cFileName);
    if (name != L"." && name != L"..") entries.push_back(folder / found.cFileName);
  } while (::FindNextFileW(search, &found));
  const DWORD code = ::GetLastError();
  ::FindClose(search);
  if (code != ERROR_NO_MORE_FILES) error.assign(static_cast<int>(code), std::system_category());
  return entries;
}

#else  // POSIX: std::filesystem has no such limit here.

std::vector<std::filesystem::path> FolderEntries(const std::filesystem::path& folder, std::error_code& error) {
  std::vector<std::filesystem::path> entries;
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    entries.push_back(it->path());
  }
  return entries;
}

#endif

}  // namespace backplane
