#include "compress/table_parse.h"

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
  return t;
}

// Go encoding/csv reader semantics: "\r\n" → "\n", blank lines skipped, quoted fields may
// span lines, "" escapes a quote, a bare quote in an unquoted field is an error.
bool read_csv(std::string_view s, std::size_t start, char delim, Table* t) {
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
      if (!end_of_record && pos >= n) {
        // Trailing delimiter at EOF: one more empty field.
        fields.emplace_back();
        end_of_record = true;
      }
    }
    std::size_t rec_end = pos;
    while (rec_end > rec_begin && (s[rec_end - 1] == '\n' || s[rec_end - 1] == '\r')) --rec_end;
    if (fields.size() < 2 || fields.size() > kMaxFields) return false;
    if (!t->rows.empty() && fields.size() != t->rows[0].size()) return false;
    t->rows.push_back(std::move(fields));
    t->spans.emplace_back(rec_begin, rec_end);
  }
  return t->rows.size() >= 2;
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
  std::string_view trimmed = trim(rest);
  if (trimmed.empty()) return std::nullopt;
  std::string_view first = trimmed.substr(0, trimmed.find('\n'));
  std::size_t tabs = 0, commas = 0;
  for (char c : first) {
    tabs += c == '\t';
    commas += c == ',';
  }
  char delim = (tabs >= 1 && tabs > commas) ? '\t' : ',';
  if (first.find(delim) == std::string_view::npos) return std::nullopt;
  Table t;
  t.format = delim == '\t' ? Table::Format::kTsv : Table::Format::kCsv;
  t.delimiter = delim;
  t.prelude = std::string(input.substr(0, start));
  if (!read_csv(input, start, delim, &t)) return std::nullopt;
  t.crlf = text::split_lines(input).crlf_majority;
  t.trailing_newline = input.back() == '\n';
  return t;
}

}  // namespace caveman::compress
