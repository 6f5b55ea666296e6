// Windows text at the operating-system boundary: the runtime's strings are UTF-8, Windows' are
// UTF-16; and the words Windows has for an error code. Windows only (empty elsewhere).
#pragma once

#if defined(_WIN32)
#include <filesystem>
#include <string>
#include <string_view>

namespace backplane::platform {

// UTF-16 of UTF-8 `text`; an invalid sequence becomes U+FFFD. Thread-safe; throws only
// std::bad_alloc.
std::wstring WideFromUtf8(std::string_view text);

// UTF-8 of UTF-16 `text`; an unpaired surrogate becomes U+FFFD. Thread-safe; throws only
// std::bad_alloc.
std::string Utf8FromWide(std::wstring_view text);

// `path` as Win32 file functions (CreateFileW, FindFirstFileExW, LoadLibraryExW) take it: as it
// is when shorter than MAX_PATH (260), so what every Windows handles stays untouched; a longer
// absolute one in its extended-length form, which those functions take past MAX_PATH without
// the longPathAware opt-in: "C:\a\...\x" as "\\?\C:\a\...\x", "\\server\share\x" as
// "\\?\UNC\server\share\x", normalized first ('/' to '\', "." and ".." resolved), since
// Windows leaves an extended-length path as it is. A relative long path is returned as it is
// (and fails there). Throws only std::bad_alloc.
std::wstring ExtendedLengthPath(const std::filesystem::path& path);

// FormatMessage's text for Win32 error `code` without its trailing line break, followed by the
// code: "The specified module could not be found. (error 126)"; "error 126" alone when Windows
// has no text for it. Thread-safe.
std::string SystemErrorText(unsigned long code);

}  // namespace backplane::platform
#endif
