// caveman/base/sqlite.h — what the two SQLite stores (the CCR store and cavemem) share
// (docs/base.md): the result code of a SQLiteCpp exception and the BEGIN [IMMEDIATE]
// transaction guard. Callers link SQLiteCpp themselves; this header only names its types.
#ifndef CAVEMAN_BASE_SQLITE_H_
#define CAVEMAN_BASE_SQLITE_H_

#include <exception>

namespace SQLite {
class Database;
class Exception;
}  // namespace SQLite

namespace caveman::base {

// The primary result code (SQLITE_FULL, SQLITE_CORRUPT, …) of the call that failed, else of
// the extended code when the exception carries no plain one.
int sqlite_primary_code(const SQLite::Exception& e);
// True for a SQLite::Exception with SQLITE_BUSY or SQLITE_LOCKED (the retry condition).
bool is_sqlite_busy(const std::exception& e);

// BEGIN [IMMEDIATE] … COMMIT. Writers take the write lock up front (kWrite), so a
// transaction that reads before it writes never needs a read→write upgrade (which WAL answers
// with an immediate SQLITE_BUSY instead of waiting). Readers (kRead) get one consistent
// snapshot. Rolls back on destruction unless committed, tolerating SQLite having rolled back
// by itself (SQLITE_FULL may do that).
class SqliteTransaction {
 public:
  enum class Kind { kRead, kWrite };
  SqliteTransaction(SQLite::Database& db, Kind kind);
  ~SqliteTransaction();
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  void commit();

 private:
  SQLite::Database& db_;
  bool done_ = false;
};

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_SQLITE_H_
