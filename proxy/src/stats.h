// `caveman-proxy stats` (docs/spec/proxy.md#stats): read-only summaries of caveman.db.
// Every figure is a local count with basis "inferred"; nothing is priced here.
#ifndef CAVEMAN_PROXY_STATS_H_
#define CAVEMAN_PROXY_STATS_H_

#include <string>

#include "caveman/status.h"

namespace caveman::proxy {

// The summary object, 2-space indented. Errors: codes::kDbUnavailable.
Result<std::string> stats_summary(const std::string& db_path);
// The newest `n` rows as a JSON array (newest first), 2-space indented.
Result<std::string> stats_recent(const std::string& db_path, int n);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_STATS_H_
