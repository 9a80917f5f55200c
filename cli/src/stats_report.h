// `caveman stats`: what Caveman did, read straight from the local stores (read-only).
//
// Requests come from caveman.db `requests` (by agent and by provider); compressed originals
// from ccr.db `recoveries` (by content type). Per request, tokens_after is the input the
// provider reported (input + cache read + cache write) and tokens_before adds back what
// compression removed (compression_tokens_before − compression_tokens_after, o200k
// estimates). Every figure is basis "inferred". A store that does not exist yet counts as
// empty; one that cannot be read is an error (cave_db_unavailable). Output is deterministic
// (maps sorted by key).
#ifndef CAVEMAN_CLI_STATS_REPORT_H_
#define CAVEMAN_CLI_STATS_REPORT_H_

#include <cstdint>
#include <ctime>
#include <map>
#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::cli {

struct Bucket {
  std::int64_t requests = 0;  // rows (requests, or stored originals for content types)
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
};

struct StatsReport {
  std::int64_t requests = 0;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  std::map<std::string, Bucket> by_agent;
  std::map<std::string, Bucket> by_provider;
  std::map<std::string, Bucket> by_content_type;
  std::string since;  // UTC "YYYY-MM-DDTHH:MM:SSZ", "" = all time

  std::string to_json() const;
  std::string to_csv() const;    // section,key,requests,tokens_before,tokens_after,saved_pct
  std::string to_table() const;  // aligned, for people
};

// "90s", "15m", "24h", "7d" → seconds. Errors: cave_invalid_duration.
Result<std::int64_t> parse_duration(std::string_view text);

// `since_epoch` < 0 = all time. Missing files count as empty stores.
Result<StatsReport> build_stats(const std::string& caveman_db, const std::string& ccr_db,
                                std::int64_t since_epoch);

// UTC timestamp of `epoch` in `sep` form: sep 'T' → "YYYY-MM-DDTHH:MM:SS", ' ' → caveman.db's.
std::string utc_seconds(std::time_t epoch, char sep);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_STATS_REPORT_H_
