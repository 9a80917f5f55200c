// RFC 3339 timestamps as the CCR store writes them: UTC, nanosecond precision, trailing zeros
// of the fraction dropped (no fraction at all when it is zero), `Z` suffix — Go's
// time.RFC3339Nano on a UTC time. Pure functions; safe from any thread.
#ifndef CAVEMAN_CCR_TIMESTAMP_H_
#define CAVEMAN_CCR_TIMESTAMP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace caveman::ccr {

// A point in time as seconds since the Unix epoch plus nanoseconds in [0, 1e9).
struct Timestamp {
  std::int64_t seconds = 0;
  std::int32_t nanos = 0;
};

Timestamp now_utc();

// "2026-01-02T03:04:05.5Z". Years outside 0000–9999 are clamped by the caller's validation
// (parse_rfc3339 never produces them).
std::string format_rfc3339(Timestamp t);

// Parses "YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)" (T/Z case-insensitive, fraction of any
// length, truncated to nanoseconds) and converts it to UTC. nullopt for anything else,
// impossible dates, or a UTC year outside 0000–9999.
std::optional<Timestamp> parse_rfc3339(std::string_view text);

// Canonical form of a caller-supplied timestamp: parse + format (UTC). nullopt when invalid.
std::optional<std::string> normalize_rfc3339(std::string_view text);

}  // namespace caveman::ccr

#endif  // CAVEMAN_CCR_TIMESTAMP_H_
