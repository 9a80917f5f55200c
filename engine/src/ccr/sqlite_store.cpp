#include "ccr/sqlite_store.h"

#include "caveman/base/codes.h"
#include "caveman/base/private_file.h"
#include "caveman/base/time.h"
#include "ccr/object_rules.h"
#include "ccr/schema.h"

namespace caveman::ccr {
namespace {

constexpr base::FileErrors kStoreFileErrors{codes::kCcrUnsafePath, codes::kCcrUnavailable,
                                            "ccr: ", "CAVEMAN_CCR_DB"};

// The first column of the first row `sql` selects for `key` (bound as ?1), or nullopt.
std::optional<std::string> first_bytes(SQLite::Database& db, const char* sql,
                                       const std::string& key) {
  SQLite::Statement q(db, sql);
  q.bind(1, key);
  if (!q.executeStep()) return std::nullopt;
  return column_bytes(q.getColumn(0));
}

}  // namespace

Result<std::unique_ptr<SqliteStore>> SqliteStore::open(const std::string& path,
                                                       OpenOptions options) {
  if (options.max_bytes <= 0) {
    return Status::InvalidArgument(codes::kInvalidConfig,
                                   "CAVEMAN_CCR_MAX_BYTES must be a positive integer");
  }
  if (path.empty()) {
    return Status::InvalidArgument(codes::kCcrUnavailable, "ccr: the store path is empty");
  }
  const bool memory = path == kMemoryPath;
  std::optional<base::PrivateFile> file;
  if (!memory) {
    CAVEMAN_ASSIGN_OR_RETURN(base::PrivateFile prepared,
                             base::prepare_private_db_file(path, kStoreFileErrors));
    file = std::move(prepared);
  }
  const std::string what = "cannot open the recovery store " + (memory ? path : file->path);
  try {
    // NOFOLLOW: SQLite itself refuses a symlink swapped in after our checks.
    const int flags = memory ? SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE
                             : SQLite::OPEN_READWRITE | SQLite::OPEN_NOFOLLOW;
    auto db = std::make_unique<SQLite::Database>(memory ? path : file->path, flags, kBusyTimeoutMs);
    CAVEMAN_RETURN_IF_ERROR(configure_connection(*db, options.max_bytes, what));
    if (file) CAVEMAN_RETURN_IF_ERROR(base::recheck_private_db_file(*file, kStoreFileErrors));
    return std::unique_ptr<SqliteStore>(
        new SqliteStore(std::move(db), memory ? path : file->path, options.max_bytes));
  } catch (const std::exception& e) {
    return status_from_exception(e, what);
  }
}

std::int64_t SqliteStore::used_bytes_locked() {
  SQLite::Statement q(*db_, "SELECT used_bytes FROM ccr_usage WHERE id = 1");
  return q.executeStep() ? q.getColumn(0).getInt64() : 0;
}

Result<std::string> SqliteStore::put(const Record& record) {
  std::string handle = handle_for(record.original);
  return locked("put", [&]() REQUIRES(mu_) -> Result<std::string> {
    Transaction tx(*db_, Transaction::Kind::kWrite);
    SQLite::Statement q(*db_, R"sql(
      SELECT content_type, compressor, tokens_before, tokens_after, metadata,
             length(original) + ifnull(length(metadata), 0),
             content_type = ?2 AND compressor = ?3 AND tokens_before = ?4 AND
             tokens_after = ?5 AND original = ?6 AND ifnull(metadata, x'') = ?7
      FROM recoveries WHERE handle = ?1)sql");
    q.bind(1, handle);
    q.bind(2, record.content_type);
    q.bind(3, record.compressor);
    q.bind(4, static_cast<std::int64_t>(record.tokens_before));
    q.bind(5, static_cast<std::int64_t>(record.tokens_after));
    bind_blob(q, 6, record.original);
    bind_blob(q, 7, record.metadata);
    // The row to write, after the upsert rules (docs/spec/ccr.md#put): created_at always refreshed;
    // a re-put that knows no token counts (tokens_before 0) keeps the old type, compressor and
    // counts; original replaced; metadata kept once non-empty. The row's original is `record`'s own
    // (a copy would hold the input once more).
    Record row{record.content_type, record.compressor, record.tokens_before,
               record.tokens_after, {}, record.metadata};
    std::int64_t old_bytes = 0;
    const bool exists = q.executeStep();
    if (exists) {
      if (q.getColumn(6).getInt() == 1) return handle;  // identical: no write, no budget check
      if (record.tokens_before == 0 && q.getColumn(2).getInt64() > 0) {
        row.content_type = column_bytes(q.getColumn(0));
        row.compressor = column_bytes(q.getColumn(1));
        row.tokens_before = q.getColumn(2).getInt64();
        row.tokens_after = q.getColumn(3).getInt64();
      }
      std::string old_metadata = column_bytes(q.getColumn(4));
      if (!old_metadata.empty()) row.metadata = std::move(old_metadata);
      old_bytes = q.getColumn(5).getInt64();
    }
    q.reset();
    const std::int64_t after = used_bytes_locked() - old_bytes +
                               static_cast<std::int64_t>(record.original.size() + row.metadata.size());
    if (after > max_bytes_) return budget_exceeded();

    // Delete + insert rather than UPDATE: the freed pages are reused by the insert, so
    // replacing a large row never needs room for two copies at once (an UPDATE that changes
    // the record size writes the new copy before freeing the old one).
    if (exists) {
      SQLite::Statement del(*db_, "DELETE FROM recoveries WHERE handle = ?1");
      del.bind(1, handle);
      del.exec();
    }
    SQLite::Statement ins(*db_, R"sql(
      INSERT INTO recoveries(handle, created_at, content_type, compressor, tokens_before,
                             tokens_after, original, metadata)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, zeroblob(?7), ?8))sql");
    ins.bind(1, handle);
    ins.bind(2, base::format_rfc3339(base::now_utc()));
    ins.bind(3, row.content_type);
    ins.bind(4, row.compressor);
    ins.bind(5, static_cast<std::int64_t>(row.tokens_before));
    ins.bind(6, static_cast<std::int64_t>(row.tokens_after));
    ins.bind(7, static_cast<std::int64_t>(record.original.size()));  // written below
    if (row.metadata.empty()) {
      ins.bind(8);  // NULL: "no metadata"
    } else {
      bind_blob(ins, 8, row.metadata);
    }
    ins.exec();
    write_blob(*db_, "recoveries", "original", db_->getLastInsertRowid(), record.original);
    tx.commit();
    return handle;
  });
}

Result<std::string> SqliteStore::get(std::string_view handle) {
  return locked("get", [&]() REQUIRES(mu_) -> Result<std::string> {
    const std::string key(handle);
    if (!key.starts_with(kObjectIdPrefix)) {
      auto original = first_bytes(*db_, "SELECT original FROM recoveries WHERE handle = ?1", key);
      if (original) return *original;
    }
    // Typed-object ids (and anything the blob table does not know) resolve to object data.
    auto data = first_bytes(*db_, "SELECT data FROM typed_objects WHERE object_id = ?1", key);
    if (data) return *data;
    return unknown_handle();
  });
}

Result<std::string> SqliteStore::get_metadata(std::string_view handle) {
  return locked("get_metadata", [&]() REQUIRES(mu_) -> Result<std::string> {
    const std::string key(handle);
    if (!key.starts_with(kObjectIdPrefix)) {
      auto metadata = first_bytes(*db_, "SELECT metadata FROM recoveries WHERE handle = ?1", key);
      if (metadata) return *metadata;
    }
    if (first_bytes(*db_, "SELECT 1 FROM typed_objects WHERE object_id = ?1", key)) {
      return std::string();  // objects carry no compressor metadata
    }
    return unknown_handle();
  });
}

Result<StoreStats> SqliteStore::stats() {
  return locked("stats", [&]() REQUIRES(mu_) -> Result<StoreStats> {
    Transaction tx(*db_, Transaction::Kind::kRead);  // counts and usage from one snapshot
    StoreStats s;
    SQLite::Statement q(*db_, R"sql(
      SELECT content_type, count(*), ifnull(sum(tokens_before), 0), ifnull(sum(tokens_after), 0)
      FROM recoveries GROUP BY content_type ORDER BY content_type)sql");
    while (q.executeStep()) {
      TypeStats t;
      t.count = q.getColumn(1).getInt64();
      t.tokens_before = q.getColumn(2).getInt64();
      t.tokens_after = q.getColumn(3).getInt64();
      s.totals.count += t.count;
      s.totals.tokens_before += t.tokens_before;
      s.totals.tokens_after += t.tokens_after;
      s.by_content_type[column_bytes(q.getColumn(0))] = t;
    }
    s.storage_bytes = used_bytes_locked();
    s.max_storage_bytes = max_bytes_;
    s.storage_full = s.storage_bytes >= max_bytes_;
    tx.commit();
    return s;
  });
}

Result<std::unique_ptr<Store>> open_store(const std::string& path, OpenOptions options) {
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<SqliteStore> store, SqliteStore::open(path, options));
  return std::unique_ptr<Store>(std::move(store));
}

}  // namespace caveman::ccr
