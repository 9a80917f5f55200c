#include "compress/factor/block_syntax.h"

#include <algorithm>
#include <charconv>

#include "caveman/base/text.h"
#include "compress/factor/aligned_syntax.h"
#include "compress/factor/csv_syntax.h"
#include "compress/factor/grep_syntax.h"
#include "compress/factor/prose_syntax.h"
#include "compress/factor/table_syntax.h"

namespace caveman::compress::factor {
namespace {

constexpr std::string_view kBetween = "\" / \"";
constexpr std::string_view kRowsPerLine = "\", values per line:]";
constexpr std::string_view kRowsPerRecord = "\", values per record:]";
constexpr std::string_view kInline = "\" for {1} in: ";
constexpr std::string_view kListSep = ", ";

// "{<digits>}" at `at`: its length, or 0.
std::size_t placeholder_at(std::string_view s, std::size_t at, int* number) {
  if (at >= s.size() || s[at] != '{') return 0;
  std::size_t i = at + 1;
  while (i < s.size() && base::is_ascii_digit(s[i]) && i - at <= 4) ++i;
  if (i == at + 1 || i >= s.size() || s[i] != '}') return 0;
  std::from_chars(s.data() + at + 1, s.data() + i, *number);
  return i + 1 - at;
}

bool literal_is_safe(std::string_view text) {
  for (std::string_view bad : {kBetween, std::string_view("\", values per "), kInline}) {
    if (text.find(bad) != std::string_view::npos) return false;
  }
  int n = 0;
  for (std::size_t p = text.find('{'); p != std::string_view::npos; p = text.find('{', p + 1)) {
    if (placeholder_at(text, p, &n) > 0) return false;
  }
  return text.find('\n') == std::string_view::npos;
}

std::optional<TemplateLine> parse_template(std::string_view s, int* max_slot) {
  TemplateLine line;
  std::string literal;
  for (std::size_t i = 0; i < s.size();) {
    int n = 0;
    if (std::size_t len = placeholder_at(s, i, &n); len > 0) {
      if (n < 1) return std::nullopt;
      if (!literal.empty()) line.push_back({std::move(literal), -1});
      literal.clear();
      line.push_back({"", n - 1});
      *max_slot = std::max(*max_slot, n);
      i += len;
    } else {
      literal.push_back(s[i++]);
    }
  }
  if (!literal.empty()) line.push_back({std::move(literal), -1});
  return line;
}

// "[N lines " or "[N records of P lines ": N, P and the offset of the first template's quote.
bool parse_counts(std::string_view line, std::size_t* records, std::size_t* period,
                  std::size_t* at) {
  if (line.size() < 4 || line[0] != '[') return false;
  const char* end = line.data() + line.size();
  auto [p, ec] = std::from_chars(line.data() + 1, end, *records);
  if (ec != std::errc() || *records < 2) return false;
  std::string_view rest(p, static_cast<std::size_t>(end - p));
  *period = 1;
  if (rest.starts_with(" records of ")) {
    rest.remove_prefix(12);
    auto [q, ec2] = std::from_chars(rest.data(), end, *period);
    if (ec2 != std::errc() || *period < 2 || *period > 64) return false;
    rest = std::string_view(q, static_cast<std::size_t>(end - q));
  }
  if (!rest.starts_with(" lines \"")) return false;
  *at = static_cast<std::size_t>(rest.data() - line.data()) + 7;
  return true;
}

}  // namespace

std::optional<std::string> write_template(const TemplateLine& line) {
  std::string out;
  for (const Piece& p : line) {
    if (p.slot >= 0) {
      out += '{';
      out += std::to_string(p.slot + 1);
      out += '}';
    } else {
      out += p.text;
    }
  }
  // The joined text is checked, not each literal: two literals can meet across a boundary.
  std::string literal_only;
  for (const Piece& p : line) literal_only += p.slot >= 0 ? std::string("\x01") : p.text;
  if (!literal_is_safe(literal_only)) return std::nullopt;
  return out;
}

std::optional<std::string> write_header(const BlockHeader& h) {
  std::string out = "[" + std::to_string(h.records);
  if (h.lines.size() > 1) out += " records of " + std::to_string(h.lines.size());
  out += " lines \"";
  for (std::size_t i = 0; i < h.lines.size(); ++i) {
    std::optional<std::string> t = write_template(h.lines[i]);
    if (!t) return std::nullopt;
    if (i > 0) out += kBetween;
    out += *t;
  }
  if (h.inline_values) {
    if (h.slots != 1 || h.inline_values->size() != h.records) return std::nullopt;
    out += kInline;
    for (std::size_t i = 0; i < h.inline_values->size(); ++i) {
      const std::string& v = (*h.inline_values)[i];
      if (v.empty() || v.find(kListSep) != std::string::npos || v.find('\n') != std::string::npos ||
          v.back() == ',') {
        return std::nullopt;
      }
      if (i > 0) out += kListSep;
      out += v;
    }
    out += ']';
  } else {
    out += h.lines.size() > 1 ? kRowsPerRecord : kRowsPerLine;
  }
  return out;
}

std::optional<BlockHeader> parse_header(std::string_view line) {
  std::size_t records = 0, period = 0, at = 0;
  if (!parse_counts(line, &records, &period, &at)) return std::nullopt;
  std::string_view body = line.substr(at + 1);
  BlockHeader h;
  h.records = records;
  std::string_view templates;
  if (std::size_t p = body.find(kInline); p != std::string_view::npos && body.ends_with(']')) {
    templates = body.substr(0, p);
    std::string_view list = body.substr(p + kInline.size());
    list.remove_suffix(1);
    std::vector<std::string> values;
    while (true) {
      std::size_t q = list.find(kListSep);
      values.emplace_back(list.substr(0, q));
      if (values.back().empty()) return std::nullopt;
      if (q == std::string_view::npos) break;
      list.remove_prefix(q + kListSep.size());
    }
    if (values.size() != records) return std::nullopt;
    h.inline_values = std::move(values);
  } else {
    std::string_view suffix = period > 1 ? kRowsPerRecord : kRowsPerLine;
    if (!body.ends_with(suffix)) return std::nullopt;
    templates = body.substr(0, body.size() - suffix.size());
  }
  for (std::size_t i = 0; i < period; ++i) {
    std::size_t q = i + 1 < period ? templates.find(kBetween) : templates.size();
    if (q == std::string_view::npos) return std::nullopt;
    std::optional<TemplateLine> t = parse_template(templates.substr(0, q), &h.slots);
    if (!t) return std::nullopt;
    h.lines.push_back(std::move(*t));
    templates.remove_prefix(std::min(templates.size(), q + kBetween.size()));
  }
  if (h.inline_values && h.slots != 1) return std::nullopt;
  return h;
}

std::optional<std::vector<std::string_view>> split_row(std::string_view row, int slots) {
  std::vector<std::string_view> values;
  values.reserve(static_cast<std::size_t>(slots));
  for (int i = 0; i + 1 < slots; ++i) {
    std::size_t sp = row.find(' ');
    if (sp == std::string_view::npos) return std::nullopt;
    values.push_back(row.substr(0, sp));
    row.remove_prefix(sp + 1);
  }
  if (slots > 0) values.push_back(row);
  else if (!row.empty()) return std::nullopt;
  return values;
}

std::string fill(const TemplateLine& line, const std::vector<std::string_view>& values) {
  std::string out;
  for (const Piece& p : line) {
    if (p.slot < 0) {
      out += p.text;
    } else if (static_cast<std::size_t>(p.slot) < values.size()) {
      out += values[static_cast<std::size_t>(p.slot)];
    }
  }
  return out;
}

bool contains_block(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    std::string_view line = text.substr(at, nl == std::string_view::npos ? nl : nl - at);
    if (line.size() > 10 && line[0] == '[' && base::is_ascii_digit(line[1]) && parse_header(line))
      return true;
    // Each parse first tests the words its header opens with, which is cheap.
    if (parse_table_header(line) || parse_aligned_header(line) || parse_csv_header(line) ||
        parse_grep_header(line) || (could_be_prose_header(line) && parse_prose_header(line))) {
      return true;
    }
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  return false;
}

}  // namespace caveman::compress::factor
