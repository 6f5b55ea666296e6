// libFuzzer target: the naming-scheme matcher (discovery/naming_scheme.hpp) on arbitrary file
// names, for every platform's library suffix.
//
// Besides "no crash", it checks the matcher's own promises: a matching name has a non-empty stem
// that is a prefix of the name and ends in "_backend", and a name never is both a library and a
// manifest name.
#include "discovery/naming_scheme.hpp"
#include "fuzz_check.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace backplane::discovery;
  using backplane::fuzz::Check;
  const std::string_view name(reinterpret_cast<const char*>(data), size);
  const bool manifest = IsManifestFileName(name);
  for (LibrarySuffix suffix : {LibrarySuffix::kSo, LibrarySuffix::kDll, LibrarySuffix::kDylib}) {
    const bool library = MatchesNamingScheme(name, suffix);
    const std::string_view stem = BackendStem(name, suffix);
    Check(!(library && manifest));
    Check(stem.empty() == !(library || manifest));
    if (!stem.empty()) {
      Check(name.substr(0, stem.size()) == stem);
      Check(stem.size() > 8 && stem.substr(stem.size() - 8) == "_backend");
    }
  }
  return 0;
}
