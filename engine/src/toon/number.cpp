#include "toon/number.h"

#include <cstdint>

#include "caveman/base/text.h"

namespace caveman::toon {
namespace {

using base::is_ascii_digit;

constexpr std::int64_t kMaxExponent = 1'000'000'000'000'000;  // 10^15

}  // namespace

bool is_canonical_number(std::string_view lit) {
  std::size_t i = 0;
  std::size_t n = lit.size();
  bool negative = i < n && lit[i] == '-';
  if (negative) ++i;
  std::size_t int_begin = i;
  while (i < n && is_ascii_digit(lit[i])) ++i;
  std::size_t int_len = i - int_begin;
  if (int_len == 0 || int_len > 21 || (lit[int_begin] == '0' && int_len > 1)) return false;
  bool zero_int = lit[int_begin] == '0';
  if (i == n) return !(negative && zero_int);  // "-0" is not canonical
  if (lit[i] != '.') return false;             // exponent (or junk): take the slow path
  std::size_t frac_begin = ++i;
  while (i < n && is_ascii_digit(lit[i])) ++i;
  if (i != n || i == frac_begin || lit[n - 1] == '0') return false;
  if (zero_int) {
    // 0.000001 is the smallest plain form (1e-6); more leading zeros need an exponent.
    std::size_t zeros = 0;
    while (frac_begin + zeros < n && lit[frac_begin + zeros] == '0') ++zeros;
    if (zeros > 5) return false;
  }
  return true;
}

NumberForm canonical_number(std::string_view lit, std::string& out) {
  if (is_canonical_number(lit)) {
    out.assign(lit);
    return NumberForm::kNumber;
  }
  std::size_t i = 0;
  std::size_t n = lit.size();
  bool negative = false;
  if (i < n && lit[i] == '-') {
    negative = true;
    ++i;
  }
  std::size_t int_begin = i;
  while (i < n && is_ascii_digit(lit[i])) ++i;
  std::size_t int_end = i;
  if (int_end == int_begin) return NumberForm::kNotNumber;
  if (lit[int_begin] == '0' && int_end - int_begin > 1) return NumberForm::kNotNumber;
  std::size_t frac_begin = i, frac_end = i;
  if (i < n && lit[i] == '.') {
    frac_begin = ++i;
    while (i < n && is_ascii_digit(lit[i])) ++i;
    frac_end = i;
    if (frac_end == frac_begin) return NumberForm::kNotNumber;
  }
  std::int64_t exponent = 0;
  bool exponent_too_large = false;
  if (i < n && (lit[i] == 'e' || lit[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (lit[i] == '+' || lit[i] == '-')) exp_negative = lit[i++] == '-';
    std::size_t exp_begin = i;
    while (i < n && is_ascii_digit(lit[i])) {
      if (exponent > kMaxExponent) {
        exponent_too_large = true;
      } else {
        exponent = exponent * 10 + (lit[i] - '0');
      }
      ++i;
    }
    if (i == exp_begin) return NumberForm::kNotNumber;
    if (exponent > kMaxExponent) exponent_too_large = true;
    if (exp_negative) exponent = -exponent;
  }
  if (i != n) return NumberForm::kNotNumber;

  // Significant digits: integer and fraction digits without leading/trailing zeros. The
  // decimal point sits `point` digits after the first significant digit.
  auto digit_at = [&](std::size_t k) {
    std::size_t int_len = int_end - int_begin;
    return k < int_len ? lit[int_begin + k] : lit[frac_begin + (k - int_len)];
  };
  std::size_t total = (int_end - int_begin) + (frac_end - frac_begin);
  std::size_t first = 0;
  while (first < total && digit_at(first) == '0') ++first;
  out.clear();
  if (first == total) {
    out.push_back('0');
    return NumberForm::kNumber;
  }
  if (exponent_too_large) return NumberForm::kOutOfDomain;
  std::size_t last = total;
  while (digit_at(last - 1) == '0') --last;
  std::int64_t sig_len = static_cast<std::int64_t>(last - first);
  std::int64_t point =
      static_cast<std::int64_t>(int_end - int_begin) - static_cast<std::int64_t>(first) + exponent;
  // The limit holds for the exponent the canonical form writes (point - 1), not only the
  // literal's: 899999999e999999999999998 would otherwise come out as e+1000000000000006.
  if (point - 1 > kMaxExponent || point - 1 < -kMaxExponent) return NumberForm::kOutOfDomain;

  if (negative) out.push_back('-');
  auto append_digits = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to; ++k) out.push_back(digit_at(k));
  };
  if (point >= -5 && point <= 21) {
    if (point <= 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-point), '0');
      append_digits(first, last);
    } else if (point < sig_len) {
      append_digits(first, first + static_cast<std::size_t>(point));
      out.push_back('.');
      append_digits(first + static_cast<std::size_t>(point), last);
    } else {
      append_digits(first, last);
      out.append(static_cast<std::size_t>(point - sig_len), '0');
    }
  } else {
    out.push_back(digit_at(first));
    if (sig_len > 1) {
      out.push_back('.');
      append_digits(first + 1, last);
    }
    std::int64_t e = point - 1;
    out.push_back('e');
    out.push_back(e < 0 ? '-' : '+');
    out += std::to_string(e < 0 ? -e : e);
  }
  return NumberForm::kNumber;
}

bool is_numeric_like(std::string_view s) {
  std::size_t i = 0;
  std::size_t n = s.size();
  if (i < n && s[i] == '-') ++i;
  std::size_t begin = i;
  while (i < n && is_ascii_digit(s[i])) ++i;
  if (i == begin) return false;
  if (i < n && s[i] == '.') {
    std::size_t frac = ++i;
    while (i < n && is_ascii_digit(s[i])) ++i;
    if (i == frac) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp = i;
    while (i < n && is_ascii_digit(s[i])) ++i;
    if (i == exp) return false;
  }
  return i == n;
}

}  // namespace caveman::toon
