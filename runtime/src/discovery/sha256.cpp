#include "discovery/sha256.hpp"

#include <backplane/exception.hpp>
#include <backplane/hex_digits.hpp>
#include <backplane/path_text.hpp>

#include <openssl/evp.h>

#include <array>
#include <memory>

namespace backplane::discovery {

std::string Sha256OfBytes(std::string_view bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest;
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1) {
    throw Exception(ErrorCode::kInternal, "OpenSSL failed computing a SHA-256 digest");
  }
  return HexDigits(digest.data(), length);
}

std::string Sha256OfFile(const std::filesystem::path& file) {
  platform::OpenFailure failure{};
  std::string why;
  const auto opened = platform::RegularFile::Open(file, failure, why);
  if (!opened) throw Exception(ErrorCode::kNotFound, "cannot read " + PathToUtf8(file) + ": it " + why);
  return Sha256OfFile(*opened, file);
}

std::string Sha256OfFile(const platform::RegularFile& file, const std::filesystem::path& name) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                          &EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    throw Exception(ErrorCode::kInternal, "OpenSSL could not start a SHA-256 digest");
  }
  // Reads to the end of the file as it is now (a regular file always has one).
  std::array<char, 1 << 16> chunk;
  std::uint64_t offset = 0;
  std::string why;
  for (;;) {
    const auto count = file.ReadAt(offset, chunk.data(), chunk.size(), why);
    if (!count) throw Exception(ErrorCode::kNotFound, "error reading " + PathToUtf8(name) + ": " + why);
    if (*count == 0) break;
    if (EVP_DigestUpdate(context.get(), chunk.data(), *count) != 1) {
      throw Exception(ErrorCode::kInternal, "OpenSSL failed hashing " + PathToUtf8(name));
    }
    offset += *count;
  }

  std::array<unsigned char, EVP_MAX_MD_SIZE> digest;
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context.get(), digest.data(), &length) != 1) {
    throw Exception(ErrorCode::kInternal, "OpenSSL failed hashing " + PathToUtf8(name));
  }
  return HexDigits(digest.data(), length);
}

}  // namespace backplane::discovery
