// The json_schema grader's validator: the subset of JSON Schema that eval manifests use —
// type (incl. integer), enum, const, required, properties, additionalProperties: false,
// items, minItems, maxItems, minLength, maxLength (in code points), pattern (ECMAScript,
// searched anywhere), minimum, maximum. Unknown keywords are ignored, as JSON Schema does.
// Pure function; safe from any thread.
#ifndef CAVEMAN_EVALS_JSON_SCHEMA_H_
#define CAVEMAN_EVALS_JSON_SCHEMA_H_

#include <string>

#include "json/json.h"

namespace caveman::evals {

// "" when `value` satisfies `schema`; otherwise the first violation, with its JSON path.
std::string validate_json_schema(const json::Value& value, const json::Value& schema);

// Deep equality (enum/const, and the TOON round trip): object members compare as maps
// regardless of order (TOON rows may reorder keys), numbers by literal or else by value
// (1.50 equals 1.5, as TOON canonicalises it).
bool json_equal(const json::Value& a, const json::Value& b);

}  // namespace caveman::evals

#endif  // CAVEMAN_EVALS_JSON_SCHEMA_H_
