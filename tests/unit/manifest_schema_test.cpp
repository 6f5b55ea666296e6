// The published manifest schema (manifests/backend-manifest.schema.json) and the runtime's
// manifest checks must agree: the cases here are read from the schema at test time, so a field
// added to the schema without the runtime learning it (or the other way round) fails here.
#include "discovery_records.hpp"
#include "plugin_trace.hpp"
#include "test_folder.hpp"
#include "test_plugins.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#ifndef BACKPLANE_MANIFEST_SCHEMA_PATH
#error "BACKPLANE_MANIFEST_SCHEMA_PATH must give the path of backend-manifest.schema.json"
#endif

namespace backplane::unit {
namespace {

using nlohmann::json;

const std::string kManifest = ManifestFileName("Test", "ValidA");

json LoadSchema() {
  std::ifstream stream(BACKPLANE_MANIFEST_SCHEMA_PATH);
  REQUIRE_MESSAGE(stream.good(), "cannot read " << BACKPLANE_MANIFEST_SCHEMA_PATH);
  return json::parse(stream);
}

std::vector<std::string> RequiredFields(const json& object_schema) {
  return object_schema.at("required").get<std::vector<std::string>>();
}

// Scans a folder holding valid_a with its default manifest after `edit`; returns the manifest's
// record as text-comparable fields (code, stage, verdict) plus the message via `check`.
void ScanAndCheck(const std::function<void(json&)>& edit,
                  const std::function<void(const DiscoveryReport&, const PluginTrace&)>& check) {
  PluginTrace trace;
  TestFolder folder;
  folder.AddPluginWithManifest(test_plugins::valid_a, "Test", "ValidA", edit);
  auto runtime = Runtime::Create(OptionsFor({folder.path()}));
  INFO(Describe(runtime->GetDiscoveryReport()));
  check(runtime->GetDiscoveryReport(), trace);
}

TEST_CASE("manifest schema: the test fixture's default manifest sets every property the schema declares") {
  // Otherwise the schema-driven cases below would silently skip a field.
  const json schema = LoadSchema();
  const json manifest = DefaultManifest(test_plugins::valid_a, LibraryFileName("Test", "ValidA"));
  for (const auto& [name, property] : schema.at("properties").items()) {
    if (name == "sha256") continue;  // optional, and only valid for a known file
    INFO("property " << name);
    CHECK(manifest.contains(name));
  }
  for (const auto& [name, property] : schema.at("properties").at("capabilities").at("properties").items()) {
    INFO("property capabilities." << name);
    CHECK(manifest.at("capabilities").contains(name));
  }
}

TEST_CASE("manifest schema: a manifest missing any field the schema requires is rejected naming it") {
  const json schema = LoadSchema();
  const auto required = RequiredFields(schema);
  REQUIRE_FALSE(required.empty());
  for (const std::string& field : required) {
    INFO("missing field " << field);
    ScanAndCheck([&](json& m) { m.erase(field); },
                 [&](const DiscoveryReport& report, const PluginTrace& trace) {
                   CHECK(Mismatch(RecordFor(report, kManifest),
                                  {Verdict::kRejected, ReasonCode::kManifestFieldMissing,
                                   DiscoveryStage::kManifestChecked, FoundBy::kManifest,
                                   {kManifest, field}}) == "");
                   CHECK(trace.Count("loaded TestValidA") == 0);
                 });
  }
}

TEST_CASE("manifest schema: a manifest missing any capabilities field the schema requires is rejected naming it") {
  const json schema = LoadSchema();
  const auto required = RequiredFields(schema.at("properties").at("capabilities"));
  REQUIRE_FALSE(required.empty());
  for (const std::string& field : required) {
    INFO("missing field capabilities." << field);
    ScanAndCheck([&](json& m) { m.at("capabilities").erase(field); },
                 [&](const DiscoveryReport& report, const PluginTrace&) {
                   CHECK(Mismatch(RecordFor(report, kManifest),
                                  {Verdict::kRejected, ReasonCode::kManifestFieldMissing,
                                   DiscoveryStage::kManifestChecked, FoundBy::kManifest,
                                   {kManifest, field}}) == "");
                 });
  }
}

TEST_CASE("manifest schema: a number where the schema wants a string is rejected naming the field") {
  const json schema = LoadSchema();
  int checked = 0;
  for (const auto& [name, property] : schema.at("properties").items()) {
    if (property.value("type", "") != "string") continue;
    ++checked;
    INFO("field " << name);
    ScanAndCheck([&](json& m) { m[name] = 12345; },
                 [&](const DiscoveryReport& report, const PluginTrace&) {
                   CHECK(Mismatch(RecordFor(report, kManifest),
                                  {Verdict::kRejected, ReasonCode::kManifestFieldInvalid,
                                   DiscoveryStage::kManifestChecked, FoundBy::kManifest,
                                   {kManifest, name}}) == "");
                 });
  }
  CHECK(checked >= 8);
}

TEST_CASE("manifest schema: every device kind and data type the schema allows is accepted") {
  const json schema = LoadSchema();
  const json& capabilities = schema.at("properties").at("capabilities").at("properties");
  const auto data_types = capabilities.at("data_types").at("items").at("enum").get<std::vector<std::string>>();
  ScanAndCheck([&](json& m) { m["capabilities"]["data_types"] = data_types; },
               [&](const DiscoveryReport& report, const PluginTrace&) {
                 CHECK(VerdictOf(report, kManifest) == "registered");
               });
  for (const std::string& kind : capabilities.at("device_kind").at("enum").get<std::vector<std::string>>()) {
    INFO("device_kind " << kind);
    ScanAndCheck([&](json& m) { m["capabilities"]["device_kind"] = kind; },
                 [&](const DiscoveryReport& report, const PluginTrace&) {
                   CHECK(VerdictOf(report, kManifest) == "registered");
                 });
  }
}

}  // namespace
}  // namespace backplane::unit
