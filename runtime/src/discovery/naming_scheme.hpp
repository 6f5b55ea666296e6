// Spec 001's file-naming scheme for backend libraries, and the matching manifest names.
#pragma once

#include <string_view>

namespace backplane::discovery {

enum class LibrarySuffix { kSo, kDll, kDylib };

// The platform's suffix (.so on Linux, .dll on Windows, .dylib on macOS).
LibrarySuffix NativeLibrarySuffix();

// True for "<vendor>_<name>_backend<suffix>", vendor and name [A-Za-z0-9]+; for kSo an
// optional version of one or more ".<digits>" groups may follow (".so.1.2.3").
// Pure function of the name; thread-safe.
bool MatchesNamingScheme(std::string_view file_name, LibrarySuffix suffix = NativeLibrarySuffix());

// True for "<vendor>_<name>_backend.json" with the same rules.
bool IsManifestFileName(std::string_view file_name);

// "<vendor>_<name>_backend" when `file_name` matches either form above, else empty.
std::string_view BackendStem(std::string_view file_name, LibrarySuffix suffix = NativeLibrarySuffix());

}  // namespace backplane::discovery
