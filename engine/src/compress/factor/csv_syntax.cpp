#include "compress/factor/csv_syntax.h"

#include <charconv>

#include "compress/factor/header_count.h"

namespace caveman::compress::factor {
namespace {

constexpr std::string_view kCsvOpen = "[CSV rows: ";
constexpr std::string_view kRecords = " records, columns: ";
constexpr std::string_view kRows =
    "; a row per line: the cells where \"cell\" or no \"=\" stands, as written, separated by ";
constexpr std::string_view kComma = "\",\"]";
constexpr std::string_view kTabs = "tabs]";
constexpr std::string_view kCell = "cell";

bool plain_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '#' || c == '.' || c == '$' || c == '/' || c == '-';
}

std::string json_string(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

// A JSON string literal at `*at` (only the escapes json_string writes, plus \/ \n \r):
// its value.
std::optional<std::string> read_json_string(std::string_view s, std::size_t* at) {
  std::size_t i = *at;
  if (i >= s.size() || s[i] != '"') return std::nullopt;
  std::string out;
  for (++i; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      *at = i + 1;
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= s.size()) return std::nullopt;
    switch (s[i]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 'u': {
        unsigned v = 0;
        if (i + 4 >= s.size()) return std::nullopt;
        auto [p, ec] = std::from_chars(s.data() + i + 1, s.data() + i + 5, v, 16);
        if (ec != std::errc() || p != s.data() + i + 5 || v >= 0x80) return std::nullopt;
        out += static_cast<char>(v);
        i += 4;
        break;
      }
      default: return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string write_name(std::string_view name) {
  return is_plain_name(name) ? std::string(name) : json_string(name);
}

std::optional<std::string> read_name(std::string_view s, std::size_t* at) {
  if (*at < s.size() && s[*at] == '"') return read_json_string(s, at);
  std::size_t i = *at;
  while (i < s.size() && plain_char(s[i])) ++i;
  if (i == *at) return std::nullopt;
  std::string name(s.substr(*at, i - *at));
  *at = i;
  return name;
}

}  // namespace

bool is_plain_name(std::string_view name) {
  if (name.empty() || name == kCell) return false;
  for (char c : name) {
    if (!plain_char(c)) return false;
  }
  return true;
}

std::optional<std::string> write_csv_header(const CsvHeader& h) {
  if (h.rows == 0 || h.columns.empty() || (h.delimiter != ',' && h.delimiter != '\t')) {
    return std::nullopt;
  }
  std::string out(kCsvOpen);
  out += std::to_string(h.rows);
  out += kRecords;
  for (std::size_t i = 0; i < h.columns.size(); ++i) {
    const CsvColumn& c = h.columns[i];
    if (i > 0) out += ", ";
    out += write_name(c.name);
    switch (c.kind) {
      case CsvColumn::Kind::kCell: break;
      case CsvColumn::Kind::kConstant: out += " = " + json_string(c.prefix); break;
      case CsvColumn::Kind::kAffix:
      case CsvColumn::Kind::kDerived: {
        if (c.kind == CsvColumn::Kind::kDerived && !is_plain_name(c.source)) return std::nullopt;
        std::string_view middle = c.kind == CsvColumn::Kind::kAffix ? kCell : c.source;
        out += " = ";
        if (!c.prefix.empty()) out += json_string(c.prefix) + " + ";
        out += middle;
        if (!c.suffix.empty()) out += " + " + json_string(c.suffix);
        break;
      }
    }
  }
  out += kRows;
  out += h.delimiter == ',' ? kComma : kTabs;
  return out;
}

std::optional<CsvHeader> parse_csv_header(std::string_view s) {
  CsvHeader h;
  std::optional<std::string_view> counted = after_count(s, kCsvOpen, &h.rows);
  if (!counted) return std::nullopt;
  std::size_t i = s.size() - counted->size();
  if (!s.substr(i).starts_with(kRecords)) return std::nullopt;
  i += kRecords.size();
  while (true) {
    CsvColumn c;
    std::optional<std::string> name = read_name(s, &i);
    if (!name) return std::nullopt;
    c.name = std::move(*name);
    if (s.substr(i).starts_with(" = ")) {
      i += 3;
      // [STRING " + "] (cell | NAME) [" + " STRING], or STRING alone.
      std::optional<std::string> first;
      if (i < s.size() && s[i] == '"') {
        first = read_json_string(s, &i);
        if (!first) return std::nullopt;
      }
      if (first && !s.substr(i).starts_with(" + ")) {
        c.kind = CsvColumn::Kind::kConstant;
        c.prefix = std::move(*first);
      } else {
        if (first) {
          i += 3;
          c.prefix = std::move(*first);
        }
        std::size_t at = i;
        while (i < s.size() && plain_char(s[i])) ++i;
        std::string_view middle = s.substr(at, i - at);
        if (middle.empty()) return std::nullopt;
        if (middle == kCell) {
          c.kind = CsvColumn::Kind::kAffix;
        } else {
          c.kind = CsvColumn::Kind::kDerived;
          c.source = std::string(middle);
        }
        if (s.substr(i).starts_with(" + \"")) {
          i += 3;
          std::optional<std::string> last = read_json_string(s, &i);
          if (!last) return std::nullopt;
          c.suffix = std::move(*last);
        }
      }
    }
    h.columns.push_back(std::move(c));
    if (s.substr(i).starts_with(", ")) {
      i += 2;
      continue;
    }
    std::string_view rest = s.substr(i);
    if (!rest.starts_with(kRows)) return std::nullopt;
    rest.remove_prefix(kRows.size());
    if (rest == kComma) h.delimiter = ',';
    else if (rest == kTabs) h.delimiter = '\t';
    else return std::nullopt;
    break;
  }
  for (const CsvColumn& c : h.columns) {
    if (c.kind != CsvColumn::Kind::kDerived) continue;
    std::size_t found = 0;
    for (const CsvColumn& d : h.columns) found += d.name == c.source && d.in_row();
    if (found != 1) return std::nullopt;
  }
  return h;
}

std::optional<std::vector<std::string_view>> split_raw_fields(std::string_view line, char delim) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (true) {
    std::size_t start = i;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) return std::nullopt;
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        ++i;
      }
      if (i < line.size() && line[i] != delim) return std::nullopt;
    } else {
      while (i < line.size() && line[i] != delim) {
        if (line[i] == '"') return std::nullopt;
        ++i;
      }
    }
    out.push_back(line.substr(start, i - start));
    if (i >= line.size()) return out;
    ++i;  // the delimiter
  }
}

std::optional<std::string> decode_csv_row(std::string_view row, const CsvHeader& h) {
  std::optional<std::vector<std::string_view>> cells = split_raw_fields(row, h.delimiter);
  if (!cells) return std::nullopt;
  std::size_t in_row = 0;
  for (const CsvColumn& c : h.columns) in_row += c.in_row();
  if (cells->size() > in_row || in_row == 0) return std::nullopt;
  // The record ends before the column of its first missing cell.
  std::vector<std::string> values;
  std::size_t next = 0, end = h.columns.size();
  for (std::size_t k = 0; k < h.columns.size(); ++k) {
    const CsvColumn& c = h.columns[k];
    if (c.in_row()) {
      if (next == cells->size()) {
        end = k;
        break;
      }
      std::string_view cell = (*cells)[next++];
      values.push_back(c.kind == CsvColumn::Kind::kAffix ? c.prefix + std::string(cell) + c.suffix
                                                         : std::string(cell));
    } else {
      values.push_back(c.kind == CsvColumn::Kind::kConstant ? c.prefix : std::string());
    }
  }
  for (std::size_t k = 0; k < end; ++k) {
    const CsvColumn& c = h.columns[k];
    if (c.kind != CsvColumn::Kind::kDerived) continue;
    std::size_t src = 0;
    while (src < h.columns.size() && !(h.columns[src].name == c.source && h.columns[src].in_row())) ++src;
    if (src >= end) return std::nullopt;
    values[k] = c.prefix + values[src] + c.suffix;
  }
  std::string out;
  for (std::size_t k = 0; k < end; ++k) {
    if (k > 0) out += h.delimiter;
    out += values[k];
  }
  return out;
}

}  // namespace caveman::compress::factor
