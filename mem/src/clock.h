// clock.h — the time source of the memory store, behind a seam so tests can pin it.
//
// Timestamps are RFC 3339 UTC with exactly six fraction digits ("2026-08-10T12:34:56.123456Z"),
// so their byte order is their time order. SystemClock is stateless and thread-safe.
#ifndef CAVEMAN_MEM_CLOCK_H_
#define CAVEMAN_MEM_CLOCK_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace caveman::mem {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::string now() const = 0;
};

class SystemClock final : public Clock {
 public:
  std::string now() const override;
};

// The process-wide SystemClock.
const Clock& system_clock();

// Microseconds since the Unix epoch → "YYYY-MM-DDTHH:MM:SS.ffffffZ".
std::string format_utc_micros(std::int64_t micros);

// True for "YYYY-MM-DDTHH:MM:SS[.fraction]Z" (what import accepts; stored as given).
bool is_utc_timestamp(std::string_view s);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_CLOCK_H_
