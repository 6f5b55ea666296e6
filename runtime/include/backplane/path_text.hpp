// File paths as text: every string of Backplane that names a file or folder (RuntimeOptions'
// folders, the discovery report's paths, manifests, messages, JSON reports, environment values,
// the tools' arguments) is UTF-8. std::filesystem's own narrow conversions (`path.string()`,
// `fs::path(std::string)`) use the ANSI code page on Windows, which cannot spell every file name
// (`C:\plugins\bäckends-日本`); these two convert through UTF-8 instead, so a path survives the
// round trip to text and back. On POSIX both are byte-for-byte: a file name there is bytes, and
// whatever bytes it holds pass through unchanged (also when they are not UTF-8).
//
// Every path that becomes text, and every text that becomes a path, goes through these two,
// in the runtime, the ONNX importer and the tools alike. Applications use them for the paths they
// hand the runtime (RuntimeOptions::backend_paths) and read back from it.
#pragma once

#include <backplane/runtime_export.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace backplane {

// The UTF-8 text of `path` (what path.u8string() gives); on POSIX its bytes as they are. On
// Windows an unpaired UTF-16 surrogate in a file name, which no UTF-8 can spell, becomes U+FFFD
// (such a name does not survive the round trip; std::filesystem would throw instead).
// Thread-safe; throws only std::bad_alloc.
BACKPLANE_RUNTIME_API std::string PathToUtf8(const std::filesystem::path& path);

// The path that UTF-8 `text` names (what std::filesystem::u8path gives); on POSIX the same bytes.
// On Windows an invalid UTF-8 sequence becomes U+FFFD. Thread-safe; throws only std::bad_alloc.
BACKPLANE_RUNTIME_API std::filesystem::path PathFromUtf8(std::string_view text);

}  // namespace backplane
