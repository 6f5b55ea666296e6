// Writing a tool's report or trace to a file in one go.
#pragma once

#include <string>

namespace backplane::tools {

// Writes `text` to `path` (UTF-8, backplane/path_text.hpp) byte for byte, creating or truncating
// the file. Returns 0, or the errno of the first failure (EIO when the system gave none); a full
// disk often shows only when the file is closed, which is checked. A file that failed part-way
// is left as it is. Never throws; thread-safe for distinct paths.
int WriteWholeFile(const std::string& path, const std::string& text) noexcept;

}  // namespace backplane::tools
