// The trusted-key commands (keys list, keys add, keys remove) and the vendor's commands (keygen,
// sign). Signing, key files and trust are the runtime's (backplane/trust.hpp); these put the
// files where they belong, with the right modes. They keep no state; a key file is replaced by
// a rename, so a runtime reading the folder at the same time sees the old file or the new one.
#pragma once

#include "command_line.hpp"

#include <backplane/trust.hpp>

#include <string>
#include <vector>

namespace backplane::sdk_plugin {

// keys list: ResolveTrustSettings() with the default options.
TrustSettings ListKeys();

struct KeyAddResult {
  TrustedKey key;      // as read from the given file; `file` is where it was copied
  TrustFolder folder;  // the key folder it went into
  bool replaced = false;  // a key file of the same key id was there
};
// Checks `file` with ReadTrustedKeyFile and copies it (its bytes) to <key folder of
// `scope`>/<key_id>.json, mode 0644, creating the folder (0755) if needed. Throws ToolError:
// kInputMissing (no such file), kRejected (not a trusted-key file: the runtime's message),
// kCannotCreate / kPermissionDenied (the folder cannot be written).
KeyAddResult AddKey(const std::string& file, Scope scope);

struct KeyRemoveResult {
  TrustFolder folder;
  std::vector<TrustedKey> removed;
};
// Removes the key files of the keys in the key folder of `scope` whose key id or publisher is
// `selector`. Throws ToolError: kInputMissing when there is none (naming the folder),
// kPermissionDenied / kCannotCreate when a file cannot be removed.
KeyRemoveResult RemoveKeys(const std::string& selector, Scope scope);

struct KeygenResult {
  TrustedKey key;
  std::string private_key_file;  // PREFIX.key, mode 0600
  std::string public_key_file;   // PREFIX.pub.json
};
// Makes a key pair for `publisher` and writes both files; neither may exist. Throws ToolError:
// kUsage (a publisher name the runtime refuses), kCannotCreate (a file exists or cannot be
// written; nothing is left behind), kPermissionDenied, kInternal.
KeygenResult MakeKey(const std::string& publisher, const std::string& prefix);

// Signs `manifest` with the private key file `key` (SignManifestFile) and returns what it
// reports (signature_path: the .sig written). Throws ToolError: kInputMissing (no such manifest
// or key file), kRejected (the runtime refused the manifest or the key: no sha256, not
// Ed25519), kInternal.
SignatureInfo SignManifest(const std::string& manifest, const std::string& key, const std::string& publisher);

}  // namespace backplane::sdk_plugin
