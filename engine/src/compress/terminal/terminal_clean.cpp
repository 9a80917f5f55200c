#include "compress/terminal/terminal_clean.h"

#include <vector>

#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr char kEsc = '\x1b';
constexpr char kBel = '\x07';

// Index just past a string sequence body that starts at i (after `ESC x`): the terminator
// is ST (`ESC \`) or, when `bel_ends` (OSC), BEL.
std::size_t skip_string_sequence(std::string_view s, std::size_t i, bool bel_ends) {
  while (i < s.size()) {
    if (bel_ends && s[i] == kBel) return i + 1;
    if (s[i] == kEsc && i + 1 < s.size() && s[i + 1] == '\\') return i + 2;
    ++i;
  }
  return i;
}

// Length of the escape sequence starting at s[i] == ESC, or 0 if it is not one.
std::size_t escape_length(std::string_view s, std::size_t i) {
  if (i + 1 >= s.size()) return 0;
  auto b = static_cast<unsigned char>(s[i + 1]);
  if (b == '[') {
    std::size_t j = i + 2;
    while (j < s.size() && s[j] >= 0x30 && s[j] <= 0x3F) ++j;  // parameters
    while (j < s.size() && s[j] >= 0x20 && s[j] <= 0x2F) ++j;  // intermediates
    if (j < s.size() && s[j] >= 0x40 && s[j] <= 0x7E) return j + 1 - i;
    return 0;
  }
  if (b == ']') return skip_string_sequence(s, i + 2, /*bel_ends=*/true) - i;
  if (b == 'P' || b == 'X' || b == '^' || b == '_') {
    return skip_string_sequence(s, i + 2, /*bel_ends=*/false) - i;
  }
  if (b >= 0x20 && b <= 0x2F) {  // nF: ESC ( B, ESC ) 0, ESC # 8 …
    std::size_t j = i + 1;
    while (j < s.size() && s[j] >= 0x20 && s[j] <= 0x2F) ++j;
    if (j < s.size() && s[j] >= 0x30 && s[j] <= 0x7E) return j + 1 - i;
    return 0;
  }
  if (b >= 0x30 && b <= 0x7E) return 2;  // Fp, Fe, Fs two-byte escapes
  return 0;
}

// Applies backspaces: each erases the previous UTF-8 character (if any).
std::string apply_backspaces(std::string s) {
  if (s.find('\b') == std::string::npos) return s;
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != '\b') {
      out.push_back(c);
      continue;
    }
    if (out.empty()) continue;
    std::size_t k = out.size() - 1;
    while (k > 0 && (static_cast<unsigned char>(out[k]) & 0xC0) == 0x80) --k;
    out.resize(k);
  }
  return out;
}

}  // namespace

std::string strip_ansi(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t esc = s.find(kEsc, i);
    if (esc == std::string_view::npos) {
      out.append(s.substr(i));
      break;
    }
    out.append(s.substr(i, esc - i));
    std::size_t len = escape_length(s, esc);
    if (len == 0) {
      out.push_back(kEsc);
      i = esc + 1;
    } else {
      i = esc + len;
    }
  }
  return out;
}

std::string clean_terminal_line(std::string_view line) {
  bool cr_end = !line.empty() && line.back() == '\r';
  if (cr_end) line.remove_suffix(1);
  std::string stripped = strip_ansi(line);
  std::string_view frame = stripped;
  if (stripped.find('\r') != std::string::npos) {
    // The last frame with content wins; all-empty frames collapse to "".
    frame = {};
    std::string_view rest = stripped;
    while (true) {
      std::size_t cr = rest.rfind('\r');
      std::string_view seg = cr == std::string_view::npos ? rest : rest.substr(cr + 1);
      if (!seg.empty()) {
        frame = seg;
        break;
      }
      if (cr == std::string_view::npos) break;
      rest = rest.substr(0, cr);
    }
  }
  std::string out = apply_backspaces(std::string(frame));
  if (cr_end) out.push_back('\r');
  return out;
}

}  // namespace caveman::compress
