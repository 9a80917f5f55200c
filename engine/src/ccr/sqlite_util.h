// Small adapters between SQLiteCpp and the store: exception → Status mapping, blob binding
// and reading that keep zero-length values as blobs, and the BEGIN IMMEDIATE transaction guard.
// Everything that can throw is meant to run inside the store's catch block; the helpers here
// themselves only throw SQLite::Exception.
#ifndef CAVEMAN_CCR_SQLITE_UTIL_H_
#define CAVEMAN_CCR_SQLITE_UTIL_H_

#include <SQLiteCpp/SQLiteCpp.h>

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "caveman/base/sqlite.h"
#include "caveman/status.h"

namespace caveman::ccr {

// kResourceExhausted / codes::kCcrBudgetExceeded ("ccr: storage budget exceeded").
Status budget_exceeded();
// kNotFound / codes::kUnknownHandle ("ccr: recovery handle not found").
Status unknown_handle();

// Maps a SQLite result code: FULL → budget exceeded; CORRUPT/NOTADB → kCorrupt;
// BUSY/LOCKED → kUnavailable; the rest → kIo. All but the budget carry codes::kCcrUnavailable.
Status status_from_sqlite(int code, std::string_view what, std::string_view detail);
// The same for any exception a store operation may throw (non-SQLite ones become kIo).
Status status_from_exception(const std::exception& e, std::string_view what);

// Binds `bytes` as a BLOB without copying (the caller keeps `bytes` alive until the statement
// runs). Empty input binds a zero-length blob, never NULL.
void bind_blob(SQLite::Statement& stmt, int index, std::string_view bytes);
// Fills the zeroblob already in `column` of `table`'s row `rowid` with `bytes`, a piece at a
// time: bound to the INSERT instead, the bytes would be copied into a record built in memory
// (a large original held once more).
void write_blob(SQLite::Database& db, const char* table, const char* column, std::int64_t rowid,
                std::string_view bytes);
// A TEXT/BLOB column's bytes ("" for NULL).
std::string column_bytes(const SQLite::Column& column);

// The BEGIN [IMMEDIATE] guard every read-modify-write runs in (caveman/base/sqlite.h).
using Transaction = base::SqliteTransaction;

}  // namespace caveman::ccr

#endif  // CAVEMAN_CCR_SQLITE_UTIL_H_
