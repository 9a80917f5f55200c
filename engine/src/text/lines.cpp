#include "text/lines.h"

#include <cstring>

namespace caveman::text {

std::vector<std::string_view> split_all(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  if (s.empty()) {
    out.push_back(s);
    return out;
  }
  // memchr: every payload is split at least once per compress, often several times.
  const char* p = s.data();
  const char* end = p + s.size();
  while (const void* hit = std::memchr(p, sep, static_cast<std::size_t>(end - p))) {
    const char* at = static_cast<const char*>(hit);
    out.emplace_back(p, static_cast<std::size_t>(at - p));
    p = at + 1;
  }
  out.emplace_back(p, static_cast<std::size_t>(end - p));
  return out;
}

Lines split_lines(std::string_view s) {
  Lines result;
  result.lines = split_all(s, '\n');
  // Every element but the last is followed by a '\n'; it ends in '\r' exactly when that
  // newline is part of a CRLF.
  std::size_t lf = result.lines.size() - 1;
  std::size_t crlf = 0;
  for (std::size_t i = 0; i < lf; ++i) {
    std::string_view l = result.lines[i];
    if (!l.empty() && l.back() == '\r') ++crlf;
  }
  if (result.lines.size() > 1 && result.lines.back().empty()) {
    result.lines.pop_back();
    result.trailing_newline = true;
  }
  result.crlf_majority = lf > 0 && crlf * 2 > lf;
  return result;
}

std::string join_lines(const std::vector<std::string>& lines, bool trailing_newline) {
  std::size_t total = 0;
  for (const auto& l : lines) total += l.size() + 1;
  std::string out;
  out.reserve(total);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out.push_back('\n');
    out += lines[i];
  }
  if (trailing_newline) out.push_back('\n');
  return out;
}

std::string marker_line(std::string_view text, bool crlf_majority) {
  std::string out(text);
  if (crlf_majority) out.push_back('\r');
  return out;
}

bool is_blank(std::string_view line) {
  for (char c : line) {
    if (!(c == ' ' || (c >= '\t' && c <= '\r'))) return false;
  }
  return true;
}

}  // namespace caveman::text
