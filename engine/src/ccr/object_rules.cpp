#include "ccr/object_rules.h"

#include <algorithm>
#include <optional>

#include "caveman/base/codes.h"
#include "caveman/base/time.h"
#include "json/json.h"
#include "text/utf8.h"

namespace caveman::ccr {
namespace {

Status invalid(std::string message) {
  return Status::InvalidArgument(codes::kInvalidObject, "ccr: typed object: " + std::move(message));
}

template <std::size_t N>
bool contains(const std::string_view (&values)[N], std::string_view v) {
  return std::find(std::begin(values), std::end(values), v) != std::end(values);
}

std::string quoted_list(const std::string_view* begin, const std::string_view* end) {
  std::string out;
  for (const std::string_view* it = begin; it != end; ++it) {
    if (!out.empty()) out += ", ";
    out += *it;
  }
  return out;
}

}  // namespace

bool is_object_type(std::string_view type) { return contains(kObjectTypes, type); }
bool is_currentness(std::string_view value) { return contains(kCurrentness, value); }
bool is_lifecycle(std::string_view value) { return contains(kLifecycle, value); }

std::string derive_object_id(const TypedObject& o) {
  std::string key = o.type;
  for (const std::string* part : {&o.session_id, &o.source, &o.repository_state, &o.content_hash}) {
    key.push_back('\0');
    key += *part;
  }
  return std::string(kObjectIdPrefix) + sha256_hex(key).substr(0, 32);
}

Result<TypedObject> normalize_object(TypedObject o, std::string_view now) {
  if (!is_object_type(o.type)) {
    return invalid("unknown type \"" + o.type + "\" (expected one of " +
                   quoted_list(std::begin(kObjectTypes), std::end(kObjectTypes)) + ")");
  }
  if (text::trim_space(o.session_id).empty()) return invalid("session_id is required");
  if (o.currentness.empty()) o.currentness = "current";
  if (!is_currentness(o.currentness)) {
    return invalid("unknown currentness \"" + o.currentness + "\" (expected one of " +
                   quoted_list(std::begin(kCurrentness), std::end(kCurrentness)) + ")");
  }
  if (o.lifecycle.empty()) o.lifecycle = "hot";
  if (!is_lifecycle(o.lifecycle)) {
    return invalid("unknown lifecycle \"" + o.lifecycle + "\" (expected one of " +
                   quoted_list(std::begin(kLifecycle), std::end(kLifecycle)) + ")");
  }
  if (o.created_at.empty()) {
    o.created_at = std::string(now);
  } else {
    std::optional<std::string> utc = base::normalize_rfc3339(o.created_at);
    if (!utc) return invalid("created_at \"" + o.created_at + "\" is not an RFC 3339 time");
    o.created_at = std::move(*utc);
  }
  std::string hash = "sha256:" + sha256_hex(o.data);
  if (o.content_hash.empty()) {
    o.content_hash = std::move(hash);
  } else if (o.content_hash != hash) {
    return invalid("content_hash " + o.content_hash + " does not match the data (" + hash + ")");
  }
  const auto size = static_cast<std::int64_t>(o.data.size());
  if (o.original_byte_length < -1 || o.stored_byte_length < -1) {
    return invalid("byte lengths must not be negative");
  }
  if (o.original_byte_length == -1) o.original_byte_length = size;
  if (o.stored_byte_length == -1) o.stored_byte_length = size;
  if (o.object_id.empty()) {
    o.object_id = derive_object_id(o);
  } else if (text::trim_space(o.object_id).empty()) {
    return invalid("object_id must not be blank");
  } else if (o.object_id.rfind("ccr_", 0) == 0 && o.object_id.rfind(kObjectIdPrefix, 0) != 0) {
    // Such an id would be shadowed by (or shadow) a blob handle in get().
    return invalid("object_id \"" + o.object_id + "\" looks like a blob handle; use the " +
                   std::string(kObjectIdPrefix) + " prefix or another name");
  }
  return o;
}

std::string dependencies_to_json(const std::vector<std::string>& dependencies) {
  std::string out = "[";
  for (std::size_t i = 0; i < dependencies.size(); ++i) {
    if (i > 0) out.push_back(',');
    json::write_string(dependencies[i], out);
  }
  out.push_back(']');
  return out;
}

Result<std::vector<std::string>> dependencies_from_json(std::string_view text) {
  std::optional<json::Value> v = json::parse(text);
  std::vector<std::string> out;
  if (v && v->is_null()) return out;  // written as `null` by other tools
  if (!v || !v->is_array()) {
    return Status::Corrupt(codes::kCcrUnavailable,
                           "ccr: a typed object's dependencies are not a JSON array");
  }
  for (const json::Value& item : v->items) {
    if (!item.is_string()) {
      return Status::Corrupt(codes::kCcrUnavailable,
                             "ccr: a typed object's dependencies are not all strings");
    }
    out.push_back(item.text);
  }
  return out;
}

}  // namespace caveman::ccr
