#include "spend_db.h"

#include <SQLiteCpp/Exception.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string_view>

namespace caveman::proxy {
namespace {

constexpr int kBusyTimeoutMs = 5000;

constexpr const char* kRequestsTable = R"sql(
CREATE TABLE IF NOT EXISTS requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ts TEXT NOT NULL,
  request_id TEXT NOT NULL,
  trace_id TEXT,
  label TEXT,
  session_id TEXT,
  session_correlation_basis TEXT NOT NULL DEFAULT 'uncorrelated',
  agent_slug TEXT NOT NULL DEFAULT 'unlabeled-agent',
  provider TEXT,
  model TEXT,
  route_from TEXT,
  route_to TEXT,
  endpoint TEXT,
  stream INTEGER,
  status_code INTEGER,
  error_code TEXT,
  latency_ms INTEGER,
  ttfb_ms INTEGER,
  request_bytes INTEGER,
  response_bytes INTEGER,
  input_tokens INTEGER,
  output_tokens INTEGER,
  cached_input_tokens INTEGER,
  cache_creation_input_tokens INTEGER,
  reasoning_tokens INTEGER,
  total_cost_usd REAL,
  savings_usd REAL,
  basis TEXT NOT NULL DEFAULT 'inferred',
  token_usage_basis TEXT NOT NULL DEFAULT 'unavailable',
  auth_mode TEXT NOT NULL DEFAULT 'unknown',
  runtime_mode TEXT,
  optimization_ids TEXT,
  cache_status TEXT,
  raw_request_sha256 TEXT,
  transformed_request_sha256 TEXT,
  request_hash_complete INTEGER NOT NULL DEFAULT 0,
  compression_eligible INTEGER,
  compression_ratio REAL,
  compression_tokens_before INTEGER,
  compression_tokens_after INTEGER,
  compression_token_count_basis TEXT,
  recovery_handle TEXT,
  would_save_tokens INTEGER,
  would_save_usd REAL
))sql";

constexpr const char* kPrefixTable = R"sql(
CREATE TABLE IF NOT EXISTS prefix_replacements (
  original_sha256 TEXT PRIMARY KEY,
  handle TEXT NOT NULL,
  replacement BLOB NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at INTEGER NOT NULL
))sql";

// Columns added after the first schema; ALTERs are additive and idempotent.
constexpr const char* kMigrations[] = {
    "ALTER TABLE requests ADD COLUMN usage_scan_note TEXT",
    "ALTER TABLE requests ADD COLUMN session_key TEXT",
    "ALTER TABLE requests ADD COLUMN cache_bust INTEGER",
    "ALTER TABLE requests ADD COLUMN cache_bust_component TEXT",
    "ALTER TABLE requests ADD COLUMN guard_note TEXT",
};

Status prepare_file(const std::string& path) {
  if (path == ":memory:") return Status::Ok();
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      return Status::Io("cave_db_unavailable", path + " is not a regular file");
    }
    ::chmod(path.c_str(), 0600);
    return Status::Ok();
  }
  int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 && errno != EEXIST) {
    return Status::Io("cave_db_unavailable", "cannot create " + path);
  }
  if (fd >= 0) ::close(fd);
  return Status::Ok();
}

}  // namespace

std::string utc_timestamp_ms() {
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d.%03d", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

Result<std::unique_ptr<SQLite::Database>> open_spend_db(const std::string& path) {
  CAVEMAN_RETURN_IF_ERROR(prepare_file(path));
  try {
    auto db = std::make_unique<SQLite::Database>(
        path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE | SQLite::OPEN_NOMUTEX, kBusyTimeoutMs);
    if (path != ":memory:") db->exec("PRAGMA journal_mode=WAL");
    db->exec("PRAGMA synchronous=NORMAL");
    // Several processes (and the writer thread) may race on first creation.
    for (int attempt = 0;; ++attempt) {
      try {
        db->exec(kRequestsTable);
        db->exec(kPrefixTable);
        db->exec("CREATE INDEX IF NOT EXISTS prefix_replacements_lru "
                 "ON prefix_replacements(last_used_at)");
        for (const char* sql : kMigrations) {
          try {
            db->exec(sql);
          } catch (const SQLite::Exception& e) {
            if (std::string_view(e.what()).find("duplicate column") == std::string_view::npos) throw;
          }
        }
        break;
      } catch (const SQLite::Exception& e) {
        if (attempt >= 40 || e.getErrorCode() != SQLITE_BUSY) throw;
        ::usleep(25000 * static_cast<unsigned>(attempt + 1));
      }
    }
    return db;
  } catch (const SQLite::Exception& e) {
    return Status::Io("cave_db_unavailable", "caveman.db: " + std::string(e.what()));
  }
}

}  // namespace caveman::proxy
