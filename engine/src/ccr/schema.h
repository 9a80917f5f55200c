// Connection setup of the CCR database (docs/spec/ccr.md#schema): WAL, the byte budget as SQLite
// pragmas, and the schema — tables, the metadata-column migration, and the ccr_usage counter
// kept by triggers so the budget check needs no full-table scan. Schema creation is retried on
// SQLITE_BUSY (≤ 40 attempts, 25 ms × attempt back-off, 5 s wall clock).
#ifndef CAVEMAN_CCR_SCHEMA_H_
#define CAVEMAN_CCR_SCHEMA_H_

#include <SQLiteCpp/SQLiteCpp.h>

#include <cstdint>
#include <string_view>

#include "caveman/status.h"

namespace caveman::ccr {

inline constexpr int kSchemaVersion = 1;  // PRAGMA user_version once the schema is complete
inline constexpr int kSchemaMaxAttempts = 40;

// Configures a freshly opened connection. kInvalidArgument (codes::kInvalidConfig) when the
// budget is below 16 pages; SQLite failures map through status_from_sqlite with `what` as
// context. Non-busy SQLite errors outside the retried steps propagate as exceptions.
Status configure_connection(SQLite::Database& db, std::int64_t max_bytes, std::string_view what);

}  // namespace caveman::ccr

#endif  // CAVEMAN_CCR_SCHEMA_H_
