#include "caveman/base/time.h"

#include <chrono>

namespace caveman::base {
namespace {

constexpr std::int64_t kSecondsPerDay = 86400;

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil {
  std::int64_t year;
  unsigned month;
  unsigned day;
};

Civil civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

bool is_leap(std::int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned days_in_month(std::int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `n` ASCII digits at text[*pos]; advances *pos.
bool read_digits(std::string_view text, std::size_t* pos, int n, int* out) {
  if (*pos + static_cast<std::size_t>(n) > text.size()) return false;
  int v = 0;
  for (int i = 0; i < n; ++i) {
    char c = text[*pos + static_cast<std::size_t>(i)];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += static_cast<std::size_t>(n);
  *out = v;
  return true;
}

bool expect(std::string_view text, std::size_t* pos, char c) {
  if (*pos >= text.size() || text[*pos] != c) return false;
  ++*pos;
  return true;
}

void append_padded(std::string& out, std::int64_t v, int width) {
  std::string digits = std::to_string(v);
  if (static_cast<int>(digits.size()) < width) {
    out.append(static_cast<std::size_t>(width) - digits.size(), '0');
  }
  out += digits;
}

// ".5" (trimmed), ".500" (millis), ".500000" (micros) or nothing.
void append_fraction(std::string& out, std::int32_t nanos, Fraction fraction) {
  switch (fraction) {
    case Fraction::kNone:
      return;
    case Fraction::kMillis:
      out.push_back('.');
      return append_padded(out, nanos / 1'000'000, 3);
    case Fraction::kMicros:
      out.push_back('.');
      return append_padded(out, nanos / 1'000, 6);
    case Fraction::kTrimmed: {
      if (nanos == 0) return;
      std::string frac;
      append_padded(frac, nanos, 9);
      while (frac.back() == '0') frac.pop_back();
      out.push_back('.');
      out += frac;
      return;
    }
  }
}

}  // namespace

Timestamp now_utc() {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count();
  Timestamp t;
  t.seconds = ns / 1'000'000'000;
  t.nanos = static_cast<std::int32_t>(ns % 1'000'000'000);
  if (t.nanos < 0) {  // before 1970: keep nanos non-negative
    t.nanos += 1'000'000'000;
    t.seconds -= 1;
  }
  return t;
}

std::string format_utc(Timestamp t, TimeFormat format) {
  std::int64_t days = t.seconds / kSecondsPerDay;
  std::int64_t rem = t.seconds % kSecondsPerDay;
  if (rem < 0) {
    rem += kSecondsPerDay;
    days -= 1;
  }
  Civil c = civil_from_days(days);
  std::string out;
  out.reserve(32);
  append_padded(out, c.year, 4);
  out.push_back('-');
  append_padded(out, c.month, 2);
  out.push_back('-');
  append_padded(out, c.day, 2);
  out.push_back(format.separator);
  append_padded(out, rem / 3600, 2);
  out.push_back(':');
  append_padded(out, rem / 60 % 60, 2);
  out.push_back(':');
  append_padded(out, rem % 60, 2);
  append_fraction(out, t.nanos, format.fraction);
  if (format.zulu) out.push_back('Z');
  return out;
}

std::string format_rfc3339(Timestamp t) { return format_utc(t); }

std::optional<Timestamp> parse_rfc3339(std::string_view text) {
  std::size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!read_digits(text, &pos, 4, &year) || !expect(text, &pos, '-') ||
      !read_digits(text, &pos, 2, &month) || !expect(text, &pos, '-') ||
      !read_digits(text, &pos, 2, &day)) {
    return std::nullopt;
  }
  if (pos >= text.size() || (text[pos] != 'T' && text[pos] != 't')) return std::nullopt;
  ++pos;
  if (!read_digits(text, &pos, 2, &hour) || !expect(text, &pos, ':') ||
      !read_digits(text, &pos, 2, &minute) || !expect(text, &pos, ':') ||
      !read_digits(text, &pos, 2, &second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 ||
      static_cast<unsigned>(day) > days_in_month(year, static_cast<unsigned>(month)) || hour > 23 ||
      minute > 59 || second > 59) {
    return std::nullopt;
  }
  std::int32_t nanos = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 9) nanos = nanos * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return std::nullopt;
    for (int i = digits; i < 9; ++i) nanos *= 10;
  }
  std::int64_t offset = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int sign = text[pos] == '-' ? -1 : 1;
    ++pos;
    int oh = 0, om = 0;
    if (!read_digits(text, &pos, 2, &oh) || !expect(text, &pos, ':') ||
        !read_digits(text, &pos, 2, &om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset = sign * (oh * 3600 + om * 60);
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  Timestamp t;
  t.seconds = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) *
                  kSecondsPerDay +
              hour * 3600 + minute * 60 + second - offset;
  t.nanos = nanos;
  // The UTC year must stay printable as four digits.
  if (t.seconds < days_from_civil(0, 1, 1) * kSecondsPerDay ||
      t.seconds >= days_from_civil(10000, 1, 1) * kSecondsPerDay) {
    return std::nullopt;
  }
  return t;
}

std::optional<std::string> normalize_rfc3339(std::string_view text) {
  std::optional<Timestamp> t = parse_rfc3339(text);
  if (!t) return std::nullopt;
  return format_rfc3339(*t);
}

}  // namespace caveman::base
