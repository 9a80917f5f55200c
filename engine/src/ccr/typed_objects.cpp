// Typed objects of the SQLite store (docs/spec/ccr.md#objects).
#include "caveman/base/codes.h"
#include "ccr/object_rules.h"
#include "ccr/sqlite_store.h"
#include "caveman/base/time.h"
#include "text/utf8.h"

namespace caveman::ccr {
namespace {

constexpr const char* kObjectColumns =
    "object_id, object_type, content_hash, source, created_at, repository_state, session_id, "
    "transform_version, currentness, lifecycle, dependencies_json, original_byte_length, "
    "stored_byte_length, data";

// Newest-first order. created_at drops trailing fraction zeros ("…05Z", "…05.5Z",
// "…05.12Z"), so its text does not sort by time; this key pads the fraction to nine digits
// (stored values are always UTC "YYYY-MM-DDTHH:MM:SS[.f…]Z", 19 chars before the fraction).
constexpr const char* kNewestFirst =
    "ORDER BY substr(created_at, 1, 19) || substr(CASE WHEN instr(created_at, '.') > 0 "
    "THEN substr(created_at, instr(created_at, '.') + 1, "
    "length(created_at) - instr(created_at, '.') - 1) ELSE '' END || '000000000', 1, 9) DESC, "
    "object_id DESC";

constexpr int kDefaultListLimit = 100;
constexpr int kMaxListLimit = 10000;

Status object_not_found() {
  return Status::NotFound(codes::kUnknownHandle, "ccr: typed object not found");
}

Result<TypedObject> row_to_object(SQLite::Statement& q) {
  TypedObject o;
  o.object_id = column_bytes(q.getColumn(0));
  o.type = column_bytes(q.getColumn(1));
  o.content_hash = column_bytes(q.getColumn(2));
  o.source = column_bytes(q.getColumn(3));
  o.created_at = column_bytes(q.getColumn(4));
  o.repository_state = column_bytes(q.getColumn(5));
  o.session_id = column_bytes(q.getColumn(6));
  o.transform_version = column_bytes(q.getColumn(7));
  o.currentness = column_bytes(q.getColumn(8));
  o.lifecycle = column_bytes(q.getColumn(9));
  CAVEMAN_ASSIGN_OR_RETURN(o.dependencies, dependencies_from_json(column_bytes(q.getColumn(10))));
  o.original_byte_length = q.getColumn(11).getInt64();
  o.stored_byte_length = q.getColumn(12).getInt64();
  o.data = column_bytes(q.getColumn(13));
  return o;
}

// Every field put_object may not change under an existing id.
bool same_immutable_fields(const TypedObject& a, const TypedObject& b) {
  return a.type == b.type && a.content_hash == b.content_hash && a.source == b.source &&
         a.repository_state == b.repository_state && a.session_id == b.session_id &&
         a.transform_version == b.transform_version && a.dependencies == b.dependencies &&
         a.original_byte_length == b.original_byte_length &&
         a.stored_byte_length == b.stored_byte_length && a.data == b.data;
}

}  // namespace

Result<std::optional<TypedObject>> SqliteStore::read_object_locked(std::string_view object_id) {
  SQLite::Statement q(
      *db_, std::string("SELECT ") + kObjectColumns + " FROM typed_objects WHERE object_id = ?1");
  q.bind(1, std::string(object_id));
  if (!q.executeStep()) return std::optional<TypedObject>();
  CAVEMAN_ASSIGN_OR_RETURN(TypedObject o, row_to_object(q));
  return std::optional<TypedObject>(std::move(o));
}

Result<TypedObject> SqliteStore::put_object(TypedObject object) {
  CAVEMAN_ASSIGN_OR_RETURN(TypedObject o,
                           normalize_object(std::move(object), base::format_rfc3339(base::now_utc())));
  const std::string deps = dependencies_to_json(o.dependencies);
  return locked("put_object", [&]() REQUIRES(mu_) -> Result<TypedObject> {
    Transaction tx(*db_, Transaction::Kind::kWrite);
    CAVEMAN_ASSIGN_OR_RETURN(std::optional<TypedObject> existing, read_object_locked(o.object_id));
    if (existing) {
      // Currentness, lifecycle and created_at may differ; nothing else may.
      if (!same_immutable_fields(*existing, o)) {
        return Status::Corrupt(codes::kObjectIdCollision, "ccr: typed object id collision");
      }
      return std::move(*existing);
    }
    const std::int64_t after = used_bytes_locked() + static_cast<std::int64_t>(o.data.size()) +
                               static_cast<std::int64_t>(deps.size());
    if (after > max_bytes_) return budget_exceeded();
    SQLite::Statement ins(*db_, std::string("INSERT OR IGNORE INTO typed_objects(") +
                                    kObjectColumns +
                                    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                                    "?12, ?13, ?14)");
    ins.bind(1, o.object_id);
    ins.bind(2, o.type);
    ins.bind(3, o.content_hash);
    ins.bind(4, o.source);
    ins.bind(5, o.created_at);
    ins.bind(6, o.repository_state);
    ins.bind(7, o.session_id);
    ins.bind(8, o.transform_version);
    ins.bind(9, o.currentness);
    ins.bind(10, o.lifecycle);
    ins.bind(11, deps);
    ins.bind(12, static_cast<std::int64_t>(o.original_byte_length));
    ins.bind(13, static_cast<std::int64_t>(o.stored_byte_length));
    bind_blob(ins, 14, o.data);
    ins.exec();
    tx.commit();
    return o;
  });
}

Result<TypedObject> SqliteStore::get_object(std::string_view object_id) {
  return locked("get_object", [&]() REQUIRES(mu_) -> Result<TypedObject> {
    CAVEMAN_ASSIGN_OR_RETURN(std::optional<TypedObject> o, read_object_locked(object_id));
    if (!o) return object_not_found();
    return std::move(*o);
  });
}

Status SqliteStore::set_object_field(std::string_view column, std::string_view object_id,
                                     std::string_view value) {
  return locked("update typed object", [&]() REQUIRES(mu_) -> Status {
    SQLite::Statement q(
        *db_, "UPDATE typed_objects SET " + std::string(column) + " = ?1 WHERE object_id = ?2");
    q.bind(1, std::string(value));
    q.bind(2, std::string(object_id));
    if (q.exec() == 0) return object_not_found();
    return Status::Ok();
  });
}

Status SqliteStore::set_object_currentness(std::string_view object_id, std::string_view value) {
  if (!is_currentness(value)) {
    return Status::InvalidArgument(
        codes::kInvalidObject,
        "ccr: typed object: unknown currentness \"" + std::string(value) + "\"");
  }
  return set_object_field("currentness", object_id, value);
}

Status SqliteStore::set_object_lifecycle(std::string_view object_id, std::string_view value) {
  if (!is_lifecycle(value)) {
    return Status::InvalidArgument(
        codes::kInvalidObject,
        "ccr: typed object: unknown lifecycle \"" + std::string(value) + "\"");
  }
  return set_object_field("lifecycle", object_id, value);
}

Result<std::vector<TypedObject>> SqliteStore::list_session_objects(std::string_view session_id,
                                                                   int limit) {
  if (text::trim_space(session_id).empty()) {
    return Status::InvalidArgument(codes::kInvalidArguments, "ccr: session_id is required");
  }
  if (limit <= 0) limit = kDefaultListLimit;
  if (limit > kMaxListLimit) limit = kMaxListLimit;
  return locked("list_session_objects", [&]() REQUIRES(mu_) -> Result<std::vector<TypedObject>> {
    SQLite::Statement q(*db_, std::string("SELECT ") + kObjectColumns +
                                  " FROM typed_objects WHERE session_id = ?1 " + kNewestFirst +
                                  " LIMIT ?2");
    q.bind(1, std::string(session_id));
    q.bind(2, limit);
    std::vector<TypedObject> out;
    while (q.executeStep()) {
      CAVEMAN_ASSIGN_OR_RETURN(TypedObject o, row_to_object(q));
      out.push_back(std::move(o));
    }
    return out;
  });
}

Result<std::optional<TypedObject>> SqliteStore::find_task_decision(std::string_view decision_id) {
  return locked("find_task_decision", [&]() REQUIRES(mu_) -> Result<std::optional<TypedObject>> {
    // CASE guards json_extract: malformed data in one row must not fail the whole search.
    SQLite::Statement q(*db_,
                        std::string("SELECT ") + kObjectColumns +
                            " FROM typed_objects WHERE object_type = 'TaskDecision' AND "
                            "CASE WHEN json_valid(CAST(data AS TEXT)) "
                            "THEN json_extract(CAST(data AS TEXT), '$.decision_id') END = ?1 " +
                            kNewestFirst + " LIMIT 1");
    q.bind(1, std::string(decision_id));
    if (!q.executeStep()) return std::optional<TypedObject>();
    CAVEMAN_ASSIGN_OR_RETURN(TypedObject o, row_to_object(q));
    return std::optional<TypedObject>(std::move(o));
  });
}

}  // namespace caveman::ccr
