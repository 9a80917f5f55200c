#include "json_io.h"

#include <cmath>
#include <utility>

#include "caveman/base/codes.h"

namespace caveman::mem {
namespace {

Json optional_string(const std::optional<std::string>& v) { return v ? Json(*v) : Json(nullptr); }

Json tags_json(const std::vector<std::string>& tags) {
  Json a = Json::array();
  for (const std::string& t : tags) a.push_back(t);
  return a;
}

Status bad(int line, const std::string& message) {
  return Status::InvalidArgument(codes::kInvalidImport,
                                 "line " + std::to_string(line) + ": " + message);
}

}  // namespace

Json memory_json(const Memory& m) {
  Json j = Json::object();
  j["id"] = m.id;
  j["text"] = m.text;
  j["created_at"] = m.created_at;
  j["valid_from"] = m.valid_from;
  j["valid_until"] = optional_string(m.valid_until);
  j["supersedes"] = optional_string(m.supersedes);
  j["superseded_by"] = optional_string(m.superseded_by);
  j["project"] = optional_string(m.project);
  j["tags"] = tags_json(m.tags);
  j["current"] = m.current();
  return j;
}

Json hit_json(const RecallHit& h) {
  Json j = Json::object();
  j["id"] = h.id;
  j["text"] = h.text;
  j["score"] = std::round(h.score * 1e4) / 1e4;
  j["tokens_added"] = h.tokens_added;
  j["basis"] = "inferred";
  j["recovery_handle"] = h.recovery_handle.empty() ? Json(nullptr) : Json(h.recovery_handle);
  j["truncated"] = h.truncated;
  j["created_at"] = h.created_at;
  j["project"] = optional_string(h.project);
  j["tags"] = tags_json(h.tags);
  if (!h.error.empty()) j["error"] = h.error;
  return j;
}

Json recall_json(const RecallResult& r) {
  Json hits = Json::array();
  for (const RecallHit& h : r.hits) hits.push_back(hit_json(h));
  Json j = Json::object();
  j["hits"] = std::move(hits);
  j["token_budget"] = r.token_budget;
  j["tokens_used"] = r.tokens_used;
  j["candidates"] = r.candidates;
  j["basis"] = "inferred";
  return j;
}

Json stats_json(const StoreStats& s, std::string_view dir) {
  Json j = Json::object();
  j["memories"] = s.current;
  j["versions"] = s.versions;
  j["superseded"] = s.superseded;
  j["expired"] = s.expired;
  j["projects"] = s.projects;
  j["db_bytes"] = s.db_bytes;
  j["schema_version"] = s.schema_version;
  j["store"] = dir.empty() ? std::string(":memory:") : std::string(dir) + "/mem.db";
  j["basis"] = "inferred";
  return j;
}

std::string export_line(const Memory& m) {
  Json j = memory_json(m);
  j.erase("current");
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

namespace {

using StringField = std::string Memory::*;
using OptionalField = std::optional<std::string> Memory::*;

constexpr std::pair<std::string_view, StringField> kStringFields[] = {
    {"id", &Memory::id},
    {"text", &Memory::text},
    {"created_at", &Memory::created_at},
    {"valid_from", &Memory::valid_from}};
constexpr std::pair<std::string_view, OptionalField> kOptionalFields[] = {
    {"valid_until", &Memory::valid_until},
    {"supersedes", &Memory::supersedes},
    {"superseded_by", &Memory::superseded_by},
    {"project", &Memory::project}};

template <typename Field, std::size_t N>
const Field* find_field(const std::pair<std::string_view, Field> (&fields)[N], std::string_view key) {
  for (const auto& [name, field] : fields) {
    if (name == key) return &field;
  }
  return nullptr;
}

// One member of an import line into `m`.
Status import_member(const std::string& key, const Json& v, int line_no, Memory& m) {
  if (const StringField* f = find_field(kStringFields, key)) {
    if (!v.is_string()) return bad(line_no, "\"" + key + "\" must be a string");
    m.*(*f) = v.get<std::string>();
  } else if (const OptionalField* o = find_field(kOptionalFields, key)) {
    if (v.is_null()) return Status::Ok();
    if (!v.is_string()) return bad(line_no, "\"" + key + "\" must be a string or null");
    m.*(*o) = v.get<std::string>();
  } else if (key == "tags") {
    if (!v.is_array()) return bad(line_no, "\"tags\" must be an array of strings");
    for (const Json& t : v) {
      if (!t.is_string()) return bad(line_no, "\"tags\" must be an array of strings");
      m.tags.push_back(t.get<std::string>());
    }
  } else if (key == "current") {
    if (!v.is_boolean()) return bad(line_no, "\"current\" must be a boolean");
  } else {
    return bad(line_no, "unknown field \"" + key + "\"");
  }
  return Status::Ok();
}

}  // namespace

Result<ImportRow> parse_import_line(std::string_view line, int line_no) {
  Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return bad(line_no, "not a JSON object");
  ImportRow row;
  row.line = line_no;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (Status s = import_member(it.key(), it.value(), line_no, row.memory); !s.ok()) return s;
  }
  if (!j.contains("text")) return bad(line_no, "missing \"text\"");
  return row;
}

std::string pretty(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n"; }

}  // namespace caveman::mem
