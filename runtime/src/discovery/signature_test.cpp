#include "discovery/signature.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace backplane::discovery {

namespace fs = std::filesystem;

namespace {

// A scratch folder, removed at the end of the test.
struct Scratch {
  Scratch() : path(fs::temp_directory_path() / ("backplane-signature-" + std::to_string(std::random_device{}()))) {
    fs::create_directories(path);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  fs::path Write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
    return path / name;
  }
  fs::path path;
};

}  // namespace

TEST_CASE("signature: base64 round trips and rejects what is not exactly base64") {
  for (const std::string& bytes : {std::string("a"), std::string("ab"), std::string("abc"), std::string("\0\xff\x10", 3)}) {
    CHECK(Base64Decode(Base64Encode(bytes)) == bytes);
  }
  CHECK(Base64Encode("abc") == "YWJj");
  CHECK(Base64Encode("ab") == "YWI=");
  for (const char* bad : {"", "YWJ", "YW=j", "Y===", "YWJj\n", "YW J"}) {
    CAPTURE(bad);
    CHECK(!Base64Decode(bad));
  }
}

TEST_CASE("signature: key ids are 16 hex digits of the key's SHA-256") {
  CHECK(KeyIdOf("abc") == "ba7816bf8f01cfea");
}

TEST_CASE("signature: publisher names are bounded and printable") {
  CHECK(PublisherProblem("Acme Inc.") == "");
  CHECK(PublisherProblem("") == "is empty");
  CHECK(PublisherProblem(std::string(201, 'a')) == "is 201 bytes; at most 200");
  CHECK(PublisherProblem("a\nb") == "holds control characters");
  CHECK_THROWS_AS(GenerateSigningKey(""), Exception);
}

TEST_CASE("signature: a signed manifest verifies, any change to it does not") {
  Scratch scratch;
  const SigningKey key = GenerateSigningKey("Acme");
  CHECK(key.private_key_pem.rfind("-----BEGIN PRIVATE KEY-----", 0) == 0);
  const fs::path private_key = scratch.Write("acme.key", key.private_key_pem);
  const std::string text = R"({"vendor": "Acme", "sha256": ")" + std::string(64, 'a') + "\"}";
  const fs::path manifest = scratch.Write("Acme_X_backend.json", text);
  const SignatureInfo info = SignManifestFile(manifest.string(), private_key.string());
  CHECK(info.publisher == "Acme");  // the manifest's vendor when none is given
  CHECK(info.key_id == key.public_key.key_id);
  CHECK(PublicKeyOf(private_key.string(), "Acme").public_key == key.public_key.public_key);

  std::string why;
  const auto signature_text = ReadSmallFile(info.signature_path, kMaxTrustFileBytes, why);
  REQUIRE(signature_text);
  const auto signature = ParseSignatureFile(*signature_text, why);
  REQUIRE_MESSAGE(signature, why);
  CHECK(VerifyEd25519(signature->raw_public_key, text, signature->raw_signature));
  CHECK(!VerifyEd25519(signature->raw_public_key, text + " ", signature->raw_signature));
  std::string flipped = signature->raw_signature;
  flipped[0] = static_cast<char>(flipped[0] ^ 1);
  CHECK(!VerifyEd25519(signature->raw_public_key, text, flipped));
}

TEST_CASE("signature: signing refuses a manifest without sha256 and keys that are not Ed25519 PEM") {
  Scratch scratch;
  const fs::path private_key = scratch.Write("acme.key", GenerateSigningKey("Acme").private_key_pem);
  const fs::path bare = scratch.Write("bare.json", R"({"vendor": "Acme"})");
  CHECK_THROWS_WITH(SignManifestFile(bare.string(), private_key.string()),
                    doctest::Contains("gives no \"sha256\" of its library"));
  const fs::path manifest = scratch.Write("m.json", R"({"sha256": ")" + std::string(64, 'a') + "\"}");
  const fs::path not_a_key = scratch.Write("not.key", "hello");
  CHECK_THROWS_WITH(SignManifestFile(manifest.string(), not_a_key.string()),
                    doctest::Contains("is not a PEM private key"));
  CHECK_THROWS_WITH(SignManifestFile(manifest.string(), (scratch.path / "absent.key").string()),
                    doctest::Contains("absent.key"));
  CHECK(!fs::exists(manifest.string() + ".sig"));
}

TEST_CASE("signature: key files round trip, edited ones are refused with the field named") {
  const SigningKey key = GenerateSigningKey("Acme");
  std::string why;
  const auto read = ParseKeyFile(TrustedKeyFileText(key.public_key), "k.json", why);
  REQUIRE_MESSAGE(read, why);
  CHECK(read->publisher == "Acme");
  CHECK(read->key_id == key.public_key.key_id);
  CHECK(read->public_key == key.public_key.public_key);
  CHECK(!ParseKeyFile(R"({"key_format": "2.0"})", "k.json", why));
  CHECK(why == "field \"key_format\" is \"2.0\"; this runtime reads 1.x");
  CHECK(!ParseKeyFile(R"({"key_format": "1.0", "algorithm": "ed25519", "publisher": "A", "public_key": "YWJj"})",
                      "k.json", why));
  CHECK(why == "field \"public_key\" is not base64 of 32 bytes");
}

}  // namespace backplane::discovery
