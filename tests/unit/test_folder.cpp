#include "test_folder.hpp"

#include <backplane/hex_digits.hpp>
#include <backplane/plugin.hpp>
#include <backplane/version.hpp>

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>
#include <vector>

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <aclapi.h>
#else
#include <sys/stat.h>  // mkfifo
#endif

namespace backplane::unit {

namespace {

#if defined(_WIN32)
constexpr const char* kLibrarySuffix = ".dll";
#elif defined(__APPLE__)
constexpr const char* kLibrarySuffix = ".dylib";
#else
constexpr const char* kLibrarySuffix = ".so";
#endif

void WriteText(const fs::path& file, const std::string& contents) {
  std::ofstream stream(file, std::ios::binary | std::ios::trunc);
  stream << contents;
  stream.close();
  if (!stream) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace

std::string LibraryFileName(const std::string& vendor, const std::string& name) {
  return vendor + "_" + name + "_backend" + kLibrarySuffix;
}

std::string ManifestFileName(const std::string& vendor, const std::string& name) {
  return vendor + "_" + name + "_backend.json";
}

nlohmann::json DefaultManifest(const TestPlugin& plugin, const std::string& library_file) {
  return {
      {"manifest_version", "1.0"},
      {"id", plugin.id},
      {"vendor", kTestPluginVendor},
      {"version", plugin.version},
      {"api_version", plugin.api_version ? plugin.api_version : ToString(kBackendApiVersion)},
      {"library", library_file},
      {"platform", BACKPLANE_PLATFORM_TAG},
      {"abi", BACKPLANE_ABI_TAG},
      {"description", std::string("test plugin variant ") + plugin.variant},
      {"capabilities",
       {
           {"device_kind", "cpu"},
           {"data_types", {"f32"}},
           {"layer_types", {"Activation", "ElementwiseBinary"}},
           {"values", {{"ProtectedContentAllocation", false}, {"TestCapability", true}}},
       }},
  };
}

TestFolder::TestFolder() : folder_("unit") {}

fs::path TestFolder::MakeFolder(const fs::path& relative) const {
  const fs::path folder = *this / relative;
  fs::create_directories(folder);
  return folder;
}

fs::path TestFolder::AddLibrary(const TestPlugin& plugin, const fs::path& relative) const {
  const fs::path target = *this / relative;
  fs::create_directories(target.parent_path());
  fs::copy_file(plugin.path, target, fs::copy_options::overwrite_existing);
  return target;
}

fs::path TestFolder::WriteManifest(const fs::path& relative, const nlohmann::json& manifest) const {
  const fs::path target = *this / relative;
  fs::create_directories(target.parent_path());
  WriteText(target, manifest.dump(2));
  return target;
}

fs::path TestFolder::AddPluginWithManifest(const TestPlugin& plugin, const std::string& vendor,
                                           const std::string& name,
                                           const std::function<void(nlohmann::json&)>& edit) const {
  const std::string library = LibraryFileName(vendor, name);
  AddLibrary(plugin, library);
  nlohmann::json manifest = DefaultManifest(plugin, library);
  if (edit) edit(manifest);
  return WriteManifest(ManifestFileName(vendor, name), manifest);
}

fs::path TestFolder::WriteFile(const fs::path& relative, const std::string& contents) const {
  const fs::path target = *this / relative;
  fs::create_directories(target.parent_path());
  WriteText(target, contents);
  return target;
}

fs::path TestFolder::Symlink(const fs::path& relative, const fs::path& target) const {
  const fs::path link = *this / relative;
  fs::create_directories(link.parent_path());
  fs::create_symlink(target, link);
  return link;
}

fs::path TestFolder::Fifo(const fs::path& relative) const {
  const fs::path fifo = *this / relative;
  fs::create_directories(fifo.parent_path());
#if defined(_WIN32)
  throw std::runtime_error("cannot create " + fifo.string() + ": no FIFOs in Windows file systems");
#else
  if (::mkfifo(fifo.c_str(), 0600) != 0) {
    throw std::system_error(errno, std::generic_category(), "cannot create FIFO " + fifo.string());
  }
#endif
  return fifo;
}

void MakeWritableByEveryone(const fs::path& path) {
#if defined(_WIN32)
  BYTE everyone[SECURITY_MAX_SID_SIZE];
  DWORD size = sizeof(everyone);
  if (!::CreateWellKnownSid(WinWorldSid, nullptr, everyone, &size)) {
    throw std::system_error(static_cast<int>(::GetLastError()), std::system_category(), "CreateWellKnownSid");
  }
  PACL old_dacl = nullptr;
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  DWORD status = ::GetNamedSecurityInfoW(path.c_str(), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr,
                                         &old_dacl, nullptr, &descriptor);
  EXPLICIT_ACCESSW access{};
  access.grfAccessPermissions = FILE_GENERIC_WRITE;
  access.grfAccessMode = GRANT_ACCESS;
  access.grfInheritance = NO_INHERITANCE;
  access.Trustee.TrusteeForm = TRUSTEE_IS_SID;
  access.Trustee.TrusteeType = TRUSTEE_IS_WELL_KNOWN_GROUP;
  access.Trustee.ptstrName = reinterpret_cast<LPWSTR>(everyone);
  PACL new_dacl = nullptr;
  if (status == ERROR_SUCCESS) status = ::SetEntriesInAclW(1, &access, old_dacl, &new_dacl);
  if (status == ERROR_SUCCESS) {
    status = ::SetNamedSecurityInfoW(const_cast<wchar_t*>(path.c_str()), SE_FILE_OBJECT, DACL_SECURITY_INFORMATION,
                                     nullptr, nullptr, new_dacl, nullptr);
  }
  ::LocalFree(new_dacl);
  ::LocalFree(descriptor);
  if (status != ERROR_SUCCESS) {
    throw std::system_error(static_cast<int>(status), std::system_category(),
                            "cannot let everyone write " + path.string());
  }
#else
  fs::permissions(path, fs::perms::others_write, fs::perm_options::add);
#endif
}

std::string Sha256OfFile(const fs::path& file) {
  std::ifstream stream(file, std::ios::binary);
  if (!stream) throw std::runtime_error("cannot read " + file.string());
  const std::vector<char> bytes((std::istreambuf_iterator<char>(stream)),
                                std::istreambuf_iterator<char>());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 failed for " + file.string());
  }
  return HexDigits(digest, length);
}

}  // namespace backplane::unit
