#include "clock.h"

#include <chrono>

#include "caveman/base/time.h"

namespace caveman::mem {

std::string SystemClock::now() const {
  const auto since = std::chrono::system_clock::now().time_since_epoch();
  return format_utc_micros(std::chrono::duration_cast<std::chrono::microseconds>(since).count());
}

const Clock& system_clock() {
  static const SystemClock clock;
  return clock;
}

std::string format_utc_micros(std::int64_t micros) {
  std::int64_t secs = micros / 1'000'000;
  std::int64_t frac = micros % 1'000'000;
  if (frac < 0) {
    frac += 1'000'000;
    --secs;
  }
  return base::format_utc({secs, static_cast<std::int32_t>(frac * 1000)}, {base::Fraction::kMicros});
}

bool is_utc_timestamp(std::string_view s) {
  // YYYY-MM-DDTHH:MM:SS = 19 characters, then an optional fraction, then Z.
  constexpr std::string_view kShape = "dddd-dd-ddTdd:dd:dd";
  if (s.size() < kShape.size() + 1 || s.size() > 40 || s.back() != 'Z') return false;
  for (std::size_t i = 0; i < kShape.size(); ++i) {
    if (kShape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != kShape[i]) return false;
  }
  std::string_view rest = s.substr(kShape.size(), s.size() - kShape.size() - 1);
  if (!rest.empty()) {
    if (rest[0] != '.' || rest.size() < 2) return false;
    for (char c : rest.substr(1)) {
      if (c < '0' || c > '9') return false;
    }
  }
  auto num = [&](std::size_t at, std::size_t len) {
    int v = 0;
    for (std::size_t i = at; i < at + len; ++i) v = v * 10 + (s[i] - '0');
    return v;
  };
  const int month = num(5, 2), day = num(8, 2), hour = num(11, 2), minute = num(14, 2),
            second = num(17, 2);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 &&
         second <= 60;
}

}  // namespace caveman::mem
