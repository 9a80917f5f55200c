// Schema creation and migration of mem.db (PRAGMA user_version = kSchemaVersion).
//
// Version 0 is the original cavemem's table: memories(id TEXT PRIMARY KEY, text, created_at,
// valid_from, valid_until, supersedes, superseded_by), possibly missing later columns, with
// no FTS index. Its implicit rowid may change on VACUUM, which would desynchronize an
// external-content FTS5 index, so migration copies the rows (in rowid order) into a table
// with an explicit INTEGER PRIMARY KEY `seq` and only then drops the old one — all in one
// transaction, so a failure leaves the old table exactly as it was.
#include <sqlite3.h>

#include <string>
#include <vector>

#include "caveman/base/codes.h"
#include "fts_rank.h"
#include "query.h"
#include "store_internal.h"

namespace caveman::mem::internal {
namespace {

constexpr const char* kTableSql = R"sql(
CREATE TABLE memories(
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_until TEXT,
  supersedes TEXT,
  superseded_by TEXT,
  project TEXT,
  tags TEXT NOT NULL DEFAULT '',
  cjk INTEGER NOT NULL DEFAULT 0);
)sql";

// The indexes hold current rows only (valid_until and superseded_by both NULL). One trigger
// per event keeps delete-before-insert ordering explicit for updates.
constexpr const char* kIndexSql = R"sql(
CREATE INDEX memories_cjk_current ON memories(seq)
  WHERE cjk = 1 AND valid_until IS NULL AND superseded_by IS NULL;
CREATE VIRTUAL TABLE memories_fts USING fts5(text, tags, content='memories',
  content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE memories_tri USING fts5(text, content='memories', content_rowid='seq',
  tokenize='trigram');
CREATE TRIGGER memories_index_insert AFTER INSERT ON memories
WHEN new.valid_until IS NULL AND new.superseded_by IS NULL BEGIN
  INSERT INTO memories_fts(rowid, text, tags) VALUES (new.seq, new.text, new.tags);
  INSERT INTO memories_tri(rowid, text) SELECT new.seq, new.text WHERE new.cjk = 1;
END;
CREATE TRIGGER memories_index_delete AFTER DELETE ON memories
WHEN old.valid_until IS NULL AND old.superseded_by IS NULL BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, text, tags)
    VALUES ('delete', old.seq, old.text, old.tags);
  INSERT INTO memories_tri(memories_tri, rowid, text)
    SELECT 'delete', old.seq, old.text WHERE old.cjk = 1;
END;
CREATE TRIGGER memories_index_update
AFTER UPDATE OF text, tags, cjk, valid_until, superseded_by ON memories BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, text, tags)
    SELECT 'delete', old.seq, old.text, old.tags
    WHERE old.valid_until IS NULL AND old.superseded_by IS NULL;
  INSERT INTO memories_tri(memories_tri, rowid, text)
    SELECT 'delete', old.seq, old.text
    WHERE old.cjk = 1 AND old.valid_until IS NULL AND old.superseded_by IS NULL;
  INSERT INTO memories_fts(rowid, text, tags)
    SELECT new.seq, new.text, new.tags
    WHERE new.valid_until IS NULL AND new.superseded_by IS NULL;
  INSERT INTO memories_tri(rowid, text)
    SELECT new.seq, new.text
    WHERE new.cjk = 1 AND new.valid_until IS NULL AND new.superseded_by IS NULL;
END;
)sql";

std::vector<std::string> table_columns(SQLite::Database& db, const char* table) {
  std::vector<std::string> out;
  SQLite::Statement q(db, "SELECT name FROM pragma_table_info(?1)");
  q.bind(1, table);
  while (q.executeStep()) out.push_back(q.getColumn(0).getString());
  return out;
}

bool contains(const std::vector<std::string>& list, std::string_view name) {
  for (const std::string& s : list) {
    if (s == name) return true;
  }
  return false;
}

bool table_exists(SQLite::Database& db, const char* name) {
  SQLite::Statement q(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  q.bind(1, name);
  return q.executeStep();
}

// Copies a version-0 table into the new shape. Missing timestamps become `now` (the original
// always wrote them; this only guards hand-made tables).
Status migrate_legacy(SQLite::Database& db, const Clock& clock) {
  const std::vector<std::string> cols = table_columns(db, "memories");
  if (!contains(cols, "id") || !contains(cols, "text")) {
    return Status::Corrupt(codes::kMemStoreIncompatible,
                           "mem: the memories table has no id/text columns; this file was not "
                           "written by cavemem and was left untouched");
  }
  const std::string now = clock.now();
  auto col = [&](const char* name, const std::string& fallback) {
    return contains(cols, name) ? std::string(name) : fallback;
  };
  db.exec("ALTER TABLE memories RENAME TO memories_v0");
  db.exec(kTableSql);
  SQLite::Statement copy(
      db, "INSERT INTO memories(id, text, created_at, valid_from, valid_until, supersedes, "
          "superseded_by, project, tags) SELECT CAST(id AS TEXT), CAST(text AS TEXT), "
          "coalesce(" + col("created_at", "NULL") + ", ?1), coalesce(" +
              col("valid_from", "NULL") + ", " + col("created_at", "NULL") + ", ?1), " +
              col("valid_until", "NULL") + ", " + col("supersedes", "NULL") + ", " +
              col("superseded_by", "NULL") + ", " + col("project", "NULL") + ", coalesce(" +
              col("tags", "NULL") + ", '') FROM memories_v0 ORDER BY rowid");
  copy.bind(1, now);
  copy.exec();
  db.exec("DROP TABLE memories_v0");
  return Status::Ok();
}

// Flags rows containing CJK text (the trigram index and the LIKE fallback only look at those).
void mark_cjk_rows(SQLite::Database& db) {
  SQLite::Statement q(db, "SELECT seq, text FROM memories");
  SQLite::Statement set(db, "UPDATE memories SET cjk = 1 WHERE seq = ?1");
  while (q.executeStep()) {
    if (has_cjk(q.getColumn(1).getString())) {
      set.bind(1, q.getColumn(0).getInt64());
      set.exec();
      set.reset();
    }
  }
}

}  // namespace

void prepare_connection(SQLite::Database& db) {
  if (register_rank_function(db.getHandle()) != SQLITE_OK) {
    throw SQLite::Exception("this SQLite library has no FTS5", SQLITE_ERROR);
  }
}

Status ensure_schema(SQLite::Database& db, const Clock& clock) {
  const int seen = db.execAndGet("PRAGMA user_version").getInt();
  if (seen == kSchemaVersion) return Status::Ok();
  if (seen > kSchemaVersion) {
    return Status::Unavailable(codes::kMemStoreNewer,
                               "mem: the store has schema version " + std::to_string(seen) +
                                   ", newer than this cavemem (" + std::to_string(kSchemaVersion) +
                                   "); it was left untouched");
  }
  Transaction tx(db, Transaction::Kind::kWrite);
  // Another process may have finished the migration while we waited for the lock.
  const int now_seen = db.execAndGet("PRAGMA user_version").getInt();
  if (now_seen == kSchemaVersion) return Status::Ok();
  if (table_exists(db, "memories")) {
    Status s = migrate_legacy(db, clock);
    if (!s.ok()) return s;  // the guard rolls back
    mark_cjk_rows(db);
  } else {
    db.exec(kTableSql);
  }
  db.exec(kIndexSql);
  db.exec(
      "INSERT INTO memories_fts(rowid, text, tags) SELECT seq, text, tags FROM memories "
      "WHERE valid_until IS NULL AND superseded_by IS NULL");
  db.exec(
      "INSERT INTO memories_tri(rowid, text) SELECT seq, text FROM memories "
      "WHERE cjk = 1 AND valid_until IS NULL AND superseded_by IS NULL");
  db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
  tx.commit();
  return Status::Ok();
}

}  // namespace caveman::mem::internal
