// sdk-plugin's human-readable output on stdout: short lines, colour only on a terminal.
// (Errors go to stderr from main.cpp, each starting with "sdk-plugin: ".)
#pragma once

#include "drop_folders.hpp"
#include "drop_install.hpp"
#include "drop_verification.hpp"
#include "key_commands.hpp"
#include "text_style.hpp"

#include <ostream>
#include <string>

namespace backplane::sdk_plugin {

// "verified by Acme (key 0123456789abcdef)", "unsigned", "untrusted: signed by Acme (key ...)".
std::string DescribeSignature(const SignatureInfo& signature);

void WriteInstallText(std::ostream& out, const InstallResult& result, const tools::TextStyle& style);
void WriteListText(std::ostream& out, const DropSurvey& survey, const tools::TextStyle& style);
void WriteVerifyText(std::ostream& out, const DropSurvey& survey, const tools::TextStyle& style);
void WriteRemovalText(std::ostream& out, const RemovalResult& result, const tools::TextStyle& style);
void WriteKeysText(std::ostream& out, const TrustSettings& settings, const tools::TextStyle& style);
void WriteKeyAddText(std::ostream& out, const KeyAddResult& result, const tools::TextStyle& style);
void WriteKeyRemoveText(std::ostream& out, const KeyRemoveResult& result, const tools::TextStyle& style);
void WriteKeygenText(std::ostream& out, const KeygenResult& result, const tools::TextStyle& style);
void WriteSignText(std::ostream& out, const SignatureInfo& signature, const tools::TextStyle& style);

}  // namespace backplane::sdk_plugin
