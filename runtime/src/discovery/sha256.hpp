// SHA-256 of a file, through OpenSSL's EVP interface.
#pragma once

#include <filesystem>
#include <string>

namespace backplane::discovery {

// Lower-case hex digest of the file's bytes. Reads in fixed-size chunks (no whole-file buffer).
// Throws backplane::Exception (kNotFound / kInternal) naming the file when it cannot be read
// or hashed. Thread-safe.
std::string Sha256OfFile(const std::filesystem::path& file);

}  // namespace backplane::discovery
