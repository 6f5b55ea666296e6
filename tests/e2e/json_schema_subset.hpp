// Test-only: checks a JSON document against a JSON Schema (draft 2020-12) that keeps to a small
// subset, enough for the tools' published schemas (docs/sdk-info.schema.json).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace backplane::e2e {

// The problems of `instance` against `schema`, each starting with the JSON pointer of the place
// ("/backends/0/id: ..."); empty when it conforms. Keywords understood: type (one name), enum,
// const, properties, required, additionalProperties (false or a schema), items (a schema),
// minimum, pattern (std::regex, ECMAScript), oneOf, and $ref to "#/$defs/NAME" of `schema`;
// $schema, $id, $defs, title and description are accepted and ignored. Any other keyword is
// reported as a problem, so a schema that outgrows the subset fails rather than passing
// unchecked.
std::vector<std::string> SchemaViolations(const nlohmann::json& instance, const nlohmann::json& schema);

}  // namespace backplane::e2e
