// caveman/base/time.h — UTC timestamps as the tools write them (docs/base.md).
//
// One formatter for every timestamp the project writes: the CCR store's RFC 3339 with trimmed
// nanoseconds (Go's time.RFC3339Nano on a UTC time), cavemem's fixed microseconds, the
// proxy's whole seconds, and the SQLite-style "YYYY-MM-DD HH:MM:SS.mmm" of caveman.db. Pure
// functions apart from now_utc(); safe from any thread.
#ifndef CAVEMAN_BASE_TIME_H_
#define CAVEMAN_BASE_TIME_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace caveman::base {

// A point in time as seconds since the Unix epoch plus nanoseconds in [0, 1e9).
struct Timestamp {
  std::int64_t seconds = 0;
  std::int32_t nanos = 0;
};

Timestamp now_utc();

// The fraction of a second a format writes.
enum class Fraction {
  kTrimmed,  // up to 9 digits, trailing zeros dropped, none at all when zero
  kNone,     // whole seconds (truncated)
  kMillis,   // exactly 3 digits (truncated)
  kMicros,   // exactly 6 digits (truncated)
};

struct TimeFormat {
  Fraction fraction = Fraction::kTrimmed;
  char separator = 'T';  // between date and time; ' ' for SQLite-style text
  bool zulu = true;      // append "Z"
};

// "2026-01-02T03:04:05.5Z" with the default format. Years outside 0000–9999 are the caller's
// to avoid (parse_rfc3339 never produces them).
std::string format_utc(Timestamp t, TimeFormat format = {});

// format_utc() with the default format: RFC 3339, UTC, trimmed nanoseconds.
std::string format_rfc3339(Timestamp t);

// Parses "YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)" (T/Z case-insensitive, fraction of any
// length, truncated to nanoseconds) and converts it to UTC. nullopt for anything else,
// impossible dates, or a UTC year outside 0000–9999.
std::optional<Timestamp> parse_rfc3339(std::string_view text);

// Canonical form of a caller-supplied timestamp: parse + format (UTC). nullopt when invalid.
std::optional<std::string> normalize_rfc3339(std::string_view text);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_TIME_H_
