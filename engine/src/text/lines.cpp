#include "text/lines.h"

namespace caveman::text {

std::vector<std::string_view> split_all(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(s.substr(start));
  return out;
}

Lines split_lines(std::string_view s) {
  Lines result;
  result.lines = split_all(s, '\n');
  if (result.lines.size() > 1 && result.lines.back().empty()) {
    result.lines.pop_back();
    result.trailing_newline = true;
  }
  std::size_t lf = 0, crlf = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n') {
      ++lf;
      if (i > 0 && s[i - 1] == '\r') ++crlf;
    }
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
