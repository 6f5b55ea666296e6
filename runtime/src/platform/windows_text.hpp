// Windows text at the operating-system boundary: the runtime's strings are UTF-8, Windows' are
// UTF-16; and the words Windows has for an error code. Windows only (empty elsewhere).
#pragma once

#if defined(_WIN32)
#include <string>
#include <string_view>

namespace backplane::platform {

// UTF-16 of UTF-8 `text`; an invalid sequence becomes U+FFFD. Thread-safe; throws only
// std::bad_alloc.
std::wstring WideFromUtf8(std::string_view text);

// UTF-8 of UTF-16 `text`; an unpaired surrogate becomes U+FFFD. Thread-safe; throws only
// std::bad_alloc.
std::string Utf8FromWide(std::wstring_view text);

// FormatMessage's text for Win32 error `code` without its trailing line break, followed by the
// code: "The specified module could not be found. (error 126)"; "error 126" alone when Windows
// has no text for it. Thread-safe.
std::string SystemErrorText(unsigned long code);

}  // namespace backplane::platform
#endif
