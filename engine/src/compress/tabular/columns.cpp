#include "compress/tabular/columns.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "caveman/base/text.h"
#include "text/lines.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMaxLead = 5;  // lines before the table that may be a legend or a total
constexpr std::size_t kMinRows = 4;

std::string_view rtrim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A rule line: only '-', '=', '+', '|' and blanks, with at least three rule characters.
bool rule_line(std::string_view l) {
  std::size_t marks = 0;
  for (char c : l) {
    if (c == '-' || c == '=' || c == '+')
      ++marks;
    else if (c != ' ' && c != '|')
      return false;
  }
  return marks >= 3;
}

// Where each run of rule characters starts.
std::vector<std::size_t> group_starts(std::string_view rule) {
  std::vector<std::size_t> out;
  for (std::size_t p = 0; p < rule.size(); ++p) {
    if (rule[p] != ' ' && (p == 0 || rule[p - 1] == ' ')) out.push_back(p);
  }
  return out;
}

// ls -l's file mode: a type letter and nine permission letters, optionally '.', '+' or '@'.
bool file_mode(std::string_view l) {
  if (l.size() < 11) return false;
  if (std::string_view("-bcdlpsD").find(l[0]) == std::string_view::npos) return false;
  for (std::size_t i = 1; i < 10; ++i) {
    if (std::string_view("rwxsStT-").find(l[i]) == std::string_view::npos) return false;
  }
  std::size_t j = 10;
  if (l[j] == '.' || l[j] == '+' || l[j] == '@') ++j;
  return j < l.size() && l[j] == ' ';
}

// Cell starts: positions where some line has text right after a position that is blank in
// every line (and lies inside every line), for lines of the table. Empty when fewer than
// `min_columns`.
std::vector<std::size_t> column_starts(const std::vector<std::string_view>& rows,
                                       std::size_t min_columns = 3) {
  std::size_t width = std::string_view::npos;
  for (std::string_view r : rows) width = std::min(width, r.size());
  if (width == std::string_view::npos || width == 0) return {};
  std::vector<bool> blank(width, true);
  std::vector<bool> text_before(width, false);
  for (std::string_view r : rows) {
    bool seen = false;
    for (std::size_t p = 0; p < width; ++p) {
      if (r[p] != ' ') blank[p] = false;
      if (seen) text_before[p] = true;
      if (r[p] != ' ') seen = true;
    }
  }
  std::vector<std::size_t> starts{0};
  for (std::size_t p = 1; p < width; ++p) {
    if (blank[p - 1] && !blank[p] && text_before[p - 1]) starts.push_back(p);
  }
  return starts.size() >= min_columns ? starts : std::vector<std::size_t>{};
}

// A header: every cell holds text, and the line holds no number — no two digits in a row
// and at most two in all (`1K-blocks`, `%CPU`); a timestamped line fails.
bool header_line(std::string_view h, const std::vector<std::size_t>& starts,
                 const std::vector<std::string_view>& rows, bool ruled) {
  std::size_t digits = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (!base::is_ascii_digit(h[i])) continue;
    if (++digits > 2 || (i + 1 < h.size() && base::is_ascii_digit(h[i + 1]))) return false;
  }
  for (std::size_t i = 0; i < starts.size(); ++i) {
    std::size_t end = i + 1 < starts.size() ? starts[i + 1] : h.size();
    std::string_view cell = h.substr(starts[i], end - starts[i]);
    if (cell.find_first_not_of(' ') == std::string_view::npos) return false;
  }
  // …and it is set apart: a rule line under it (dpkg -l), or a column whose header cell has
  // no digit holds a number in most rows (PID, Size). Repeated lines of words are no table.
  if (ruled) return true;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    auto cell_of = [&](std::string_view l) {
      std::size_t end = i + 1 < starts.size() ? std::min(starts[i + 1], l.size()) : l.size();
      return starts[i] < end ? l.substr(starts[i], end - starts[i]) : std::string_view();
    };
    auto has_digit = [](std::string_view c) {
      for (char ch : c) {
        if (base::is_ascii_digit(ch)) return true;
      }
      return false;
    };
    if (has_digit(cell_of(h))) continue;
    std::size_t numeric = 0;
    for (std::size_t r = 1; r < rows.size(); ++r) numeric += has_digit(cell_of(rows[r])) ? 1 : 0;
    if (numeric * 2 >= rows.size() - 1) return true;
  }
  return false;
}

// nm's symbol table: a value of 8 or 16 hex digits (blanks for an undefined symbol), a blank,
// a symbol type letter, a blank, the name.
bool nm_row(std::string_view l) {
  for (std::size_t w : {std::size_t{16}, std::size_t{8}}) {
    if (l.size() < w + 4 || l[w] != ' ' || l[w + 2] != ' ') continue;
    char type = l[w + 1];
    if (!((type >= 'a' && type <= 'z') || (type >= 'A' && type <= 'Z') || type == '?' ||
          type == '-'))
      continue;
    std::string_view value = l.substr(0, w);
    bool hex = value.find_first_not_of("0123456789abcdef") == std::string_view::npos;
    bool blank = value.find_first_not_of(' ') == std::string_view::npos;
    if ((hex || blank) && l[w + 3] != ' ') return true;
  }
  return false;
}

bool box_char_start(std::string_view l) {
  // U+2500–U+257F (box drawing) is E2 94 80 – E2 95 BF in UTF-8.
  return l.size() >= 3 && static_cast<unsigned char>(l[0]) == 0xE2 &&
         (static_cast<unsigned char>(l[1]) == 0x94 || static_cast<unsigned char>(l[1]) == 0x95);
}

}  // namespace

bool is_column_table(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::string_view l : text::split_all(text, '\n')) {
    l = rtrim(l);
    if (l.find('\t') != std::string_view::npos) return false;
    lines.push_back(l);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  std::size_t first = 0;
  while (first < lines.size() && lines[first].empty()) ++first;
  lines.erase(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(first));
  if (lines.size() < kMinRows + 1) return false;
  for (std::string_view l : lines) {
    if (l.empty()) return false;  // one block of lines
  }
  std::size_t boxed = 0;
  for (std::string_view l : lines) boxed += box_char_start(l) ? 1 : 0;
  if (boxed == lines.size()) return true;
  std::size_t symbols = 0;
  for (std::string_view l : lines) symbols += nm_row(l) ? 1 : 0;
  if (symbols == lines.size()) return true;
  for (std::size_t lead = 0; lead <= kMaxLead && lead + kMinRows + 1 <= lines.size(); ++lead) {
    std::vector<std::string_view> rows;
    for (std::size_t i = lead; i < lines.size(); ++i) {
      if (!rule_line(lines[i])) rows.push_back(lines[i]);
    }
    if (rows.size() < kMinRows + 1) break;
    bool ruled = lead + 1 < lines.size() && rule_line(lines[lead + 1]);
    std::vector<std::size_t> starts = column_starts(rows);
    if (starts.empty()) {
      // Two columns are a table only under a rule of dash groups that start where they do
      // (`pip list`, `sqlite3 -column`: "----------  -------").
      if (ruled && column_starts(rows, 2) == group_starts(lines[lead + 1])) return true;
      continue;
    }
    if (header_line(rows[0], starts, rows, ruled)) return true;
    bool modes = true;
    for (std::string_view r : rows) modes = modes && file_mode(r);
    if (modes) return true;
  }
  return false;
}

}  // namespace caveman::compress
