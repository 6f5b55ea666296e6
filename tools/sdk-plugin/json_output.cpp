#include "json_output.hpp"

#include "discovery_json.hpp"

#include <backplane/path_text.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>

namespace backplane::sdk_plugin {

namespace {

using json = nlohmann::ordered_json;  // fields in the documented order
namespace fs = std::filesystem;
using tools::ToJson;

json Envelope(Command command, ExitCode exit_code) {
  return {{"format", kJsonFormatVersion},
          {"command", ToString(command)},
          {"exit_code", static_cast<int>(exit_code)},
          {"status", ToString(exit_code)}};
}

std::string Dump(const json& document) {
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

json ToJson(const DropFolder& folder) {
  std::error_code error;
  return {{"source", folder.source},
          {"path", PathToUtf8(folder.path)},
          {"exists", fs::is_directory(folder.path, error)}};
}

json ToJson(const InstalledDrop& drop) {
  json problems = json::array();
  for (const DropProblem& problem : ProblemsOf(drop)) {
    problems.push_back({{"code", problem.code}, {"message", problem.message}});
  }
  std::vector<std::string> warnings = drop.validation.warnings;
  if (drop.trust) warnings.insert(warnings.end(), drop.trust->warnings.begin(), drop.trust->warnings.end());
  return {{"id", drop.backend_id},
          {"version", drop.version},
          {"vendor", drop.vendor},
          {"source", drop.source},
          {"folder", PathToUtf8(drop.folder)},
          {"manifest", PathToUtf8(drop.manifest)},
          {"library", drop.validation.library_path},
          {"valid", drop.validation.valid},
          {"signature", drop.trust ? ToJson(drop.trust->signature) : json(nullptr)},
          {"passes", drop.Passes()},
          {"problems", std::move(problems)},
          {"warnings", std::move(warnings)}};
}

json ToJson(const TrustedKey& key) {
  return {{"publisher", key.publisher},
          {"key_id", key.key_id},
          {"public_key", key.public_key},
          {"file", key.file},
          {"source", key.source}};
}

json ToJson(const TrustFolder& folder) {
  std::error_code error;
  return {{"path", folder.path}, {"source", folder.source},
          {"exists", fs::is_directory(PathFromUtf8(folder.path), error)}};
}

}  // namespace

std::string InstallJson(const InstallResult& result) {
  json document = Envelope(Command::kInstall, result.exit_code);
  document["drop"] = result.drop;
  document["destination"] = ToJson(result.destination);
  if (result.exit_code == ExitCode::kOk) {
    document["installed"] = {{"id", result.backend_id},
                             {"version", result.version},
                             {"vendor", result.vendor},
                             {"folder", result.folder},
                             {"manifest", result.manifest},
                             {"files", result.files},
                             {"replaced", result.replaced}};
  } else {
    document["installed"] = nullptr;
  }
  document["record"] = result.record ? ToJson(*result.record) : json(nullptr);
  document["stale_removed"] = result.stale_removed;
  if (!result.error.empty()) document["error"] = result.error;
  return Dump(document);
}

std::string SurveyJson(Command command, const DropSurvey& survey, ExitCode exit_code) {
  json document = Envelope(command, exit_code);
  document["policy"] = ToString(survey.trust.policy);
  document["policy_source"] = survey.trust.policy_source;
  json folders = json::array();
  for (const DropFolder& folder : survey.folders) folders.push_back(ToJson(folder));
  document["folders"] = std::move(folders);
  json drops = json::array();
  for (const InstalledDrop& drop : survey.drops) drops.push_back(ToJson(drop));
  document["drops"] = std::move(drops);
  document["summary"] = {{"drops", survey.drops.size()}, {"failed", survey.Failed()}};
  return Dump(document);
}

std::string RemovalJson(const RemovalResult& result) {
  json document = Envelope(Command::kRemove, ExitCode::kOk);
  document["drop_folder"] = ToJson(result.drop_folder);
  json removed = json::array();
  for (const InstalledDrop& drop : result.removed) {
    removed.push_back({{"id", drop.backend_id}, {"version", drop.version}, {"folder", PathToUtf8(drop.folder)}});
  }
  document["removed"] = std::move(removed);
  json remaining = json::array();
  for (const InstalledDrop& drop : result.remaining) {
    remaining.push_back({{"id", drop.backend_id}, {"version", drop.version}, {"folder", PathToUtf8(drop.folder)}});
  }
  document["remaining"] = std::move(remaining);
  return Dump(document);
}

std::string KeysJson(const TrustSettings& settings) {
  json document = Envelope(Command::kKeysList, ExitCode::kOk);
  document["policy"] = ToString(settings.policy);
  document["policy_source"] = settings.policy_source;
  document["system_config"] = settings.system_config;
  json folders = json::array();
  for (const TrustFolder& folder : settings.key_folders) folders.push_back(ToJson(folder));
  document["folders"] = std::move(folders);
  json keys = json::array();
  for (const TrustedKey& key : settings.keys) keys.push_back(ToJson(key));
  document["keys"] = std::move(keys);
  document["problems"] = settings.problems;
  return Dump(document);
}

std::string KeyAddJson(const KeyAddResult& result) {
  json document = Envelope(Command::kKeysAdd, ExitCode::kOk);
  document["key"] = ToJson(result.key);
  document["folder"] = ToJson(result.folder);
  document["replaced"] = result.replaced;
  return Dump(document);
}

std::string KeyRemoveJson(const KeyRemoveResult& result) {
  json document = Envelope(Command::kKeysRemove, ExitCode::kOk);
  document["folder"] = ToJson(result.folder);
  json removed = json::array();
  for (const TrustedKey& key : result.removed) removed.push_back(ToJson(key));
  document["removed"] = std::move(removed);
  return Dump(document);
}

std::string KeygenJson(const KeygenResult& result) {
  json document = Envelope(Command::kKeygen, ExitCode::kOk);
  document["key"] = {{"publisher", result.key.publisher},
                     {"key_id", result.key.key_id},
                     {"public_key", result.key.public_key}};
  document["private_key_file"] = result.private_key_file;
  document["public_key_file"] = result.public_key_file;
  return Dump(document);
}

std::string SignJson(const std::string& manifest, const SignatureInfo& signature) {
  json document = Envelope(Command::kSign, ExitCode::kOk);
  document["manifest"] = manifest;
  document["signature"] = ToJson(signature);
  return Dump(document);
}

std::string ErrorJson(Command command, const ToolError& error) {
  json document = Envelope(command, error.code());
  document["error"] = error.what();
  return Dump(document);
}

}  // namespace backplane::sdk_plugin
