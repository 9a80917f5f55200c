#include "ccr/sqlite_util.h"

#include <sqlite3.h>

#include <algorithm>
#include <climits>

#include "caveman/base/codes.h"

namespace caveman::ccr {

Status budget_exceeded() {
  return Status::ResourceExhausted(codes::kCcrBudgetExceeded, "ccr: storage budget exceeded");
}

Status unknown_handle() {
  return Status::NotFound(codes::kUnknownHandle, "ccr: recovery handle not found");
}

Status status_from_sqlite(int code, std::string_view what, std::string_view detail) {
  std::string message = "ccr: " + std::string(what) + ": " + std::string(detail);
  switch (code & 0xFF) {
    case SQLITE_FULL:
      return budget_exceeded();
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corrupt(codes::kCcrUnavailable,
                             message + " (the recovery store file is damaged or not a database)");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Unavailable(codes::kCcrUnavailable,
                                 message + " (another process holds the store; try again)");
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return Status::Io(codes::kCcrUnavailable,
                        message + " (check that the store file and its directory are writable)");
    default:
      return Status::Io(codes::kCcrUnavailable, message);
  }
}

Status status_from_exception(const std::exception& e, std::string_view what) {
  if (const auto* se = dynamic_cast<const SQLite::Exception*>(&e)) {
    return status_from_sqlite(base::sqlite_primary_code(*se), what, se->what());
  }
  return Status::Io(codes::kCcrUnavailable, "ccr: " + std::string(what) + ": " + e.what());
}

void bind_blob(SQLite::Statement& stmt, int index, std::string_view bytes) {
  static const char kEmpty[1] = {0};
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    throw SQLite::Exception("blob larger than 2 GiB", SQLITE_TOOBIG);
  }
  stmt.bindNoCopy(index, bytes.empty() ? static_cast<const void*>(kEmpty) : bytes.data(),
                  static_cast<int>(bytes.size()));
}

void write_blob(SQLite::Database& db, const char* table, const char* column, std::int64_t rowid,
                std::string_view bytes) {
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    throw SQLite::Exception("blob larger than 2 GiB", SQLITE_TOOBIG);
  }
  if (bytes.empty()) return;
  sqlite3_blob* blob = nullptr;
  int rc = sqlite3_blob_open(db.getHandle(), "main", table, column, rowid, 1, &blob);
  for (std::size_t at = 0; rc == SQLITE_OK && at < bytes.size(); at += kPiece) {
    std::size_t n = std::min(kPiece, bytes.size() - at);
    rc = sqlite3_blob_write(blob, bytes.data() + at, static_cast<int>(n), static_cast<int>(at));
  }
  int closed = sqlite3_blob_close(blob);  // a no-op on nullptr
  if (rc == SQLITE_OK) rc = closed;
  if (rc != SQLITE_OK) throw SQLite::Exception(db.getHandle(), rc);
}

std::string column_bytes(const SQLite::Column& column) {
  const void* data = column.getBlob();  // blob first, then its size (SQLite's rule)
  int size = column.getBytes();
  if (data == nullptr || size <= 0) return std::string();
  return std::string(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

}  // namespace caveman::ccr
