// Ed25519 signatures and their files, through OpenSSL: the primitives of trust (trust.hpp).
// The file formats are JSON and versioned (docs/backend-discovery.md §8):
//   key file:       {"key_format": "1.0", "publisher", "algorithm": "ed25519", "public_key", "key_id"}
//   signature file: {"signature_format": "1.0", "algorithm": "ed25519", "publisher", "key_id",
//                    "public_key", "signature"}
// public_key and signature are base64 of the raw 32 and 64 bytes; key_id is KeyIdOf(public key).
#pragma once

#include <backplane/trust.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace backplane::discovery {

inline constexpr std::size_t kEd25519PublicKeyBytes = 32;
inline constexpr std::size_t kEd25519SignatureBytes = 64;
// Key and signature files are small; larger ones are not read.
inline constexpr std::uint64_t kMaxTrustFileBytes = 64 * 1024;
// The longest publisher name a key or signature may give.
inline constexpr std::size_t kMaxPublisherBytes = 200;

// Base64 (RFC 4648, with padding). Decode returns nullopt for anything that is not exactly that.
std::string Base64Encode(const std::string& bytes);
std::optional<std::string> Base64Decode(const std::string& text);

// The first 16 hex digits of the SHA-256 of the raw public key.
std::string KeyIdOf(const std::string& raw_public_key);

// "" when `publisher` is an acceptable publisher name (1 to kMaxPublisherBytes bytes, no control
// characters), else why not.
std::string PublisherProblem(const std::string& publisher);

// A signature file, as read.
struct SignatureFile {
  std::string publisher;       // claimed by the signer, unverified
  std::string key_id;          // KeyIdOf(raw_public_key)
  std::string raw_public_key;  // 32 bytes
  std::string raw_signature;   // 64 bytes
};

// Parses the text of a signature file. Returns nullopt with `why` (naming the field) when it
// is not one. Never throws but std::bad_alloc.
std::optional<SignatureFile> ParseSignatureFile(const std::string& text, std::string& why);
// The text of a signature file.
std::string SignatureFileText(const SignatureFile& signature);

// Parses the text of a trusted-key file (`file` only for the result's TrustedKey::file).
// Returns nullopt with `why` when it is not one.
std::optional<TrustedKey> ParseKeyFile(const std::string& text, const std::string& file, std::string& why);

// True when `raw_signature` is a valid Ed25519 signature of `message` by `raw_public_key`.
// Never throws but std::bad_alloc.
bool VerifyEd25519(const std::string& raw_public_key, const std::string& message,
                   const std::string& raw_signature);

// Reads a whole small file (at most kMaxTrustFileBytes; only a regular file: a FIFO or device
// is never read). Returns nullopt with `why` ("does not exist", "is a folder", "is 70000
// bytes; ...") without repeating the path. Never throws but std::bad_alloc.
std::optional<std::string> ReadSmallFile(const std::filesystem::path& file, std::uint64_t max_bytes,
                                         std::string& why);

}  // namespace backplane::discovery
