#include "prefix_cache.h"

#include <SQLiteCpp/Exception.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>

#include <chrono>

#include "caveman/base/codes.h"
#include "caveman/ccr.h"
#include "spend_db.h"

namespace caveman::proxy {

std::string prefix_cache_key(std::string_view scope, std::string_view original) {
  std::string material;
  material.reserve(scope.size() + 1 + original.size());
  material.append(scope);
  material.push_back('\0');
  material.append(original);
  return ccr::sha256_hex(material);
}

Result<std::unique_ptr<SqlitePrefixCache>> SqlitePrefixCache::open(const std::string& path,
                                                                   std::size_t capacity) {
  CAVEMAN_ASSIGN_OR_RETURN(std::unique_ptr<SQLite::Database> db, open_spend_db(path));
  return std::unique_ptr<SqlitePrefixCache>(new SqlitePrefixCache(std::move(db), capacity));
}

std::int64_t SqlitePrefixCache::next_stamp() {
  auto now = std::chrono::duration_cast<std::chrono::microseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  last_stamp_ = now > last_stamp_ ? now : last_stamp_ + 1;
  return last_stamp_;
}

std::optional<std::string> SqlitePrefixCache::lookup(const std::string& key) {
  base::MutexLock lock(mu_);
  try {
    SQLite::Statement get(*db_, "SELECT replacement FROM prefix_replacements WHERE original_sha256 = ?");
    get.bind(1, key);
    if (!get.executeStep()) return std::nullopt;
    SQLite::Column col = get.getColumn(0);
    std::string replacement(static_cast<const char*>(col.getBlob()),
                            static_cast<std::size_t>(col.getBytes()));
    SQLite::Statement touch(*db_,
                            "UPDATE prefix_replacements SET last_used_at = ? WHERE original_sha256 = ?");
    touch.bind(1, static_cast<std::int64_t>(next_stamp()));
    touch.bind(2, key);
    touch.exec();
    return replacement;
  } catch (const SQLite::Exception&) {
    return std::nullopt;  // any SQL problem is a miss
  }
}

Result<std::string> SqlitePrefixCache::remember(const std::string& key, std::string_view handle,
                                                std::string_view replacement) {
  base::MutexLock lock(mu_);
  try {
    SQLite::Transaction tx(*db_);
    SQLite::Statement insert(*db_,
                             "INSERT OR IGNORE INTO prefix_replacements "
                             "(original_sha256, handle, replacement, created_at, last_used_at) "
                             "VALUES (?, ?, ?, ?, ?)");
    insert.bind(1, key);
    insert.bind(2, std::string(handle));
    insert.bind(3, replacement.data(), static_cast<int>(replacement.size()));
    insert.bind(4, utc_timestamp_ms());
    insert.bind(5, static_cast<std::int64_t>(next_stamp()));
    bool inserted = insert.exec() > 0;

    SQLite::Statement get(*db_, "SELECT replacement FROM prefix_replacements WHERE original_sha256 = ?");
    get.bind(1, key);
    if (!get.executeStep()) {
      return Status::Io(codes::kDbUnavailable, "prefix cache row vanished");
    }
    SQLite::Column col = get.getColumn(0);
    std::string stored(static_cast<const char*>(col.getBlob()), static_cast<std::size_t>(col.getBytes()));
    get.reset();
    if (inserted) {
      // LRU: keep the `capacity_` most recently used rows.
      SQLite::Statement evict(*db_,
                              "DELETE FROM prefix_replacements WHERE original_sha256 IN ("
                              "SELECT original_sha256 FROM prefix_replacements "
                              "ORDER BY last_used_at DESC LIMIT -1 OFFSET ?)");
      evict.bind(1, static_cast<std::int64_t>(capacity_));
      evict.exec();
    }
    tx.commit();
    return stored;
  } catch (const SQLite::Exception& e) {
    return Status::Io(codes::kDbUnavailable, std::string("prefix cache: ") + e.what());
  }
}

Status SqlitePrefixCache::replace(const std::string& key, std::string_view handle,
                                  std::string_view replacement) {
  base::MutexLock lock(mu_);
  try {
    SQLite::Statement update(
        *db_,
        "UPDATE prefix_replacements SET handle = ?, replacement = ?, last_used_at = ? "
        "WHERE original_sha256 = ?");
    update.bind(1, std::string(handle));
    update.bind(2, replacement.data(), static_cast<int>(replacement.size()));
    update.bind(3, static_cast<std::int64_t>(next_stamp()));
    update.bind(4, key);
    if (update.exec() == 0)
      return Status::Io(codes::kDbUnavailable, "prefix cache: no row to replace");
    return Status::Ok();
  } catch (const SQLite::Exception& e) {
    return Status::Io(codes::kDbUnavailable, std::string("prefix cache: ") + e.what());
  }
}

std::size_t SqlitePrefixCache::size_for_testing() {
  base::MutexLock lock(mu_);
  SQLite::Statement count(*db_, "SELECT COUNT(*) FROM prefix_replacements");
  count.executeStep();
  return static_cast<std::size_t>(count.getColumn(0).getInt64());
}

}  // namespace caveman::proxy
