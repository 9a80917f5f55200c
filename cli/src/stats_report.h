// `caveman stats`: what Caveman did, read straight from the local stores (read-only).
//
// Requests come from caveman.db `requests` (by agent and by provider); compressed originals
// from ccr.db `recoveries` (by content type). Per request, tokens_after is the input the
// provider reported (input + cache read + cache write) and tokens_before adds back what
// compression removed (compression_tokens_before − compression_tokens_after, o200k
// estimates); dollars price each part of the provider's usage separately (usd_after) and add
// the removed tokens at the input price (usd_before). Every figure is basis "inferred". A store that does not exist yet counts as
// empty; one that cannot be read is an error (codes::kDbUnavailable). Output is deterministic
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
  // Dollars at list price (bench/prices.json, embedded in the proxy library); requests of
  // models without a price are counted in unpriced_requests and add no dollars.
  double usd_input = 0;        // uncached input
  double usd_cache_read = 0;
  double usd_cache_write = 0;  // at the 5-minute write rate (1-hour writes at theirs)
  double usd_output = 0;
  double usd_removed = 0;      // what the tokens compression removed would have cost as input
  std::int64_t unpriced_requests = 0;
  std::int64_t would_save_tokens = 0;  // record-mode estimate (rows that have one)
  double would_save_usd = 0;

  double usd_after() const { return usd_input + usd_cache_read + usd_cache_write + usd_output; }
  double usd_before() const { return usd_after() + usd_removed; }
};

// Prompt-cache lifetimes (issue 37, docs/proxy.md "Cache lifetimes"), all inferred: keepalive
// pings and their dollars, the writes they avoided (the bridged request's cache read, at the
// 5-minute write rate minus the read rate), re-compactions and the tokens they removed (at the
// 5-minute write rate: the request after a lapse writes its prompt), 1-hour writes.
struct LifetimeBucket {
  std::int64_t keepalive_requests = 0;
  double usd_keepalive = 0;
  std::int64_t keepalive_avoided_tokens = 0;
  double usd_keepalive_avoided = 0;
  std::int64_t recompactions = 0;
  std::int64_t recompact_saved_tokens = 0;
  double usd_recompact_saved = 0;
  std::int64_t cache_write_1h_tokens = 0;
  std::int64_t openai_in_memory_requests = 0;  // the client chose in_memory where 24h is offered
  bool empty() const {
    return keepalive_requests == 0 && recompactions == 0 && cache_write_1h_tokens == 0 &&
           keepalive_avoided_tokens == 0 && openai_in_memory_requests == 0;
  }
};

struct StatsReport {
  std::int64_t requests = 0;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  std::map<std::string, Bucket> by_agent;
  std::map<std::string, Bucket> by_provider;
  std::map<std::string, Bucket> by_model;
  std::map<std::string, Bucket> by_day;  // UTC YYYY-MM-DD
  std::map<std::string, Bucket> by_content_type;
  Bucket total;  // dollars and estimates over every request
  LifetimeBucket lifetimes;
  std::map<std::string, LifetimeBucket> lifetimes_by_day;
  std::map<std::string, LifetimeBucket> lifetimes_by_session;  // session_key; active sessions only
  std::string since;  // UTC "YYYY-MM-DDTHH:MM:SSZ", "" = all time

  std::string to_json() const;  // lifetimes under "lifetimes" (not in the CSV)
  // section,key,requests,tokens_before,tokens_after,saved_pct,usd_before,usd_after,
  // usd_input,usd_cache_read,usd_cache_write,usd_output,would_save_tokens,would_save_usd,basis
  std::string to_csv() const;
  std::string to_table() const;  // aligned, for people
};

// "90s", "15m", "24h", "7d" → seconds. Errors: codes::kInvalidDuration.
Result<std::int64_t> parse_duration(std::string_view text);

// `since_epoch` < 0 = all time. Missing files count as empty stores.
Result<StatsReport> build_stats(const std::string& caveman_db, const std::string& ccr_db,
                                std::int64_t since_epoch);

// UTC timestamp of `epoch` in `sep` form: sep 'T' → "YYYY-MM-DDTHH:MM:SS", ' ' → caveman.db's.
std::string utc_seconds(std::time_t epoch, char sep);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_STATS_REPORT_H_
