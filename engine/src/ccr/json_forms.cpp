// JSON renderings of store values: StoreStats (docs/spec/ccr.md#stats, 2-space indented like Go's
// MarshalIndent) and TypedObject (docs/spec/ccr.md#objects field order, compact).
#include <string>

#include "caveman/ccr.h"
#include "json/json.h"
#include "text/utf8.h"

namespace caveman::ccr {
namespace {

json::Value integer(std::int64_t v) { return json::Value::number(std::to_string(v)); }

json::Value type_stats_json(const TypeStats& s) {
  json::Value v = json::Value::object();
  v.add("count", integer(s.count));
  v.add("tokens_before", integer(s.tokens_before));
  v.add("tokens_after", integer(s.tokens_after));
  v.add("ratio", json::Value::number(json::format_float(s.ratio())));
  return v;
}

// JSON strings must be UTF-8: invalid bytes become U+FFFD (Go's rule for []byte → string).
std::string valid_utf8(std::string_view s) {
  if (text::is_valid_utf8(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    text::Decoded d = text::decode_utf8(s, i);
    if (d.valid) {
      out.append(s.substr(i, d.len));
    } else {
      text::append_utf8(out, text::kReplacementChar);
    }
    i += d.len > 0 ? d.len : 1;
  }
  return out;
}

}  // namespace

double TypeStats::ratio() const {
  if (tokens_before <= 0) return 0;
  return static_cast<double>(tokens_before - tokens_after) / static_cast<double>(tokens_before);
}

std::string StoreStats::to_json() const {
  json::Value v = json::Value::object();
  v.add("totals", type_stats_json(totals));
  json::Value by_type = json::Value::object();
  for (const auto& [type, stats] : by_content_type) by_type.add(type, type_stats_json(stats));
  v.add("by_content_type", std::move(by_type));
  v.add("basis", json::Value::string("inferred"));
  if (storage_bytes != 0) v.add("storage_bytes", integer(storage_bytes));
  if (max_storage_bytes != 0) v.add("max_storage_bytes", integer(max_storage_bytes));
  if (storage_full) v.add("storage_full", json::Value::from_bool(true));
  return json::to_indented(v, 2);
}

std::string TypedObject::to_json() const {
  json::Value v = json::Value::object();
  v.add("object_id", json::Value::string(valid_utf8(object_id)));
  v.add("type", json::Value::string(valid_utf8(type)));
  v.add("content_hash", json::Value::string(valid_utf8(content_hash)));
  v.add("source", json::Value::string(valid_utf8(source)));
  v.add("created_at", json::Value::string(valid_utf8(created_at)));
  v.add("repository_state", json::Value::string(valid_utf8(repository_state)));
  v.add("session_id", json::Value::string(valid_utf8(session_id)));
  v.add("transform_version", json::Value::string(valid_utf8(transform_version)));
  v.add("currentness", json::Value::string(valid_utf8(currentness)));
  v.add("lifecycle", json::Value::string(valid_utf8(lifecycle)));
  json::Value deps = json::Value::array();
  for (const std::string& d : dependencies)
    deps.items.push_back(json::Value::string(valid_utf8(d)));
  v.add("dependencies", std::move(deps));
  v.add("original_byte_length", integer(original_byte_length));
  v.add("stored_byte_length", integer(stored_byte_length));
  v.add("data", json::Value::string(valid_utf8(data)));
  return json::to_compact(v);
}

}  // namespace caveman::ccr
