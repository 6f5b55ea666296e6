// SHA-256 of a file, through OpenSSL's EVP interface.
#pragma once

#include "platform/regular_file.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace backplane::discovery {

// Lower-case hex digest of the file's bytes. Reads in fixed-size chunks (no whole-file buffer).
// Throws backplane::Exception (kNotFound / kInternal) naming the file when it cannot be read
// or hashed. Thread-safe.
std::string Sha256OfFile(const std::filesystem::path& file);

// Lower-case hex digest of `bytes`. Throws backplane::Exception (kInternal) when OpenSSL fails.
// Thread-safe.
std::string Sha256OfBytes(std::string_view bytes);

// The same for an open file (`name` names it in messages): hashes what the handle reads, so
// the bytes hashed are those of the file that was checked to be regular. Not thread-safe on
// one `file`.
std::string Sha256OfFile(const platform::RegularFile& file, const std::filesystem::path& name);

}  // namespace backplane::discovery
