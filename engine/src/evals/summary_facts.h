// Checks the facts an invariant summary states (docs/spec/markers.md#summary: "all a=b", "k: x×2
// absent×1", "id: 3 distinct, a..c", "id: n-1..n-9 all 9 present", "range n=1..9") against
// ground truth read from the ORIGINAL elided units — never from the compressor's own field
// extraction, which is what is under test. Pure functions; safe from any thread.
#ifndef CAVEMAN_EVALS_SUMMARY_FACTS_H_
#define CAVEMAN_EVALS_SUMMARY_FACTS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"

namespace caveman::evals {

// Ground truth of one elided unit: field name → the unit's first value for it.
using FieldUnit = std::map<std::string, std::string>;

// Empty when every stated fact holds for `units`; otherwise what is false. `facts` (may be
// null) is incremented per verified entry. An empty summary states nothing and holds.
std::string check_summary_facts(std::string_view summary, const std::vector<FieldUnit>& units,
                                int* facts);

// A log line's fields: the scalar top-level members of a one-line JSON object, else logfmt
// `key=value` pairs (quoted values unquoted).
FieldUnit log_line_fields(std::string_view line);
// A JSON element's scalar top-level members (strings as-is, numbers as written, booleans);
// null, nested values and empty strings are not fields.
FieldUnit json_element_fields(const json::Value& v);

}  // namespace caveman::evals

#endif  // CAVEMAN_EVALS_SUMMARY_FACTS_H_
