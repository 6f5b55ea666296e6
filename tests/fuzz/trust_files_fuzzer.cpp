// libFuzzer target: the readers of signature files and trusted-key files
// (discovery/signature.hpp), which discovery and sdk-plugin feed with whatever lies beside a
// manifest or in a key folder.
//
// Besides "no crash", it checks the readers' own promises: what parses has a key of 32 bytes (a
// signature of 64), a key id that is the key's, a publisher that passes PublisherProblem, and
// writing it out and reading it back gives the same values; verifying never throws.
#include "discovery/signature.hpp"
#include "fuzz_check.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace backplane::discovery;
  using backplane::fuzz::Check;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string why;
  if (const auto signature = ParseSignatureFile(text, why)) {
    Check(signature->raw_public_key.size() == kEd25519PublicKeyBytes);
    Check(signature->raw_signature.size() == kEd25519SignatureBytes);
    Check(signature->key_id == KeyIdOf(signature->raw_public_key));
    Check(PublisherProblem(signature->publisher).empty());
    const auto again = ParseSignatureFile(SignatureFileText(*signature), why);
    Check(again && again->raw_signature == signature->raw_signature && again->publisher == signature->publisher);
    (void)VerifyEd25519(signature->raw_public_key, text, signature->raw_signature);
  } else {
    Check(!why.empty());
  }
  why.clear();
  if (const auto key = ParseKeyFile(text, "fuzz.json", why)) {
    const auto raw = Base64Decode(key->public_key);
    Check(raw && raw->size() == kEd25519PublicKeyBytes && key->key_id == KeyIdOf(*raw));
    Check(PublisherProblem(key->publisher).empty());
  } else {
    Check(!why.empty());
  }
  return 0;
}
