#include "discovery/signature.hpp"

#include "discovery/manifest.hpp"
#include "discovery/sha256.hpp"
#include "platform/message_text.hpp"
#include "platform/regular_file.hpp"

#include <backplane/exception.hpp>
#include <backplane/path_text.hpp>

#include <nlohmann/json.hpp>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <system_error>

namespace backplane {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace discovery {

namespace {

using PKey = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using MdContext = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

constexpr const char* kAlgorithm = "ed25519";
constexpr const char* kFormat = "1.0";

// A string field of `object`, or nullopt with `why` naming it.
std::optional<std::string> StringField(const json& object, const char* name, std::string& why) {
  const auto it = object.find(name);
  if (it == object.end()) {
    why = std::string("field \"") + name + "\" is missing";
    return std::nullopt;
  }
  if (!it->is_string()) {
    why = std::string("field \"") + name + "\" must be a string, not " + it->type_name();
    return std::nullopt;
  }
  return it->get<std::string>();
}

// The object of a key or signature file whose format field `format_field` is 1.x and whose
// algorithm is Ed25519; nullopt with `why` otherwise.
std::optional<json> ParseTrustJson(const std::string& text, const char* format_field, std::string& why) {
  json object = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    why = "is not a JSON object";
    return std::nullopt;
  }
  const auto format = StringField(object, format_field, why);
  if (!format) return std::nullopt;
  if (format->rfind("1.", 0) != 0) {
    why = std::string("field \"") + format_field + "\" is " + platform::Quoted(*format) + "; this runtime reads 1.x";
    return std::nullopt;
  }
  const auto algorithm = StringField(object, "algorithm", why);
  if (!algorithm) return std::nullopt;
  if (*algorithm != kAlgorithm) {
    why = "algorithm " + platform::Quoted(*algorithm) + " is not supported (only \"ed25519\")";
    return std::nullopt;
  }
  return object;
}

// The raw bytes of base64 field `name`, which must decode to exactly `size` bytes.
std::optional<std::string> RawField(const json& object, const char* name, std::size_t size, std::string& why) {
  const auto text = StringField(object, name, why);
  if (!text) return std::nullopt;
  auto raw = Base64Decode(*text);
  if (!raw || raw->size() != size) {
    why = std::string("field \"") + name + "\" is not base64 of " + std::to_string(size) + " bytes";
    return std::nullopt;
  }
  return raw;
}

// The publisher field, checked; nullopt with `why`.
std::optional<std::string> PublisherField(const json& object, std::string& why) {
  auto publisher = StringField(object, "publisher", why);
  if (!publisher) return std::nullopt;
  if (std::string problem = PublisherProblem(*publisher); !problem.empty()) {
    why = "field \"publisher\" " + problem;
    return std::nullopt;
  }
  return publisher;
}

// When the file gives a key_id, it must be the key's: a mismatch means the file was edited.
bool KeyIdMatches(const json& object, const std::string& key_id, std::string& why) {
  const auto it = object.find("key_id");
  if (it == object.end()) return true;
  if (!it->is_string() || it->get<std::string>() != key_id) {
    why = "field \"key_id\" is " + platform::Bounded(it->dump()) + " but the public key's id is " + key_id;
    return false;
  }
  return true;
}

std::string RawPublicKey(EVP_PKEY* key) {
  std::string raw(kEd25519PublicKeyBytes, '\0');
  std::size_t length = raw.size();
  if (EVP_PKEY_get_raw_public_key(key, reinterpret_cast<unsigned char*>(raw.data()), &length) != 1 ||
      length != kEd25519PublicKeyBytes) {
    throw Exception(ErrorCode::kInternal, "OpenSSL could not give an Ed25519 public key");
  }
  return raw;
}

// Reads the Ed25519 private key of PEM file `path`; throws Exception naming the file.
PKey ReadPrivateKey(const std::string& path) {
  std::string why;
  const auto pem = ReadSmallFile(PathFromUtf8(path), kMaxTrustFileBytes, why);
  if (!pem) throw Exception(ErrorCode::kNotFound, "private key " + path + " " + why);
  const std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem->data(), static_cast<int>(pem->size())),
                                                      &BIO_free);
  PKey key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr, &EVP_PKEY_free);
  if (!key) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "private key " + path + " is not a PEM private key (make one with `sdk-plugin keygen` or "
                    "`openssl genpkey -algorithm ed25519`)");
  }
  if (EVP_PKEY_id(key.get()) != EVP_PKEY_ED25519) {
    throw Exception(ErrorCode::kInvalidArgument, "private key " + path + " is not an Ed25519 key");
  }
  return key;
}

std::string SignEd25519(EVP_PKEY* key, const std::string& message) {
  MdContext context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  std::string signature(kEd25519SignatureBytes, '\0');
  std::size_t length = signature.size();
  if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key) != 1 ||
      EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(message.data()), message.size()) != 1 ||
      length != kEd25519SignatureBytes) {
    throw Exception(ErrorCode::kInternal, "OpenSSL could not make an Ed25519 signature");
  }
  return signature;
}

// Writes `text` to `path` through a temporary name in the same folder and a rename, so a reader
// sees the old file or the new one, never half of one. Throws Exception naming the file.
void WriteFileAtomically(const fs::path& path, const std::string& text) {
  fs::path name = PathFromUtf8(".");  // ".<file name>.tmp<digits>", the name kept as a path
  name += path.filename();
  name += PathFromUtf8(".tmp" + std::to_string(std::random_device{}()));
  const fs::path temporary = path.parent_path() / name;
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw Exception(ErrorCode::kInvalidArgument, "cannot write " + PathToUtf8(temporary));
    }
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw Exception(ErrorCode::kInvalidArgument, "cannot write " + PathToUtf8(path) + ": " + error.message());
  }
}

}  // namespace

std::string Base64Encode(const std::string& bytes) {
  std::string text(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int length = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()),
                                     reinterpret_cast<const unsigned char*>(bytes.data()),
                                     static_cast<int>(bytes.size()));
  text.resize(static_cast<std::size_t>(length));
  return text;
}

std::optional<std::string> Base64Decode(const std::string& text) {
  if (text.empty() || text.size() % 4 != 0 || text.size() > kMaxTrustFileBytes) return std::nullopt;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                          c == '+' || c == '/';
    const bool padding = c == '=' && i + 2 >= text.size() && (i + 1 == text.size() || text.back() == '=');
    if (!alphabet && !padding) return std::nullopt;
  }
  std::string bytes(text.size() / 4 * 3, '\0');
  const int length = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                                     reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (length < 0) return std::nullopt;
  // EVP_DecodeBlock counts padding as zero bytes.
  std::size_t padding = 0;
  if (text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  bytes.resize(static_cast<std::size_t>(length) - padding);
  return bytes;
}

std::string KeyIdOf(const std::string& raw_public_key) { return Sha256OfBytes(raw_public_key).substr(0, 16); }

std::string PublisherProblem(const std::string& publisher) {
  if (publisher.empty()) return "is empty";
  if (publisher.size() > kMaxPublisherBytes) {
    return "is " + std::to_string(publisher.size()) + " bytes; at most " + std::to_string(kMaxPublisherBytes);
  }
  for (unsigned char c : publisher) {
    if (c < 0x20 || c == 0x7F) return "holds control characters";
  }
  return {};
}

std::optional<SignatureFile> ParseSignatureFile(const std::string& text, std::string& why) {
  const auto object = ParseTrustJson(text, "signature_format", why);
  if (!object) return std::nullopt;
  SignatureFile signature;
  auto publisher = PublisherField(*object, why);
  auto key = RawField(*object, "public_key", kEd25519PublicKeyBytes, why);
  if (!publisher || !key) return std::nullopt;
  auto raw_signature = RawField(*object, "signature", kEd25519SignatureBytes, why);
  if (!raw_signature) return std::nullopt;
  signature.publisher = std::move(*publisher);
  signature.raw_public_key = std::move(*key);
  signature.raw_signature = std::move(*raw_signature);
  signature.key_id = KeyIdOf(signature.raw_public_key);
  if (!KeyIdMatches(*object, signature.key_id, why)) return std::nullopt;
  return signature;
}

std::string SignatureFileText(const SignatureFile& signature) {
  json object = json::object();
  object["signature_format"] = kFormat;
  object["algorithm"] = kAlgorithm;
  object["publisher"] = signature.publisher;
  object["key_id"] = signature.key_id;
  object["public_key"] = Base64Encode(signature.raw_public_key);
  object["signature"] = Base64Encode(signature.raw_signature);
  return object.dump(2) + "\n";
}

std::optional<TrustedKey> ParseKeyFile(const std::string& text, const std::string& file, std::string& why) {
  const auto object = ParseTrustJson(text, "key_format", why);
  if (!object) return std::nullopt;
  auto publisher = PublisherField(*object, why);
  if (!publisher) return std::nullopt;
  const auto raw = RawField(*object, "public_key", kEd25519PublicKeyBytes, why);
  if (!raw) return std::nullopt;
  TrustedKey key;
  key.publisher = std::move(*publisher);
  key.public_key = Base64Encode(*raw);
  key.key_id = KeyIdOf(*raw);
  key.file = file;
  if (!KeyIdMatches(*object, key.key_id, why)) return std::nullopt;
  return key;
}

bool VerifyEd25519(const std::string& raw_public_key, const std::string& message, const std::string& raw_signature) {
  if (raw_public_key.size() != kEd25519PublicKeyBytes || raw_signature.size() != kEd25519SignatureBytes) return false;
  PKey key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                       reinterpret_cast<const unsigned char*>(raw_public_key.data()),
                                       raw_public_key.size()),
           &EVP_PKEY_free);
  MdContext context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!key || !context || EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, key.get()) != 1) {
    return false;
  }
  return EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(raw_signature.data()),
                          raw_signature.size(), reinterpret_cast<const unsigned char*>(message.data()),
                          message.size()) == 1;
}

std::optional<std::string> ReadSmallFile(const fs::path& file, std::uint64_t max_bytes, std::string& why) {
  platform::OpenFailure failure{};
  const auto opened = platform::RegularFile::Open(file, failure, why);
  if (!opened) {
    if (failure == platform::OpenFailure::kNotRegular) why += ", not a regular file";
    return std::nullopt;
  }
  if (opened->Size() > max_bytes) {
    why = "is " + std::to_string(opened->Size()) + " bytes; at most " + std::to_string(max_bytes) + " are read";
    return std::nullopt;
  }
  std::string text(static_cast<std::size_t>(opened->Size()), '\0');
  const auto read = opened->ReadAt(0, text.data(), text.size(), why);
  if (!read) return std::nullopt;
  text.resize(*read);
  return text;
}

}  // namespace discovery

// ---- Public API (trust.hpp) -----------------------------------------------------------------

const char* ToString(TrustPolicy value) {
  switch (value) {
    case TrustPolicy::kOff: return "off";
    case TrustPolicy::kWarn: return "warn";
    case TrustPolicy::kRequire: return "require";
  }
  return "unknown";
}

std::optional<TrustPolicy> TrustPolicyFromString(std::string_view text) {
  for (TrustPolicy policy : {TrustPolicy::kOff, TrustPolicy::kWarn, TrustPolicy::kRequire}) {
    if (text == ToString(policy)) return policy;
  }
  return std::nullopt;
}

SigningKey GenerateSigningKey(const std::string& publisher) {
  if (std::string problem = discovery::PublisherProblem(publisher); !problem.empty()) {
    throw Exception(ErrorCode::kInvalidArgument, "publisher " + platform::Quoted(publisher) + " " + problem);
  }
  discovery::PKey key(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"), &EVP_PKEY_free);
  if (!key) throw Exception(ErrorCode::kInternal, "OpenSSL could not generate an Ed25519 key");
  const std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    throw Exception(ErrorCode::kInternal, "OpenSSL could not write the private key as PEM");
  }
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio.get(), &data);
  SigningKey result;
  result.private_key_pem.assign(data, static_cast<std::size_t>(length));
  const std::string raw = discovery::RawPublicKey(key.get());
  result.public_key.publisher = publisher;
  result.public_key.public_key = discovery::Base64Encode(raw);
  result.public_key.key_id = discovery::KeyIdOf(raw);
  return result;
}

TrustedKey PublicKeyOf(const std::string& private_key_file, const std::string& publisher) {
  if (std::string problem = discovery::PublisherProblem(publisher); !problem.empty()) {
    throw Exception(ErrorCode::kInvalidArgument, "publisher " + platform::Quoted(publisher) + " " + problem);
  }
  const discovery::PKey key = discovery::ReadPrivateKey(private_key_file);
  const std::string raw = discovery::RawPublicKey(key.get());
  TrustedKey result;
  result.publisher = publisher;
  result.public_key = discovery::Base64Encode(raw);
  result.key_id = discovery::KeyIdOf(raw);
  return result;
}

std::string TrustedKeyFileText(const TrustedKey& key) {
  json object = json::object();
  object["key_format"] = discovery::kFormat;
  object["publisher"] = key.publisher;
  object["algorithm"] = discovery::kAlgorithm;
  object["public_key"] = key.public_key;
  object["key_id"] = key.key_id;
  return object.dump(2) + "\n";
}

TrustedKey ReadTrustedKeyFile(const std::string& path) {
  std::string why;
  const auto text = discovery::ReadSmallFile(PathFromUtf8(path), discovery::kMaxTrustFileBytes, why);
  if (!text) throw Exception(ErrorCode::kNotFound, "key file " + path + " " + why);
  auto key = discovery::ParseKeyFile(*text, path, why);
  if (!key) throw Exception(ErrorCode::kInvalidArgument, "key file " + path + ": " + why);
  return std::move(*key);
}

SignatureInfo SignManifestFile(const std::string& manifest, const std::string& private_key,
                               const std::string& publisher) {
  std::string why;
  const auto text = discovery::ReadSmallFile(PathFromUtf8(manifest), discovery::kMaxManifestBytes, why);
  if (!text) throw Exception(ErrorCode::kNotFound, "manifest " + manifest + " " + why);
  // The sha256 makes the signature cover the library too. The rest of the manifest is
  // discovery's to check, on the target platform (a drop may be signed on another one).
  const json object = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    throw Exception(ErrorCode::kInvalidArgument, "cannot sign " + manifest + ": it is not a JSON object");
  }
  const auto sha256 = object.find("sha256");
  if (sha256 == object.end() || !sha256->is_string() || sha256->get<std::string>().size() != 64) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "cannot sign " + manifest + ": it gives no \"sha256\" of its library, so a signature "
                    "would not cover the library");
  }
  const auto vendor = object.find("vendor");
  const std::string claimed = !publisher.empty() ? publisher
                              : vendor != object.end() && vendor->is_string() ? vendor->get<std::string>()
                                                                               : std::string();
  const discovery::PKey key = discovery::ReadPrivateKey(private_key);
  discovery::SignatureFile signature;
  signature.publisher = claimed;
  if (std::string problem = discovery::PublisherProblem(signature.publisher); !problem.empty()) {
    throw Exception(ErrorCode::kInvalidArgument, "publisher " + platform::Quoted(signature.publisher) + " " + problem);
  }
  signature.raw_public_key = discovery::RawPublicKey(key.get());
  signature.key_id = discovery::KeyIdOf(signature.raw_public_key);
  signature.raw_signature = discovery::SignEd25519(key.get(), *text);
  const std::string signature_path = manifest + kSignatureSuffix;
  discovery::WriteFileAtomically(PathFromUtf8(signature_path), discovery::SignatureFileText(signature));

  SignatureInfo info;
  info.status = SignatureStatus::kUntrusted;
  info.publisher = signature.publisher;
  info.key_id = signature.key_id;
  info.signature_path = signature_path;
  return info;
}

}  // namespace backplane
