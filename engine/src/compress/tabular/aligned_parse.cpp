#include "compress/tabular/aligned_parse.h"

#include "text/lines.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMaxColumns = 128;

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool is_footer(std::string_view line) {
  // "(349 rows)", "(1 row)", "12 rows in set (0.00 sec)", "1 row in set".
  std::string_view t = line;
  if (t.starts_with("(")) t.remove_prefix(1);
  std::size_t i = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  if (i == 0) return false;
  t.remove_prefix(i);
  return t.starts_with(" row)") || t.starts_with(" rows)") || t.starts_with(" row in set") ||
         t.starts_with(" rows in set");
}

}  // namespace

std::optional<Rule> parse_rule(std::string_view line) {
  if (!line.empty() && line.back() == '\r') return std::nullopt;
  Rule r;
  r.left_border = line.starts_with("+");
  r.right_border = line.size() > 1 && line.ends_with("+");
  std::string_view body = line;
  if (r.left_border) body.remove_prefix(1);
  if (r.right_border) body.remove_suffix(1);
  std::size_t run = 0;
  for (char c : body) {
    if (c == '-') {
      ++run;
    } else if (c == '+') {
      if (run < 1) return std::nullopt;
      r.widths.push_back(run);
      run = 0;
      if (r.widths.size() > kMaxColumns) return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  if (run < 1) return std::nullopt;
  r.widths.push_back(run);
  if (r.widths.size() < 2) return std::nullopt;
  return r;
}

std::optional<std::vector<std::string_view>> split_aligned_row(std::string_view row, const Rule& rule) {
  if (rule.left_border) {
    if (!row.starts_with("|")) return std::nullopt;
    row.remove_prefix(1);
  }
  if (rule.right_border) {
    if (row.size() < 2 || !row.ends_with("|")) return std::nullopt;
    row.remove_suffix(1);
  }
  std::optional<std::vector<std::string_view>> cells = split_at_bars(row, rule.widths.size());
  if (!cells) return std::nullopt;
  for (std::size_t c = 0; c < cells->size(); ++c) {
    const bool last = c + 1 == cells->size();
    std::size_t width = code_points((*cells)[c]);
    if (width > rule.widths[c] || (width < rule.widths[c] && (!last || rule.right_border))) {
      return std::nullopt;
    }
  }
  return cells;
}

std::optional<std::vector<std::string_view>> split_at_bars(std::string_view row, std::size_t n) {
  std::vector<std::string_view> cells = text::split_all(row, '|');
  if (cells.size() != n) return std::nullopt;
  return cells;
}

std::optional<AlignedTable> find_aligned_table(std::string_view text) {
  std::vector<std::string_view> lines = text::split_all(text, '\n');
  std::size_t nonblank = 0;
  for (std::string_view l : lines) nonblank += !text::is_blank(l);
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    if (lines[i].find('+') == std::string_view::npos) continue;
    std::optional<Rule> rule = parse_rule(lines[i]);
    if (!rule || !split_aligned_row(lines[i - 1], *rule)) continue;
    AlignedTable t;
    t.header_line = i - 1;
    t.rule_line = i;
    t.first_row = i + 1;
    std::size_t j = i + 1;
    while (j < lines.size() && split_aligned_row(lines[j], *rule)) ++j;
    t.rows = j - t.first_row;
    if (t.rows == 0) continue;
    t.table_lines = t.rows + 2;
    // MySQL's borders: the rule above the header and below the last row.
    if (i >= 2 && lines[i - 2] == lines[i]) ++t.table_lines;
    if (j < lines.size() && lines[j] == lines[i]) ++j, ++t.table_lines;
    while (j < lines.size() && text::is_blank(lines[j])) ++j;
    if (j < lines.size() && is_footer(lines[j])) ++t.table_lines;
    t.nonblank_lines = nonblank;
    return t;
  }
  return std::nullopt;
}

}  // namespace caveman::compress
