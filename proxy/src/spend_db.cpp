#include "spend_db.h"

#include <SQLiteCpp/Exception.h>
#include <unistd.h>

#include <sqlite3.h>

#include <optional>
#include <string_view>

#include "caveman/base/codes.h"
#include "caveman/base/private_file.h"
#include "caveman/base/time.h"

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
    "ALTER TABLE requests ADD COLUMN kind TEXT",  // NULL: a client request; "keepalive"
    "ALTER TABLE requests ADD COLUMN cache_write_1h_tokens INTEGER",
    "ALTER TABLE requests ADD COLUMN keepalive_avoided_tokens INTEGER",
    "ALTER TABLE requests ADD COLUMN recompact_saved_tokens INTEGER",
    "ALTER TABLE requests ADD COLUMN cache_retention TEXT",  // OpenAI: the client's own choice
};

constexpr base::FileErrors kSpendFileErrors{codes::kDbUnavailable, codes::kDbUnavailable, "",
                                            "CAVEMAN_DB"};

}  // namespace

std::string utc_timestamp_ms() {
  return base::format_utc(base::now_utc(), {base::Fraction::kMillis, ' ', false});
}

Result<std::unique_ptr<SQLite::Database>> open_spend_db(const std::string& path) {
  std::optional<base::PrivateFile> file;
  if (path != ":memory:") {
    CAVEMAN_ASSIGN_OR_RETURN(base::PrivateFile prepared,
                             base::prepare_private_db_file(path, kSpendFileErrors));
    file = std::move(prepared);
  }
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
    if (file) CAVEMAN_RETURN_IF_ERROR(base::recheck_private_db_file(*file, kSpendFileErrors));
    return db;
  } catch (const SQLite::Exception& e) {
    return Status::Io(codes::kDbUnavailable, "caveman.db: " + std::string(e.what()));
  }
}

}  // namespace caveman::proxy
