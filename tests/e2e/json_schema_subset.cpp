#include "json_schema_subset.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <utility>

namespace backplane::e2e {

namespace {

using nlohmann::json;

bool HasType(const json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "null") return value.is_null();
  return false;
}

class Checker {
 public:
  explicit Checker(const json& root) : root_(root) {}

  void Check(const json& value, const json& schema, const std::string& where, std::vector<std::string>& problems) const {
    static const std::set<std::string> kIgnored = {"$schema", "$id", "$defs", "title", "description"};
    static const std::set<std::string> kUnderstood = {
        "type", "enum", "const", "properties", "required", "additionalProperties", "items", "minimum", "pattern", "oneOf", "$ref"};
    const auto problem = [&](const std::string& text) { problems.push_back((where.empty() ? "/" : where) + ": " + text); };
    for (const auto& [keyword, unused] : schema.items()) {
      if (kIgnored.count(keyword) == 0 && kUnderstood.count(keyword) == 0) problem("schema keyword " + keyword + " is not supported");
    }
    if (schema.contains("$ref")) {
      const std::string ref = schema.at("$ref");
      const std::string prefix = "#/$defs/";
      if (ref.rfind(prefix, 0) != 0 || !root_.contains("$defs") || !root_.at("$defs").contains(ref.substr(prefix.size()))) {
        problem("cannot resolve $ref " + ref);
      } else {
        Check(value, root_.at("$defs").at(ref.substr(prefix.size())), where, problems);
      }
    }
    if (schema.contains("type") && !HasType(value, schema.at("type"))) {
      problem("expected type " + schema.at("type").get<std::string>() + ", found " + value.type_name() + " " + value.dump());
      return;  // the other keywords would only repeat it
    }
    if (schema.contains("const") && value != schema.at("const")) problem("expected " + schema.at("const").dump() + ", found " + value.dump());
    if (schema.contains("enum")) {
      const json& values = schema.at("enum");
      if (std::find(values.begin(), values.end(), value) == values.end()) problem(value.dump() + " is not one of " + values.dump());
    }
    if (schema.contains("minimum") && value.is_number() && value.get<double>() < schema.at("minimum").get<double>()) {
      problem(value.dump() + " is below the minimum " + schema.at("minimum").dump());
    }
    if (schema.contains("pattern") && value.is_string() &&
        !std::regex_search(value.get<std::string>(), std::regex(schema.at("pattern").get<std::string>()))) {
      problem(value.dump() + " does not match " + schema.at("pattern").get<std::string>());
    }
    if (value.is_object()) CheckObject(value, schema, where, problems);
    if (value.is_array() && schema.contains("items")) {
      for (std::size_t i = 0; i < value.size(); ++i) Check(value[i], schema.at("items"), where + "/" + std::to_string(i), problems);
    }
    if (schema.contains("oneOf")) CheckOneOf(value, schema.at("oneOf"), where, problems);
  }

 private:
  void CheckObject(const json& value, const json& schema, const std::string& where, std::vector<std::string>& problems) const {
    const json no_properties = json::object();
    const json& properties = schema.contains("properties") ? schema.at("properties") : no_properties;
    if (schema.contains("required")) {
      for (const json& name : schema.at("required")) {
        if (!value.contains(name.get<std::string>())) {
          problems.push_back(where + "/" + name.get<std::string>() + ": required, but missing");
        }
      }
    }
    for (const auto& [name, member] : value.items()) {
      const std::string place = where + "/" + name;
      if (properties.contains(name)) {
        Check(member, properties.at(name), place, problems);
      } else if (schema.contains("additionalProperties")) {
        const json& additional = schema.at("additionalProperties");
        if (additional == false) {
          problems.push_back(place + ": not declared in the schema");
        } else if (additional.is_object()) {
          Check(member, additional, place, problems);
        }
      }
    }
  }

  // Exactly one branch must match; when none does, the problems of the closest one are shown.
  void CheckOneOf(const json& value, const json& branches, const std::string& where, std::vector<std::string>& problems) const {
    std::size_t matches = 0;
    std::vector<std::string> closest;
    for (const json& branch : branches) {
      std::vector<std::string> found;
      Check(value, branch, where, found);
      if (found.empty()) {
        ++matches;
      } else if (closest.empty() || found.size() < closest.size()) {
        closest = std::move(found);
      }
    }
    if (matches == 1) return;
    if (matches == 0) {
      problems.push_back((where.empty() ? "/" : where) + ": matches no oneOf branch; the closest one says:");
      problems.insert(problems.end(), closest.begin(), closest.end());
    } else {
      problems.push_back((where.empty() ? "/" : where) + ": matches " + std::to_string(matches) + " oneOf branches, not one");
    }
  }

  const json& root_;
};

}  // namespace

std::vector<std::string> SchemaViolations(const json& instance, const json& schema) {
  std::vector<std::string> problems;
  Checker(schema).Check(instance, schema, "", problems);
  return problems;
}

}  // namespace backplane::e2e
