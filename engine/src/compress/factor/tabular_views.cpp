#include "compress/factor/tabular_views.h"

#include <algorithm>
#include <memory>

#include "compress/compressors.h"
#include "compress/factor/aligned_syntax.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/csv_syntax.h"
#include "compress/factor/decorator.h"
#include "compress/factor/expand.h"
#include "compress/tabular/aligned_parse.h"
#include "compress/tabular/table_parse.h"
#include "text/lines.h"

namespace caveman::compress {
namespace factor {
namespace {

using Lines = std::vector<std::string_view>;

// A column changes value at most once per this many rows to split the table into blocks.
constexpr std::size_t kRowsPerGroupChange = 8;
// A block covers at least this many records; shorter runs are merged with their neighbours.
constexpr std::size_t kMinBlockRows = 4;
// A prefix/suffix is stated when it takes at least this many bytes out of the block's rows.
constexpr std::size_t kMinAffixSaving = 24;

bool is_separator(char c) {
  return c == '/' || c == ':' || c == '=' || c == ',' || c == ';' || c == '@' || c == '-' ||
         c == ' ' || c == '\t';
}

// ---- CSV columns ----

struct Record {
  std::size_t line;
  std::vector<std::string_view> fields;  // as written
};

// The rule for column `c` of `block`, or kCell. `names` are the header's names.
CsvColumn column_rule(const std::vector<const Record*>& block, std::size_t c,
                      const std::vector<std::string>& names, std::size_t width) {
  CsvColumn col;
  col.name = names[c];
  const std::size_t n = block.size();
  auto raw = [&](std::size_t r, std::size_t k) { return block[r]->fields[k]; };
  // Constant.
  bool constant = true;
  for (std::size_t r = 1; r < n && constant; ++r) constant = raw(r, c) == raw(0, c);
  if (constant) {
    col.kind = CsvColumn::Kind::kConstant;
    col.prefix = std::string(raw(0, c));
    return col;
  }
  // Made from another column: its value with a fixed prefix and suffix.
  for (std::size_t d = 0; d < width; ++d) {
    if (d == c || !is_plain_name(names[d]) ||
        std::count(names.begin(), names.end(), names[d]) != 1) {
      continue;
    }
    std::string_view src = raw(0, d), dst = raw(0, c);
    std::size_t at = src.empty() ? std::string_view::npos : dst.find(src);
    if (at == std::string_view::npos) continue;
    std::string_view pre = dst.substr(0, at), suf = dst.substr(at + src.size());
    bool fits = true;
    for (std::size_t r = 1; r < n && fits; ++r) {
      std::string_view s = raw(r, d), v = raw(r, c);
      fits = !s.empty() && v.size() == pre.size() + s.size() + suf.size() && v.starts_with(pre) &&
             v.ends_with(suf) && v.substr(pre.size(), s.size()) == s;
    }
    if (!fits) continue;
    col.kind = CsvColumn::Kind::kDerived;
    col.source = names[d];
    col.prefix = std::string(pre);
    col.suffix = std::string(suf);
    return col;
  }
  // A shared prefix (ending with a separator) and suffix (starting with one).
  std::string_view first = raw(0, 0 + c);
  std::size_t pre = first.size(), suf = first.size();
  for (std::size_t r = 1; r < n; ++r) {
    std::string_view v = raw(r, c);
    std::size_t k = 0;
    while (k < pre && k < v.size() && v[k] == first[k]) ++k;
    pre = k;
    k = 0;
    while (k < suf && k < v.size() && v[v.size() - 1 - k] == first[first.size() - 1 - k]) ++k;
    suf = k;
  }
  while (pre > 0 && !is_separator(first[pre - 1])) --pre;
  while (suf > 0 && !is_separator(first[first.size() - suf])) --suf;
  std::size_t shortest = first.size();
  for (std::size_t r = 1; r < n; ++r) shortest = std::min(shortest, raw(r, c).size());
  if (pre + suf > shortest) suf = 0;
  if ((pre + suf) * n >= kMinAffixSaving && pre + suf > 0) {
    col.kind = CsvColumn::Kind::kAffix;
    col.prefix = std::string(first.substr(0, pre));
    col.suffix = std::string(first.substr(first.size() - suf));
  }
  return col;
}

// The block's header, or nullopt when no column has a rule.
std::optional<std::string> block_header(const std::vector<const Record*>& block,
                                        const std::vector<std::string>& names, char delimiter) {
  std::size_t width = names.size();
  for (const Record* r : block) width = std::min(width, r->fields.size());
  CsvHeader h;
  h.rows = block.size();
  h.delimiter = delimiter;
  bool any = false;
  for (std::size_t c = 0; c < names.size(); ++c) {
    CsvColumn col;
    col.name = names[c];
    if (c < width) col = column_rule(block, c, names, width);
    any = any || col.kind != CsvColumn::Kind::kCell;
    h.columns.push_back(std::move(col));
  }
  // A derived column's source holds its cell in the row; one column at least does.
  for (CsvColumn& col : h.columns) {
    if (col.kind != CsvColumn::Kind::kDerived) continue;
    auto src = std::find_if(h.columns.begin(), h.columns.end(),
                            [&](const CsvColumn& d) { return d.name == col.source; });
    if (src == h.columns.end() || !src->in_row()) col.kind = CsvColumn::Kind::kCell;
  }
  if (std::none_of(h.columns.begin(), h.columns.end(), [](const CsvColumn& c) { return c.in_row(); })) {
    h.columns.back().kind = CsvColumn::Kind::kCell;
  }
  if (!any) return std::nullopt;
  return write_csv_header(h);
}

std::optional<std::string> block_row(const Record& r, const CsvHeader& h, char delimiter) {
  std::string out;
  bool first = true;
  for (std::size_t c = 0; c < h.columns.size() && c < r.fields.size(); ++c) {
    const CsvColumn& col = h.columns[c];
    if (!col.in_row()) continue;
    std::string_view f = r.fields[c];
    if (col.kind == CsvColumn::Kind::kAffix) {
      f = f.substr(col.prefix.size(), f.size() - col.prefix.size() - col.suffix.size());
    }
    if (!first) out += delimiter;
    out += f;
    first = false;
  }
  return out;
}

}  // namespace

std::optional<std::string> csv_columns_view(std::string_view text) {
  if (text.find('\r') != std::string_view::npos || contains_block(text)) return std::nullopt;
  std::optional<Table> t = parse_table(text);
  if (!t || t->format == Table::Format::kMarkdown || t->rows.size() < kMinBlockRows + 1) {
    return std::nullopt;
  }
  Lines lines = text::split_all(text, '\n');
  // Line starts, to map a record's span to its line.
  std::vector<std::size_t> starts;
  for (std::string_view l : lines) starts.push_back(static_cast<std::size_t>(l.data() - text.data()));
  const std::vector<std::string>& names = t->rows[0];
  std::vector<Record> records;
  for (std::size_t r = 1; r < t->rows.size(); ++r) {
    auto [begin, end] = t->spans[r];
    auto it = std::lower_bound(starts.begin(), starts.end(), begin);
    if (it == starts.end() || *it != begin) return std::nullopt;
    std::size_t line = static_cast<std::size_t>(it - starts.begin());
    if (end - begin != lines[line].size()) return std::nullopt;  // a record over several lines
    std::optional<std::vector<std::string_view>> f = split_raw_fields(lines[line], t->delimiter);
    if (!f || f->size() != t->rows[r].size() || f->size() > names.size()) return std::nullopt;
    records.push_back({line, std::move(*f)});
  }
  // Columns that change value seldom split the table into blocks (a "same as above" is then
  // a value stated in the block's header).
  std::vector<bool> grouping(names.size(), false);
  for (std::size_t c = 0; c < names.size(); ++c) {
    std::size_t changes = 0;
    bool present = true;
    for (std::size_t r = 0; r < records.size() && present; ++r) {
      present = c < records[r].fields.size();
      if (present && r > 0 && records[r].fields[c] != records[r - 1].fields[c]) ++changes;
    }
    grouping[c] = present && changes > 0 && changes * kRowsPerGroupChange <= records.size();
  }
  auto same_group = [&](const Record& a, const Record& b) {
    if (b.line != a.line + 1) return false;
    for (std::size_t c = 0; c < names.size(); ++c) {
      if (grouping[c] && a.fields[c] != b.fields[c]) return false;
    }
    return true;
  };
  // Runs of one group; runs shorter than kMinBlockRows join the short runs around them.
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t r = 0; r < records.size();) {
    std::size_t j = r + 1;
    while (j < records.size() && same_group(records[j - 1], records[j])) ++j;
    runs.emplace_back(r, j);
    r = j;
  }
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
  bool last_short = false;
  for (auto [b, e] : runs) {
    bool short_run = e - b < kMinBlockRows;
    if (short_run && last_short && blocks.back().second == b &&
        records[b].line == records[b - 1].line + 1) {
      blocks.back().second = e;
      continue;
    }
    blocks.emplace_back(b, e);
    last_short = short_run;
  }
  std::vector<std::string> out;
  std::size_t next_line = 0;
  bool any = false;
  for (auto [b, e] : blocks) {
    std::vector<const Record*> block;
    for (std::size_t r = b; r < e; ++r) block.push_back(&records[r]);
    std::optional<std::string> header =
        block.size() >= 2 ? block_header(block, names, t->delimiter) : std::nullopt;
    if (!header) continue;
    std::optional<CsvHeader> h = parse_csv_header(*header);
    if (!h) continue;
    std::vector<std::string> rows;
    std::size_t row_bytes = 0, line_bytes = 0;
    for (const Record* r : block) {
      std::optional<std::string> row = block_row(*r, *h, t->delimiter);
      std::optional<std::string> back = row ? decode_csv_row(*row, *h) : std::nullopt;
      if (!back || *back != lines[r->line]) break;
      row_bytes += row->size() + 1;
      line_bytes += lines[r->line].size() + 1;
      rows.push_back(std::move(*row));
    }
    if (rows.size() != block.size() || row_bytes + header->size() >= line_bytes) continue;
    for (; next_line < block.front()->line; ++next_line) out.emplace_back(lines[next_line]);
    out.push_back(std::move(*header));
    for (std::string& r : rows) out.push_back(std::move(r));
    next_line = block.back()->line + 1;
    any = true;
  }
  if (!any) return std::nullopt;
  for (; next_line < lines.size(); ++next_line) out.emplace_back(lines[next_line]);
  std::string view = text::join_lines(out, false);
  if (view.size() >= text.size()) return std::nullopt;
  return checked_view(std::move(view), text);
}

// ---- Aligned tables ----

std::optional<std::string> aligned_table_view(std::string_view text) {
  if (contains_block(text)) return std::nullopt;
  std::optional<AlignedTable> t = find_aligned_table(text);
  if (!t || t->rows < 2) return std::nullopt;
  Lines lines = text::split_all(text, '\n');
  std::optional<Rule> rule = parse_rule(lines[t->rule_line]);
  if (!rule) return std::nullopt;
  std::vector<std::vector<std::string_view>> cells;
  for (std::size_t r = 0; r < t->rows; ++r) {
    std::optional<std::vector<std::string_view>> c = split_aligned_row(lines[t->first_row + r], *rule);
    if (!c) return std::nullopt;
    cells.push_back(std::move(*c));
  }
  // Each column's alignment: left unless only right restores every cell.
  const std::size_t width = rule->widths.size();
  std::vector<bool> right(width, false);
  for (std::size_t c = 0; c < width; ++c) {
    const bool open_end = c + 1 == width && !rule->right_border;
    auto restores = [&](bool r) {
      for (const std::vector<std::string_view>& row : cells) {
        std::string_view cell = row[c];
        // psql marks a cell continued on the next line with '+' in its right margin.
        if (cell.size() > 1 && cell.back() == '+' && cell[cell.size() - 2] == ' ') return false;
        while (!cell.empty() && cell.front() == ' ') cell.remove_prefix(1);
        while (!cell.empty() && cell.back() == ' ') cell.remove_suffix(1);
        std::optional<std::string> back = pad_aligned_cell(cell, rule->widths[c], r, open_end);
        if (!back || *back != row[c]) return false;
      }
      return true;
    };
    if (restores(false)) continue;
    if (!restores(true)) return std::nullopt;
    right[c] = true;
  }
  std::vector<std::string> out(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(t->header_line));
  out.push_back(write_aligned_header({t->rows, right}));
  out.emplace_back(lines[t->header_line]);
  out.emplace_back(lines[t->rule_line]);
  for (const std::vector<std::string_view>& row : cells) {
    std::optional<std::string> v = encode_aligned_row(row, *rule, right);
    if (!v) return std::nullopt;
    out.push_back(std::move(*v));
  }
  for (std::size_t i = t->first_row + t->rows; i < lines.size(); ++i) out.emplace_back(lines[i]);
  std::string view = text::join_lines(out, false);
  if (view.size() >= text.size()) return std::nullopt;
  return checked_view(std::move(view), text);
}

}  // namespace factor
}  // namespace caveman::compress

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> choose_tabular_view(const Compressor& inner,
                                                    const tokens::Counter& counter,
                                                    std::string_view input,
                                                    const Request& request) {
  std::optional<CompressorOutput> out = inner.compress_with(input, request);
  std::optional<std::string> view = factor::aligned_table_view(input);
  std::string_view method = "tabular+aligned";
  if (!view) {
    view = factor::csv_columns_view(input);
    method = "tabular+columns";
  }
  if (!view) return out;
  const std::size_t n = counter.count(*view);
  if (n >= counter.count(input)) return out;
  if (out && out->lossless_to_model && n >= counter.count(out->bytes)) return out;
  if (out && static_cast<double>(n) >
                 factor::kLosslessSlack * static_cast<double>(counter.count(out->bytes))) {
    return out;
  }
  return factor::lossless_view(std::move(*view), std::string(method));
}

}  // namespace

std::unique_ptr<Compressor> make_tabular_views(std::unique_ptr<Compressor> inner,
                                               const tokens::Counter& counter) {
  return factor::make_view_layer(std::move(inner), counter, choose_tabular_view);
}

}  // namespace caveman::compress
