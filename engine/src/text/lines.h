// Line splitting shared by the line-oriented compressors (docs/spec/compressors.md#lines): split on
// '\n' only, a '\r' stays attached to its line, a final '\n' is remembered and re-added.
#ifndef CAVEMAN_TEXT_LINES_H_
#define CAVEMAN_TEXT_LINES_H_

#include <string>
#include <string_view>
#include <vector>

namespace caveman::text {

struct Lines {
  std::vector<std::string_view> lines;  // views into the input
  bool trailing_newline = false;
  // CRLF is the majority line ending: count("\r\n") * 2 > count("\n") and ≥ 1 '\n'.
  bool crlf_majority = false;
};

// "a\nb\n" → {"a","b"}, trailing_newline. "" → {""}. "a\n\n" → {"a",""}, trailing_newline.
Lines split_lines(std::string_view s);

// Joins with '\n' and appends '\n' when trailing_newline.
std::string join_lines(const std::vector<std::string>& lines, bool trailing_newline);

// A synthesized marker line: `text`, plus '\r' when CRLF is the majority ending.
std::string marker_line(std::string_view text, bool crlf_majority);

// Splits on '\n' exactly (a trailing '\n' yields a final empty element).
std::vector<std::string_view> split_all(std::string_view s, char sep = '\n');

bool is_blank(std::string_view line);  // only ASCII whitespace

}  // namespace caveman::text

#endif  // CAVEMAN_TEXT_LINES_H_
