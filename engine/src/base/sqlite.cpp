#include "caveman/base/sqlite.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

namespace caveman::base {

int sqlite_primary_code(const SQLite::Exception& e) {
  int code = e.getErrorCode();
  if (code <= 0) code = e.getExtendedErrorCode();
  return code & 0xFF;
}

bool is_sqlite_busy(const std::exception& e) {
  const auto* se = dynamic_cast<const SQLite::Exception*>(&e);
  if (se == nullptr) return false;
  const int code = se->getErrorCode() & 0xFF;
  return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}

SqliteTransaction::SqliteTransaction(SQLite::Database& db, Kind kind) : db_(db) {
  db_.exec(kind == Kind::kWrite ? "BEGIN IMMEDIATE" : "BEGIN");
}

SqliteTransaction::~SqliteTransaction() {
  if (!done_ && sqlite3_get_autocommit(db_.getHandle()) == 0) (void)db_.tryExec("ROLLBACK");
}

void SqliteTransaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace caveman::base
