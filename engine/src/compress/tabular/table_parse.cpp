#include "compress/tabular/table_parse.h"

#include <algorithm>

#include "text/lines.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMaxFields = 128;

std::string_view trim(std::string_view s) { return text::trim_ascii(s); }

bool is_separator_cell(std::string_view c) {
  std::size_t i = 0;
  if (i < c.size() && c[i] == ':') ++i;
  std::size_t dashes = 0;
  while (i < c.size() && c[i] == '-') ++i, ++dashes;
  if (i < c.size() && c[i] == ':') ++i;
  return dashes >= 3 && i == c.size();
}

std::optional<Table> parse_markdown(std::string_view input) {
  std::string_view body = trim(input);
  std::vector<std::string_view> lines = text::split_all(body, '\n');
  if (lines.size() < 3) return std::nullopt;
  Table t;
  t.format = Table::Format::kMarkdown;
  t.delimiter = '|';
  std::size_t offset = static_cast<std::size_t>(body.data() - input.data());
  for (std::string_view raw : lines) {
    std::string_view line = raw;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view tl = trim(line);
    if (tl.size() < 2 || tl.front() != '|' || tl.back() != '|') return std::nullopt;
    std::string_view inner = tl.substr(1, tl.size() - 2);
    // Bound the work before splitting: a huge line of pipes is not a table.
    if (static_cast<std::size_t>(std::count(inner.begin(), inner.end(), '|')) >= kMaxFields) {
      return std::nullopt;
    }
    std::vector<std::string> cells;
    for (std::string_view c : text::split_all(inner, '|')) cells.emplace_back(trim(c));
    if (cells.size() < 2 || cells.size() > kMaxFields) return std::nullopt;
    if (!t.rows.empty() && cells.size() != t.rows[0].size()) return std::nullopt;
    t.rows.push_back(std::move(cells));
    std::size_t begin = static_cast<std::size_t>(raw.data() - input.data());
    t.spans.emplace_back(begin, begin + line.size());
    (void)offset;
  }
  for (const std::string& c : t.rows[1]) {
    if (!is_separator_cell(c)) return std::nullopt;
  }
  t.width = t.rows[0].size();
  return t;
}

// Go encoding/csv reader semantics: "\r\n" → "\n", blank lines skipped, quoted fields may
// span lines, "" escapes a quote, a bare quote in an unquoted field is an error.
// With `commented`, '#' at the start of a record is a comment line (Go's Comment option) and
// records may differ in width (FieldsPerRecord = -1).
bool read_csv(std::string_view s, std::size_t start, char delim, bool commented, Table* t) {
  std::size_t pos = start;
  const std::size_t n = s.size();
  while (pos < n) {
    // Skip empty lines.
    if (s[pos] == '\n') {
      ++pos;
      continue;
    }
    if (s[pos] == '\r' && pos + 1 < n && s[pos + 1] == '\n') {
      pos += 2;
      continue;
    }
    if (commented && s[pos] == '#') {
      std::size_t nl = s.find('\n', pos);
      std::size_t end = nl == std::string_view::npos ? n : nl;
      std::size_t text_end = end > pos && s[end - 1] == '\r' ? end - 1 : end;
      t->comments.push_back({t->rows.size(), pos, text_end});
      pos = nl == std::string_view::npos ? n : nl + 1;
      continue;
    }
    std::size_t rec_begin = pos;
    std::vector<std::string> fields;
    std::string field;
    bool end_of_record = false;
    while (!end_of_record) {
      field.clear();
      if (pos < n && s[pos] == '"') {
        ++pos;
        while (true) {
          if (pos >= n) return false;  // EOF inside quotes
          char c = s[pos];
          if (c == '"') {
            if (pos + 1 < n && s[pos + 1] == '"') {
              field.push_back('"');
              pos += 2;
              continue;
            }
            ++pos;  // closing quote
            if (pos >= n) {
              end_of_record = true;
            } else if (s[pos] == delim) {
              ++pos;
            } else if (s[pos] == '\n') {
              ++pos;
              end_of_record = true;
            } else if (s[pos] == '\r' && pos + 1 < n && s[pos + 1] == '\n') {
              pos += 2;
              end_of_record = true;
            } else {
              return false;  // extraneous character after closing quote
            }
            break;
          }
          if (c == '\r' && pos + 1 < n && s[pos + 1] == '\n') {
            field.push_back('\n');
            pos += 2;
            continue;
          }
          field.push_back(c);
          ++pos;
        }
      } else {
        while (true) {
          if (pos >= n) {
            end_of_record = true;
            break;
          }
          char c = s[pos];
          if (c == delim) {
            ++pos;
            break;
          }
          if (c == '\n') {
            ++pos;
            end_of_record = true;
            break;
          }
          if (c == '\r' && pos + 1 < n && s[pos + 1] == '\n') {
            pos += 2;
            end_of_record = true;
            break;
          }
          if (c == '"') return false;  // bare quote
          field.push_back(c);
          ++pos;
        }
      }
      fields.push_back(field);
      if (fields.size() > kMaxFields) return false;  // before a huge line allocates
      if (!end_of_record && pos >= n) {
        // Trailing delimiter at EOF: one more empty field.
        fields.emplace_back();
        end_of_record = true;
      }
    }
    std::size_t rec_end = pos;
    while (rec_end > rec_begin && (s[rec_end - 1] == '\n' || s[rec_end - 1] == '\r')) --rec_end;
    if (fields.size() < 2 || fields.size() > kMaxFields) return false;
    if (!commented && !t->rows.empty() && fields.size() != t->rows[0].size()) return false;
    t->rows.push_back(std::move(fields));
    t->spans.emplace_back(rec_begin, rec_end);
  }
  if (t->rows.empty()) return false;
  std::size_t width = 0, full = 0;
  for (const auto& r : t->rows) width = std::max(width, r.size());
  for (const auto& r : t->rows) full += r.size() == width;
  if (full * 2 < t->rows.size()) return false;  // ragged beyond "trailing field omitted"
  t->width = width;
  return true;
}

// The prelude's last line names the columns when it splits into exactly `width` non-empty
// cells: "#codes<TAB>coordinates<TAB>TZ<TAB>comments". Adopts it as rows[0].
void adopt_commented_header(std::string_view input, std::size_t prelude_end, Table* t) {
  if (prelude_end == 0) return;
  std::size_t line_end = prelude_end - 1;  // the prelude's final '\n'
  std::size_t line_begin = input.rfind('\n', line_end == 0 ? 0 : line_end - 1);
  line_begin = (line_begin == std::string_view::npos || line_begin >= line_end) ? 0 : line_begin + 1;
  std::string_view line = input.substr(line_begin, line_end - line_begin);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::size_t hashes = 0;
  while (hashes < line.size() && line[hashes] == '#') ++hashes;
  if (static_cast<std::size_t>(std::count(line.begin(), line.end(), t->delimiter)) + 1 != t->width) {
    return;
  }
  std::vector<std::string> cells;
  for (std::string_view c : text::split_all(line.substr(hashes), t->delimiter)) {
    if (trim(c).empty() || c.find('"') != std::string_view::npos) return;
    cells.emplace_back(c);
  }
  if (cells.size() != t->width) return;
  t->rows.insert(t->rows.begin(), std::move(cells));
  t->spans.insert(t->spans.begin(), {line_begin, line_begin + line.size()});
  for (Table::Comment& c : t->comments) ++c.before_row;
  t->header_in_prelude = true;
}

}  // namespace

std::optional<Table> parse_table(std::string_view input) {
  if (input.empty() || !text::is_valid_utf8(input)) return std::nullopt;
  if (std::optional<Table> md = parse_markdown(input)) {
    md->crlf = text::split_lines(input).crlf_majority;
    md->trailing_newline = !input.empty() && input.back() == '\n';
    return md;
  }
  // Leading '#' comment lines (tzdata's *.tab files) form a verbatim prelude.
  std::size_t start = 0;
  while (start < input.size() && input[start] == '#') {
    std::size_t nl = input.find('\n', start);
    if (nl == std::string_view::npos) return std::nullopt;
    start = nl + 1;
  }
  std::string_view rest = input.substr(start);
  if (trim(rest).empty()) return std::nullopt;
  // The delimiter is sniffed from the first non-blank line, untrimmed: trimming it (as the
  // original does) loses the TAB of a TSV row whose first cell is empty.
  std::string_view first;
  for (std::string_view line : text::split_all(rest, '\n')) {
    if (!trim(line).empty()) {
      first = line;
      break;
    }
  }
  auto tab_delimited = [](std::string_view line) {
    std::size_t tabs = 0, commas = 0;
    for (char c : line) {
      tabs += c == '\t';
      commas += c == ',';
    }
    return tabs >= 1 && tabs > commas;
  };
  // In a commented table the column-naming comment ("#codes<TAB>coordinates<TAB>TZ") is a
  // better witness than a data row whose first cell lists "AE,OM,RE".
  bool header_comment_tabs = false;
  if (start > 0) {
    std::string_view prelude = input.substr(0, start - 1);
    std::size_t nl = prelude.rfind('\n');
    header_comment_tabs = tab_delimited(prelude.substr(nl == std::string_view::npos ? 0 : nl + 1));
  }
  char delim = (header_comment_tabs || tab_delimited(first)) ? '\t' : ',';
  if (first.find(delim) == std::string_view::npos) return std::nullopt;
  Table t;
  t.format = delim == '\t' ? Table::Format::kTsv : Table::Format::kCsv;
  t.delimiter = delim;
  t.prelude = std::string(input.substr(0, start));
  const bool commented = start > 0;
  if (!read_csv(input, start, delim, commented, &t)) return std::nullopt;
  if (commented) adopt_commented_header(input, start, &t);
  if (t.rows.size() < 2) return std::nullopt;
  t.crlf = text::split_lines(input).crlf_majority;
  t.trailing_newline = input.back() == '\n';
  return t;
}

}  // namespace caveman::compress
