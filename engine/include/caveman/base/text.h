// caveman/base/text.h — ASCII and UTF-8 helpers every tool shares (docs/base.md).
//
// Byte-level and locale-free: ASCII case and white space only, so the results never depend on
// the C locale. UTF-8 validity follows RFC 3629 (no overlongs, surrogates or code points above
// U+10FFFF). Pure functions; safe from any thread.
#ifndef CAVEMAN_BASE_TEXT_H_
#define CAVEMAN_BASE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace caveman::base {

// True when every byte sequence of `s` is well-formed UTF-8 (the empty string is).
bool is_valid_utf8(std::string_view s);

// Offset of the first byte that does not start a well-formed UTF-8 sequence, or npos.
std::size_t find_invalid_utf8(std::string_view s);

// `c` mapped to a–z when it is A–Z; any other byte unchanged.
constexpr char ascii_lower_char(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// True for the ASCII digits 0–9 only (std::isdigit depends on the C locale).
constexpr bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

// The number of spaces and tabs `s` begins with.
constexpr std::size_t leading_blanks(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && (s[n] == ' ' || s[n] == '\t')) ++n;
  return n;
}

// `s` with A–Z mapped to a–z; every other byte (UTF-8 included) unchanged.
std::string ascii_lower(std::string_view s);

// True when `a` and `b` are equal ignoring ASCII case.
bool iequals_ascii(std::string_view a, std::string_view b);

// True when `s` begins with `prefix`, ignoring ASCII case.
bool istarts_with_ascii(std::string_view s, std::string_view prefix);

// True when `s` ends with `suffix`, ignoring ASCII case.
bool iends_with_ascii(std::string_view s, std::string_view suffix);

// `s` without leading and trailing ASCII white space (space, \t, \n, \v, \f, \r).
std::string_view trim_ascii(std::string_view s);

// Appends `s` as a JSON string literal: '"', '\\' and control characters escaped (\n, \t…,
// else \u00XX), every other byte as given — the compact form JSON.stringify writes. The one
// JSON string escaper; `short_bf` false writes \b and \f as \u0008 and \u000c (TOON §7.1).
void append_json_string(std::string_view s, std::string& out, bool short_bf = true);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_TEXT_H_
