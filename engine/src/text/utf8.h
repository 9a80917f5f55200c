// UTF-8 helpers. Invalid sequences decode as U+FFFD consuming one byte (Go's rule), so every
// byte string can be walked. Pure functions; safe from any thread.
#ifndef CAVEMAN_TEXT_UTF8_H_
#define CAVEMAN_TEXT_UTF8_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "caveman/base/text.h"

namespace caveman::text {

// The byte-level helpers live in the base layer (caveman/base/text.h).
using base::ascii_lower;
using base::is_valid_utf8;
using base::trim_ascii;

inline constexpr char32_t kReplacementChar = 0xFFFD;

struct Decoded {
  char32_t cp;
  std::size_t len;  // bytes consumed, ≥ 1 unless at end
  bool valid;
};

// Decodes the code point starting at s[i] (i < s.size()).
Decoded decode_utf8(std::string_view s, std::size_t i);
std::size_t rune_count(std::string_view s);
void append_utf8(std::string& out, char32_t cp);
// Largest prefix length ≤ max_bytes that does not split a UTF-8 sequence.
std::size_t utf8_safe_cut(std::string_view s, std::size_t max_bytes);
// Unicode lowercase (simple mapping) of s; invalid bytes are copied unchanged.
std::string to_lower_utf8(std::string_view s);
// Trims Unicode White_Space on both ends.
std::string_view trim_space(std::string_view s);

}  // namespace caveman::text

#endif  // CAVEMAN_TEXT_UTF8_H_
