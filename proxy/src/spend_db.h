// caveman.db — the proxy's own SQLite file (docs/proxy.md#usage-rows): one `requests` row per
// proxied call and the `prefix_replacements` cache.
//
// open_spend_db() creates the file 0600 (never through a symlink), switches it to WAL with a
// 5 s busy timeout and creates or migrates the schema (additive ALTERs; "duplicate column"
// is ignored). Each opener gets its own connection; a connection is used by one thread at a
// time (callers serialize). SQLite exceptions stop here and become Status values
// (codes::kDbUnavailable).
#ifndef CAVEMAN_PROXY_SPEND_DB_H_
#define CAVEMAN_PROXY_SPEND_DB_H_

#include <SQLiteCpp/Database.h>

#include <memory>
#include <string>

#include "caveman/status.h"

namespace caveman::proxy {

Result<std::unique_ptr<SQLite::Database>> open_spend_db(const std::string& path);

// UTC "YYYY-MM-DD HH:MM:SS.mmm" of now.
std::string utc_timestamp_ms();

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_SPEND_DB_H_
