#include "platform/windows_text.hpp"

#if defined(_WIN32)
#include "platform/windows_api.hpp"

namespace backplane::platform {

std::wstring WideFromUtf8(std::string_view text) {
  if (text.empty()) return {};
  const int size = ::MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()),
                                         nullptr, 0);
  std::wstring wide(static_cast<std::size_t>(size), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), wide.data(), size);
  return wide;
}

std::string Utf8FromWide(std::wstring_view text) {
  if (text.empty()) return {};
  const int size = ::WideCharToMultiByte(CP_UTF8, 0, text.data(), static_cast<int>(text.size()),
                                         nullptr, 0, nullptr, nullptr);
  std::string utf8(static_cast<std::size_t>(size), '\0');
  ::WideCharToMultiByte(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), utf8.data(), size,
                        nullptr, nullptr);
  return utf8;
}

std::string SystemErrorText(unsigned long code) {
  wchar_t* buffer = nullptr;
  const DWORD length = ::FormatMessageW(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, code, 0, reinterpret_cast<wchar_t*>(&buffer), 0, nullptr);
  std::wstring text(buffer != nullptr ? buffer : L"", length);
  if (buffer != nullptr) ::LocalFree(buffer);
  while (!text.empty() && (text.back() == L'\n' || text.back() == L'\r' || text.back() == L' ')) {
    text.pop_back();
  }
  const std::string number = "error " + std::to_string(code);
  return text.empty() ? number : Utf8FromWide(text) + " (" + number + ")";
}

std::wstring ExtendedLengthPath(const std::filesystem::path& path) {
  const std::wstring& given = path.native();
  if (given.size() < MAX_PATH || given.rfind(LR"(\\?\)", 0) == 0) return given;
  const std::wstring normal = path.lexically_normal().make_preferred().native();
  if (normal.size() >= 3 && normal[1] == L':' && normal[2] == L'\\') return LR"(\\?\)" + normal;
  if (normal.rfind(LR"(\\)", 0) == 0) return LR"(\\?\UNC\)" + normal.substr(2);
  return given;
}

}  // namespace backplane::platform
#endif
