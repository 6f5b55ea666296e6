#include "discovery/sha256.hpp"

#include <backplane/exception.hpp>

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>

namespace backplane::discovery {

std::string Sha256OfFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Exception(ErrorCode::kNotFound, "cannot read " + file.string());

  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(),
                                                                          &EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    throw Exception(ErrorCode::kInternal, "OpenSSL could not start a SHA-256 digest");
  }
  std::array<char, 1 << 16> chunk;
  while (in) {
    in.read(chunk.data(), chunk.size());
    const auto count = static_cast<std::size_t>(in.gcount());
    if (count > 0 && EVP_DigestUpdate(context.get(), chunk.data(), count) != 1) {
      throw Exception(ErrorCode::kInternal, "OpenSSL failed hashing " + file.string());
    }
  }
  if (in.bad()) throw Exception(ErrorCode::kNotFound, "error reading " + file.string());

  std::array<unsigned char, EVP_MAX_MD_SIZE> digest;
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context.get(), digest.data(), &length) != 1) {
    throw Exception(ErrorCode::kInternal, "OpenSSL failed hashing " + file.string());
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xF];
  }
  return hex;
}

}  // namespace backplane::discovery
