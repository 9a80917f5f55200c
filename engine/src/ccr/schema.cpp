#include "ccr/schema.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "caveman/base/codes.h"
#include "ccr/sqlite_util.h"

namespace caveman::ccr {
namespace {

constexpr std::int64_t kMinPages = 16;
constexpr auto kRetryStep = std::chrono::milliseconds(25);
constexpr auto kRetryBudget = std::chrono::seconds(5);

constexpr const char* kTablesSql = R"sql(
CREATE TABLE IF NOT EXISTS recoveries(
  handle TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  content_type TEXT NOT NULL,
  compressor TEXT NOT NULL,
  tokens_before INTEGER NOT NULL,
  tokens_after INTEGER NOT NULL,
  original BLOB NOT NULL,
  metadata BLOB);
CREATE TABLE IF NOT EXISTS typed_objects(
  object_id TEXT PRIMARY KEY,
  object_type TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  source TEXT NOT NULL,
  created_at TEXT NOT NULL,
  repository_state TEXT NOT NULL,
  session_id TEXT NOT NULL,
  transform_version TEXT NOT NULL,
  currentness TEXT NOT NULL,
  lifecycle TEXT NOT NULL,
  dependencies_json TEXT NOT NULL,
  original_byte_length INTEGER NOT NULL,
  stored_byte_length INTEGER NOT NULL,
  data BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS typed_objects_session_created
  ON typed_objects(session_id, created_at DESC);
)sql";

// "Used" bytes (docs/spec/ccr.md#budget) as a counter row: Σ(original + metadata) over recoveries
// plus Σ(data + dependencies_json) over typed objects, seeded from the tables once and then kept
// current by triggers inside every writer's own transaction (whichever process writes).
constexpr const char* kUsageSql = R"sql(
CREATE TABLE IF NOT EXISTS ccr_usage(
  id INTEGER PRIMARY KEY CHECK (id = 1),
  used_bytes INTEGER NOT NULL);
INSERT OR IGNORE INTO ccr_usage(id, used_bytes) VALUES (1,
  (SELECT ifnull(sum(length(original) + ifnull(length(metadata), 0)), 0) FROM recoveries) +
  (SELECT ifnull(sum(length(data) + length(dependencies_json)), 0) FROM typed_objects));
CREATE TRIGGER IF NOT EXISTS ccr_usage_recoveries_insert AFTER INSERT ON recoveries BEGIN
  UPDATE ccr_usage SET used_bytes = used_bytes + length(NEW.original)
    + ifnull(length(NEW.metadata), 0) WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS ccr_usage_recoveries_update
AFTER UPDATE OF original, metadata ON recoveries BEGIN
  UPDATE ccr_usage SET used_bytes = used_bytes
    + length(NEW.original) + ifnull(length(NEW.metadata), 0)
    - length(OLD.original) - ifnull(length(OLD.metadata), 0) WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS ccr_usage_recoveries_delete AFTER DELETE ON recoveries BEGIN
  UPDATE ccr_usage SET used_bytes = used_bytes - length(OLD.original)
    - ifnull(length(OLD.metadata), 0) WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS ccr_usage_objects_insert AFTER INSERT ON typed_objects BEGIN
  UPDATE ccr_usage SET used_bytes = used_bytes + length(NEW.data)
    + length(NEW.dependencies_json) WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS ccr_usage_objects_update
AFTER UPDATE OF data, dependencies_json ON typed_objects BEGIN
  UPDATE ccr_usage SET used_bytes = used_bytes
    + length(NEW.data) + length(NEW.dependencies_json)
    - length(OLD.data) - length(OLD.dependencies_json) WHERE id = 1;
END;
CREATE TRIGGER IF NOT EXISTS ccr_usage_objects_delete AFTER DELETE ON typed_objects BEGIN
  UPDATE ccr_usage SET used_bytes = used_bytes - length(OLD.data)
    - length(OLD.dependencies_json) WHERE id = 1;
END;
)sql";

// Creates whatever is missing, in one write transaction so concurrent openers serialize.
void create_schema(SQLite::Database& db) {
  if (db.execAndGet("PRAGMA user_version").getInt() >= kSchemaVersion) return;
  Transaction tx(db, Transaction::Kind::kWrite);
  db.exec(kTablesSql);
  // Stores written before the metadata column existed get it added.
  if (db.execAndGet("SELECT count(*) FROM pragma_table_info('recoveries') WHERE name = 'metadata'")
          .getInt() == 0) {
    db.exec("ALTER TABLE recoveries ADD COLUMN metadata BLOB");
  }
  db.exec(kUsageSql);
  db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
  tx.commit();
}

// Runs `fn`, retrying while SQLite reports the database busy or locked.
template <typename Fn>
Status with_busy_retry(std::string_view what, Fn&& fn) {
  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 1;; ++attempt) {
    try {
      fn();
      return Status::Ok();
    } catch (const SQLite::Exception& e) {
      const auto delay = kRetryStep * attempt;
      if (!base::is_sqlite_busy(e) || attempt >= kSchemaMaxAttempts ||
          std::chrono::steady_clock::now() - start + delay > kRetryBudget) {
        return status_from_exception(e, what);
      }
      std::this_thread::sleep_for(delay);
    }
  }
}

}  // namespace

Status configure_connection(SQLite::Database& db, std::int64_t max_bytes, std::string_view what) {
  // journal_mode=WAL needs a moment of exclusive access on a fresh file: retried like the
  // schema. On ":memory:" it stays "memory", which is fine.
  CAVEMAN_RETURN_IF_ERROR(with_busy_retry(what, [&] { db.exec("PRAGMA journal_mode=WAL"); }));
  const std::int64_t page_size = db.execAndGet("PRAGMA page_size").getInt64();
  const std::int64_t max_pages = page_size > 0 ? max_bytes / page_size : 0;
  if (max_pages < kMinPages) {
    return Status::InvalidArgument(
        codes::kInvalidConfig, "CAVEMAN_CCR_MAX_BYTES=" + std::to_string(max_bytes) +
                                   " is below the minimum of " + std::to_string(kMinPages) +
                                   " pages (" + std::to_string(kMinPages * page_size) + " bytes)");
  }
  db.exec("PRAGMA max_page_count = " + std::to_string(max_pages));
  db.exec("PRAGMA wal_autocheckpoint = " +
          std::to_string(std::max<std::int64_t>(1, max_pages / 16)));
  db.exec("PRAGMA journal_size_limit = " + std::to_string(max_bytes / 8));
  return with_busy_retry(what, [&] { create_schema(db); });
}

}  // namespace caveman::ccr
