#include "key_commands.hpp"

#include "exit_code.hpp"
#include "file_writes.hpp"

#include <backplane/exception.hpp>
#include <backplane/path_text.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace backplane::sdk_plugin {

namespace fs = std::filesystem;

namespace {

// The key folder of `scope` ("user" or "system") in the default settings.
TrustFolder KeyFolderOf(Scope scope) {
  const std::string source = scope == Scope::kSystem ? "system" : "user";
  for (const TrustFolder& folder : ResolveTrustSettings().key_folders) {
    if (folder.source == source) return folder;
  }
  throw ToolError(ExitCode::kCannotCreate, "no " + source + " trusted-key folder is known here" +
                                               (scope == Scope::kUser ? " (neither XDG_CONFIG_HOME nor HOME is "
                                                                        "set, or this is a set-uid process)"
                                                                      : ""));
}

void RequireFile(const std::string& path, const std::string& what) {
  std::error_code error;
  if (!fs::exists(PathFromUtf8(path), error)) throw ToolError(ExitCode::kInputMissing, "no such " + what + ": " + path);
}

// A runtime Exception as the tool's error: a missing file is kInputMissing, a refused one
// kRejected, anything else kInternal.
ToolError FromRuntime(const Exception& error) {
  switch (error.code()) {
    case ErrorCode::kNotFound: return ToolError(ExitCode::kInputMissing, error.what());
    case ErrorCode::kInvalidArgument: return ToolError(ExitCode::kRejected, error.what());
    default: return ToolError(ExitCode::kInternal, error.what());
  }
}

std::string ReadSmallFile(const std::string& path) {
  std::ifstream in(PathFromUtf8(path), std::ios::binary);
  if (!in) throw ToolError(ExitCode::kInputMissing, "cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TrustSettings ListKeys() { return ResolveTrustSettings(); }

KeyAddResult AddKey(const std::string& file, Scope scope) {
  RequireFile(file, "key file");
  KeyAddResult result;
  try {
    result.key = ReadTrustedKeyFile(file);
  } catch (const Exception& error) {
    throw FromRuntime(error);
  }
  // ReadTrustedKeyFile read at most its limit; the copy is of the same bytes.
  const std::string bytes = ReadSmallFile(file);
  result.folder = KeyFolderOf(scope);
  const fs::path folder = PathFromUtf8(result.folder.path);
  CreateFolder(folder);
  const fs::path target = folder / PathFromUtf8(result.key.key_id + ".json");
  std::error_code error;
  result.replaced = fs::exists(target, error);
  ReplaceFile(target, bytes, kFileMode);
  result.key.file = PathToUtf8(target);
  result.key.source = result.folder.source;
  return result;
}

KeyRemoveResult RemoveKeys(const std::string& selector, Scope scope) {
  KeyRemoveResult result;
  result.folder = KeyFolderOf(scope);
  for (const TrustedKey& key : ResolveTrustSettings().keys) {
    if (key.source != result.folder.source || (key.key_id != selector && key.publisher != selector)) continue;
    std::error_code error;
    fs::remove(PathFromUtf8(key.file), error);
    if (error) throw FileSystemError("cannot remove " + key.file, error, ExitCode::kCannotCreate);
    result.removed.push_back(key);
  }
  if (result.removed.empty()) {
    throw ToolError(ExitCode::kInputMissing, "no trusted key with key id or publisher '" + selector + "' in " +
                                                 result.folder.path + " (" + result.folder.source + ")");
  }
  return result;
}

KeygenResult MakeKey(const std::string& publisher, const std::string& prefix) {
  KeygenResult result;
  result.private_key_file = prefix + ".key";
  result.public_key_file = prefix + ".pub.json";
  for (const std::string& file : {result.private_key_file, result.public_key_file}) {
    std::error_code error;
    if (fs::exists(fs::symlink_status(PathFromUtf8(file), error))) {
      throw ToolError(ExitCode::kCannotCreate, file + " already exists; keygen never overwrites a key");
    }
  }
  SigningKey key;
  try {
    key = GenerateSigningKey(publisher);
  } catch (const Exception& error) {
    if (error.code() == ErrorCode::kInvalidArgument) throw ToolError(ExitCode::kUsage, error.what());
    throw ToolError(ExitCode::kInternal, error.what());
  }
  result.key = key.public_key;
  // The private key is created with mode 0600 before its first byte is written.
  NewFile private_file(PathFromUtf8(result.private_key_file), kPrivateMode);
  private_file.Write(key.private_key_pem.data(), key.private_key_pem.size());
  WriteNewFile(PathFromUtf8(result.public_key_file), TrustedKeyFileText(key.public_key), kFileMode);
  try {
    private_file.Close();  // only now is the key kept; until then a failure removes it
  } catch (const ToolError&) {
    std::error_code ignored;
    fs::remove(PathFromUtf8(result.public_key_file), ignored);
    throw;
  }
  return result;
}

SignatureInfo SignManifest(const std::string& manifest, const std::string& key, const std::string& publisher) {
  RequireFile(manifest, "manifest");
  RequireFile(key, "key file");
  try {
    return SignManifestFile(manifest, key, publisher);
  } catch (const Exception& error) {
    throw FromRuntime(error);
  }
}

}  // namespace backplane::sdk_plugin
