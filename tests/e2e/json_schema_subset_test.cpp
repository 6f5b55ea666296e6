// The schema checker the e2e suites use: it must find each kind of problem it claims to find,
// or a schema test built on it could not fail.
#include "json_schema_subset.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace backplane::e2e {
namespace {

using nlohmann::json;

const json kSchema = json::parse(R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
  "$defs": {
    "a": {
      "type": "object",
      "required": ["kind", "count", "items", "map"],
      "additionalProperties": false,
      "properties": {
        "kind": {"const": "a"},
        "count": {"type": "integer", "minimum": 0},
        "items": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}},
        "map": {"type": "object", "additionalProperties": {"type": "boolean"}},
        "version": {"type": "string", "pattern": "^[0-9]+\\.[0-9]+$"}
      }
    },
    "b": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "b"}}, "additionalProperties": false}
  }
})");

std::string Joined(const std::vector<std::string>& problems) {
  std::string text;
  for (const std::string& problem : problems) text += problem + "\n";
  return text;
}

json Valid() { return {{"kind", "a"}, {"count", 2}, {"items", {"x", "y"}}, {"map", {{"on", true}}}, {"version", "1.4"}}; }

TEST_CASE("schema subset: a conforming document has no problems") {
  CHECK(Joined(SchemaViolations(Valid(), kSchema)) == "");
  CHECK(Joined(SchemaViolations(json{{"kind", "b"}}, kSchema)) == "");
}

TEST_CASE("schema subset: each kind of problem is found and placed") {
  const auto check = [](json document, const std::string& expected) {
    const std::string problems = Joined(SchemaViolations(document, kSchema));
    INFO(problems);
    CHECK(problems.find(expected) != std::string::npos);
  };
  json document = Valid();
  document["extra"] = 1;
  check(document, "/extra: not declared in the schema");
  document = Valid();
  document.erase("count");
  check(document, "/count: required, but missing");
  document = Valid();
  document["count"] = "2";
  check(document, "/count: expected type integer, found string");
  document = Valid();
  document["count"] = -1;
  check(document, "/count: -1 is below the minimum 0");
  document = Valid();
  document["items"] = {"x", "z"};
  check(document, "/items/1: \"z\" is not one of");
  document = Valid();
  document["map"]["off"] = "no";
  check(document, "/map/off: expected type boolean");
  document = Valid();
  document["version"] = "1.4.0";
  check(document, "/version: \"1.4.0\" does not match");
  check(json{{"kind", "c"}}, "/: matches no oneOf branch");
}

TEST_CASE("schema subset: a keyword outside the subset is a problem, not ignored") {
  const json schema = {{"type", "string"}, {"maxLength", 3}};
  CHECK(Joined(SchemaViolations("abcd", schema)).find("schema keyword maxLength is not supported") != std::string::npos);
  CHECK(Joined(SchemaViolations(1, json{{"$ref", "#/$defs/missing"}})).find("cannot resolve $ref") != std::string::npos);
}

}  // namespace
}  // namespace backplane::e2e
