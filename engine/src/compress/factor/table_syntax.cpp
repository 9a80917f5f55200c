#include "compress/factor/table_syntax.h"

#include <charconv>

#include "compress/factor/header_count.h"

namespace caveman::compress::factor {
namespace {

constexpr std::string_view kTableOpen = "[JSON table of ";
constexpr std::string_view kObjects = " objects at ";
constexpr std::string_view kMembers = " members at ";
constexpr std::string_view kTopLevel = "the top level";
constexpr std::string_view kMinified = " (minified JSON), columns: ";
constexpr std::string_view kPretty = " (JSON indented 2 spaces, level ";
constexpr std::string_view kPrettyEnd = "), columns: ";
constexpr std::string_view kObjectRows =
    "; a row per object: a JSON array of its cells (empty = key absent), or the object itself "
    "when its keys are in another order; joins the lines above and below:]";
constexpr std::string_view kLines = " lines (one minified JSON object per line), columns: ";
constexpr std::string_view kLineRows =
    "; a row per line: a JSON array of its cells (empty = key absent), or the line itself when "
    "its keys are in another order:]";
constexpr std::string_view kMemberRows =
    "; a row per member: a JSON array of its key and its cells (empty = key absent), or "
    "{key: object} when its keys are in another order; joins the lines above and below:]";
constexpr int kMaxSyntaxDepth = 256;

bool is_bare(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || c == '@' || c == '/' || c == ':' || c == '+' || c == '-';
}

// End of the JSON string literal starting at `at` (a '"'), or npos.
std::size_t string_end(std::string_view s, std::size_t at) {
  if (at >= s.size() || s[at] != '"') return std::string_view::npos;
  for (std::size_t i = at + 1; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20) return std::string_view::npos;
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '"') return i + 1;
  }
  return std::string_view::npos;
}

std::size_t value_end(std::string_view s, std::size_t at, int depth) {
  if (at >= s.size() || depth > kMaxSyntaxDepth) return std::string_view::npos;
  char c = s[at];
  if (c == '"') return string_end(s, at);
  if (c == '[' || c == '{') {
    char close = c == '[' ? ']' : '}';
    std::size_t i = at + 1;
    if (i < s.size() && s[i] == close) return i + 1;
    while (true) {
      if (c == '{') {
        i = string_end(s, i);
        if (i >= s.size() || s[i] != ':') return std::string_view::npos;
        ++i;
      }
      i = value_end(s, i, depth + 1);
      if (i >= s.size()) return std::string_view::npos;
      if (s[i] == close) return i + 1;
      if (s[i] != ',') return std::string_view::npos;
      ++i;
    }
  }
  std::size_t i = at;
  while (i < s.size() && (is_bare(s[i]) || s[i] == '.')) ++i;
  std::string_view word = s.substr(at, i - at);
  if (word == "true" || word == "false" || word == "null") return i;
  if (word.empty() || !(word[0] == '-' || (word[0] >= '0' && word[0] <= '9'))) {
    return std::string_view::npos;
  }
  for (char d : word) {
    if (!((d >= '0' && d <= '9') || d == '-' || d == '+' || d == '.' || d == 'e' || d == 'E')) {
      return std::string_view::npos;
    }
  }
  return i;
}

// One key of a path: a bare word or a JSON string literal. Returns the raw literal.
std::optional<std::string> read_key(std::string_view s, std::size_t* at) {
  if (*at < s.size() && s[*at] == '"') {
    std::size_t end = string_end(s, *at);
    if (end == std::string_view::npos) return std::nullopt;
    std::string raw(s.substr(*at, end - *at));
    *at = end;
    return raw;
  }
  std::size_t i = *at;
  while (i < s.size() && is_bare(s[i])) ++i;
  if (i == *at) return std::nullopt;
  std::string raw = "\"" + std::string(s.substr(*at, i - *at)) + "\"";
  *at = i;
  return raw;
}

// The written "at" path: "the top level", or keys and "[index]" parts joined by '.'.
std::size_t at_path_end(std::string_view s, std::size_t at) {
  if (s.substr(at).starts_with(kTopLevel)) return at + kTopLevel.size();
  std::size_t i = at;
  bool first = true;
  while (true) {
    if (i < s.size() && s[i] == '[') {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
      if (j == i + 1 || j >= s.size() || s[j] != ']') return std::string_view::npos;
      i = j + 1;
    } else {
      if (!first) {
        if (i >= s.size() || s[i] != '.') return i;
        ++i;
      }
      if (!read_key(s, &i)) return std::string_view::npos;
    }
    first = false;
    if (i >= s.size() || (s[i] != '.' && s[i] != '[')) return i;
  }
}

}  // namespace

std::size_t TableHeader::row_cells() const {
  std::size_t n = members ? 1 : 0;
  for (const TableColumn& c : columns) n += c.constant ? 0 : 1;
  return n;
}

std::string write_key(std::string_view raw) {
  if (raw.size() < 3) return std::string(raw);
  std::string_view inner = raw.substr(1, raw.size() - 2);
  for (char c : inner) {
    if (!is_bare(c)) return std::string(raw);
  }
  return std::string(inner);
}

std::size_t minified_value_end(std::string_view s, std::size_t at) { return value_end(s, at, 0); }

std::optional<std::string> write_table_header(const TableHeader& h) {
  if (h.rows == 0 || h.columns.empty()) return std::nullopt;
  std::string out(kTableOpen);
  out += std::to_string(h.rows);
  if (h.lines) {
    if (h.members || h.indent_level >= 0 || !h.at.empty()) return std::nullopt;
    out += kLines;
  } else {
    out += h.members ? kMembers : kObjects;
    if (at_path_end(h.at, 0) != h.at.size()) return std::nullopt;
    out += h.at;
    if (h.indent_level < 0) {
      out += kMinified;
    } else {
      out += kPretty;
      out += std::to_string(h.indent_level);
      out += kPrettyEnd;
    }
  }
  for (std::size_t i = 0; i < h.columns.size(); ++i) {
    const TableColumn& c = h.columns[i];
    if (c.path.empty()) return std::nullopt;
    if (i > 0) out += ", ";
    for (std::size_t k = 0; k < c.path.size(); ++k) {
      if (k > 0) out += '.';
      std::string key = write_key(c.path[k]);
      std::size_t at = 0;
      if (!read_key(key, &at) || at != key.size()) return std::nullopt;
      out += key;
    }
    if (c.constant) {
      if (minified_value_end(*c.constant, 0) != c.constant->size()) return std::nullopt;
      out += " = ";
      out += *c.constant;
    }
  }
  out += h.lines ? kLineRows : h.members ? kMemberRows : kObjectRows;
  return out;
}

namespace {

// After " objects at " / " members at ": the container's path and layout into `h`; the
// offset after them, or npos.
std::size_t parse_layout(std::string_view s, std::size_t i, TableHeader& h) {
  std::size_t end = at_path_end(s, i);
  if (end == std::string_view::npos) return end;
  h.at = std::string(s.substr(i, end - i));
  i = end;
  std::string_view rest = s.substr(i);
  if (rest.starts_with(kMinified)) return i + kMinified.size();
  if (!rest.starts_with(kPretty)) return std::string_view::npos;
  i += kPretty.size();
  auto [q, ec] = std::from_chars(s.data() + i, s.data() + s.size(), h.indent_level);
  if (ec != std::errc() || h.indent_level < 0 || h.indent_level > 1000) {
    return std::string_view::npos;
  }
  i = static_cast<std::size_t>(q - s.data());
  if (!s.substr(i).starts_with(kPrettyEnd)) return std::string_view::npos;
  return i + kPrettyEnd.size();
}

}  // namespace

std::optional<TableHeader> parse_table_header(std::string_view s) {
  TableHeader h;
  std::optional<std::string_view> counted = after_count(s, kTableOpen, &h.rows);
  if (!counted) return std::nullopt;
  std::size_t i = s.size() - counted->size();
  std::string_view rest = *counted;
  if (rest.starts_with(kLines)) {
    h.lines = true;
    i += kLines.size();
  } else if (rest.starts_with(kMembers)) {
    h.members = true;
  } else if (!rest.starts_with(kObjects)) {
    return std::nullopt;
  }
  if (!h.lines) i = parse_layout(s, i + kObjects.size(), h);  // both spellings, one length
  if (i == std::string_view::npos) return std::nullopt;
  std::string_view rows_note = h.lines ? kLineRows : h.members ? kMemberRows : kObjectRows;
  while (true) {
    TableColumn c;
    while (true) {
      std::optional<std::string> key = read_key(s, &i);
      if (!key) return std::nullopt;
      c.path.push_back(std::move(*key));
      if (i < s.size() && s[i] == '.') {
        ++i;
        continue;
      }
      break;
    }
    if (s.substr(i).starts_with(" = ")) {
      i += 3;
      std::size_t e = minified_value_end(s, i);
      if (e == std::string_view::npos) return std::nullopt;
      c.constant = std::string(s.substr(i, e - i));
      i = e;
    }
    h.columns.push_back(std::move(c));
    if (s.substr(i).starts_with(", ")) {
      i += 2;
      continue;
    }
    if (s.substr(i) == rows_note) return h;
    return std::nullopt;
  }
}

std::string write_table_row(const std::vector<std::optional<std::string>>& cells) {
  std::string out = "[";
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += ',';
    if (cells[i]) out += *cells[i];
  }
  out += ']';
  return out;
}

std::optional<std::vector<std::optional<std::string_view>>> split_table_row(std::string_view row,
                                                                            std::size_t cells) {
  if (row.size() < 2 || row.front() != '[' || row.back() != ']') return std::nullopt;
  std::vector<std::optional<std::string_view>> out;
  std::size_t i = 1;
  const std::size_t last = row.size() - 1;
  if (cells == 0) {
    if (row.size() != 2) return std::nullopt;
    return out;
  }
  while (true) {
    if (i == last || row[i] == ',') {
      out.emplace_back(std::nullopt);
    } else {
      std::size_t e = minified_value_end(row, i);
      if (e == std::string_view::npos || e > last) return std::nullopt;
      out.emplace_back(row.substr(i, e - i));
      i = e;
    }
    if (out.size() > cells) return std::nullopt;
    if (i == last) break;
    if (row[i] != ',') return std::nullopt;
    ++i;
  }
  if (out.size() != cells) return std::nullopt;
  return out;
}

}  // namespace caveman::compress::factor
