#include "text/utf8.h"

#include "text/unicode.h"

namespace caveman::text {

Decoded decode_utf8(std::string_view s, std::size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  std::size_t left = s.size() - i;
  unsigned char b0 = p[0];
  if (b0 < 0x80) return {b0, 1, true};
  auto cont = [&](std::size_t k) { return k < left && (p[k] & 0xC0) == 0x80; };
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    if (cont(1)) return {static_cast<char32_t>(((b0 & 0x1F) << 6) | (p[1] & 0x3F)), 2, true};
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (cont(1) && cont(2)) {
      char32_t cp = ((b0 & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
      if (cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF)) return {cp, 3, true};
    }
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (cont(1) && cont(2) && cont(3)) {
      char32_t cp = ((b0 & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) |
                    (p[3] & 0x3F);
      if (cp >= 0x10000 && cp <= 0x10FFFF) return {cp, 4, true};
    }
  }
  return {kReplacementChar, 1, false};
}

std::size_t rune_count(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) {
    i += static_cast<unsigned char>(s[i]) < 0x80 ? 1 : decode_utf8(s, i).len;
  }
  return n;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::size_t utf8_safe_cut(std::string_view s, std::size_t max_bytes) {
  if (max_bytes >= s.size()) return s.size();
  std::size_t cut = max_bytes;
  // Back off over continuation bytes so the cut lands on a sequence start.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

std::string to_lower_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      out.push_back(static_cast<char>(b >= 'A' && b <= 'Z' ? b + 32 : b));
      ++i;
      continue;
    }
    Decoded d = decode_utf8(s, i);
    if (!d.valid) {
      out.push_back(s[i]);
    } else {
      append_utf8(out, to_lower(d.cp));
    }
    i += d.len;
  }
  return out;
}

std::string_view trim_space(std::string_view s) {
  std::size_t b = 0;
  while (b < s.size()) {
    Decoded d = decode_utf8(s, b);
    if (!d.valid || !is_white_space(d.cp)) break;
    b += d.len;
  }
  std::size_t e = s.size();
  while (e > b) {
    // Step back to the start of the previous code point.
    std::size_t start = e - 1;
    while (start > b && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80 && e - start < 4) {
      --start;
    }
    Decoded d = decode_utf8(s, start);
    if (!d.valid || start + d.len != e || !is_white_space(d.cp)) break;
    e = start;
  }
  return s.substr(b, e - b);
}

}  // namespace caveman::text
