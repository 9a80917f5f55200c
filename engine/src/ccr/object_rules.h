// Validation, defaults and id derivation of typed objects (docs/spec/ccr.md#objects), kept apart
// from SQLite so the rules are pure functions: same object in, same object (or error) out.
// Failures are kInvalidArgument with codes::kInvalidObject.
#ifndef CAVEMAN_CCR_OBJECT_RULES_H_
#define CAVEMAN_CCR_OBJECT_RULES_H_

#include <string>
#include <string_view>
#include <vector>

#include "caveman/ccr.h"

namespace caveman::ccr {

inline constexpr std::string_view kObjectIdPrefix = "ccr_obj_";

bool is_object_type(std::string_view type);
bool is_currentness(std::string_view value);
bool is_lifecycle(std::string_view value);

// "ccr_obj_" + hex of the first 16 bytes of
// SHA-256(type \0 session_id \0 source \0 repository_state \0 content_hash).
std::string derive_object_id(const TypedObject& object);

// Checks every field and fills the defaults: currentness "current", lifecycle "hot",
// created_at `now` (a supplied one is normalized to UTC), content_hash "sha256:<hex>",
// byte lengths = data size, object_id derived. `now` must already be RFC 3339 UTC.
Result<TypedObject> normalize_object(TypedObject object, std::string_view now);

// Compact JSON array of strings (the dependencies_json column), and its inverse.
std::string dependencies_to_json(const std::vector<std::string>& dependencies);
Result<std::vector<std::string>> dependencies_from_json(std::string_view json);

}  // namespace caveman::ccr

#endif  // CAVEMAN_CCR_OBJECT_RULES_H_
