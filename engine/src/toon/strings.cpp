#include "toon/strings.h"

#include <cstdint>

#include "caveman/base/text.h"
#include "text/utf8.h"
#include "toon/number.h"

namespace caveman::toon {
namespace {

bool is_key_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
struct Tail {
  char32_t cp;
  std::size_t len;
};

// The code point that ends `s` (non-empty); invalid UTF-8 reads as U+FFFD (never white space).
Tail last_code_point(std::string_view s) {
  std::size_t start = s.size() - 1;
  while (start > 0 && s.size() - start < 4 &&
         (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) {
    --start;
  }
  text::Decoded d = text::decode_utf8(s, start);
  if (!d.valid || start + d.len != s.size()) return {text::kReplacementChar, 1};
  return {d.cp, d.len};
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The one-letter escapes TOON allows (§7.1), or 0.
char simple_escape(char e) {
  if (e == '\\' || e == '"') return e;
  if (e == 'n') return '\n';
  if (e == 'r') return '\r';
  return e == 't' ? '\t' : 0;
}

}  // namespace

bool is_trim_space(char32_t cp) {
  if (cp < 0x80) return cp == ' ' || (cp >= 0x09 && cp <= 0x0D);
  return cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

namespace {

// Bytes of the white-space code point that starts `s`; 0 when there is none.
std::size_t leading_space(std::string_view s) {
  if (s.empty()) return 0;
  unsigned char c = static_cast<unsigned char>(s.front());
  if (c < 0x80) return is_trim_space(c) ? 1 : 0;  // ASCII needs no decoding
  text::Decoded d = text::decode_utf8(s, 0);
  return d.valid && is_trim_space(d.cp) ? d.len : 0;
}

// Bytes of the white-space code point that ends `s`; 0 when there is none.
std::size_t trailing_space(std::string_view s) {
  if (s.empty()) return 0;
  unsigned char c = static_cast<unsigned char>(s.back());
  if (c < 0x80) return is_trim_space(c) ? 1 : 0;
  Tail t = last_code_point(s);
  return is_trim_space(t.cp) ? t.len : 0;
}

}  // namespace

std::string_view trim_space(std::string_view s) {
  while (std::size_t n = leading_space(s)) s.remove_prefix(n);
  while (std::size_t n = trailing_space(s)) s.remove_suffix(n);
  return s;
}

bool is_unquoted_key(std::string_view key) {
  if (key.empty() || !is_key_start(key[0])) return false;
  for (char c : key) {
    if (!is_key_start(c) && !base::is_ascii_digit(c) && c != '.') return false;
  }
  return true;
}

bool is_identifier_segment(std::string_view segment) {
  if (segment.empty() || !is_key_start(segment[0])) return false;
  for (char c : segment) {
    if (!is_key_start(c) && !base::is_ascii_digit(c)) return false;
  }
  return true;
}

bool is_safe_unquoted(std::string_view s, char delimiter) {
  if (s.empty() || s[0] == '-') return false;
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == ':' || c == '"' || c == '\\' || c == '[' || c == ']' || c == '{' ||
        c == '}' || ch == delimiter) {
      return false;
    }
  }
  // Leading/trailing white space would be trimmed by decoders (ASCII controls already failed).
  unsigned char first = static_cast<unsigned char>(s.front());
  if (first == ' ' || (first >= 0x80 && is_trim_space(text::decode_utf8(s, 0).cp))) return false;
  unsigned char last = static_cast<unsigned char>(s.back());
  if (last == ' ' || (last >= 0x80 && is_trim_space(last_code_point(s).cp))) return false;
  if (s == "true" || s == "false" || s == "null") return false;
  return !is_numeric_like(s);
}

void append_quoted(std::string& out, std::string_view s) { base::append_json_string(s, out, false); }

std::size_t find_closing_quote(std::string_view s, std::size_t open) {
  for (std::size_t i = open + 1; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      return i;
    }
  }
  return std::string_view::npos;
}

bool unescape(std::string_view body, std::string& out, std::string& error) {
  out.clear();
  std::size_t run = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') continue;
    out.append(body.data() + run, i - run);
    if (i + 1 >= body.size()) {
      error = "backslash at end of string";
      return false;
    }
    char e = body[i + 1];
    if (char plain = simple_escape(e)) {
      out.push_back(plain);
      i += 1;  // the escape letter
      run = i + 1;
      continue;
    }
    if (e != 'u') {
      error = e > 0x20 && e < 0x7F ? std::string("invalid escape \\") + e : "invalid escape";
      return false;
    }
    char32_t cp = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      int h = i + 2 + k < body.size() ? hex_value(body[i + 2 + k]) : -1;
      if (h < 0) {
        error = "\\u must be followed by four hex digits";
        return false;
      }
      cp = cp * 16 + static_cast<char32_t>(h);
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) {
      error = "\\u escape of a surrogate (supplementary characters must be literal UTF-8)";
      return false;
    }
    text::append_utf8(out, cp);
    i += 5;  // 'u' and four hex digits
    run = i + 1;
  }
  out.append(body.data() + run, body.size() - run);
  return true;
}

}  // namespace caveman::toon
