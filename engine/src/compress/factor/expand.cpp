#include "compress/factor/expand.h"

#include <vector>

#include "compress/factor/aligned_syntax.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/csv_syntax.h"
#include "compress/factor/grep_syntax.h"
#include "compress/factor/json_table.h"
#include "compress/factor/prose_syntax.h"
#include "compress/factor/table_syntax.h"
#include "text/lines.h"

namespace caveman::compress::factor {
namespace {

using Lines = std::vector<std::string_view>;

bool could_be_header(std::string_view line) {
  return line.size() > 10 && line[0] == '[' && line[1] >= '0' && line[1] <= '9';
}

std::optional<BlockHeader> header_at(const Lines& lines, std::size_t i) {
  if (i >= lines.size() || !could_be_header(lines[i])) return std::nullopt;
  return parse_header(lines[i]);
}

void emit_record(const BlockHeader& h, const std::vector<std::string_view>& values,
                 std::vector<std::string>& out) {
  for (const TemplateLine& t : h.lines) out.push_back(fill(t, values));
}

// Expands the block whose header `h` stands at lines[i] into `out`; returns the index of
// the first line after it. The rows of a one-placeholder, one-line block (a shared prefix)
// may hold blocks of their own, one level deep; they count as the rows they stand for.
std::optional<std::size_t> read_block(const Lines& lines, std::size_t i, const BlockHeader& h,
                                      std::vector<std::string>& out, bool nested) {
  if (h.inline_values) {
    for (const std::string& v : *h.inline_values) emit_record(h, {v}, out);
    return i + 1;
  }
  const bool may_nest = !nested && h.slots == 1 && h.lines.size() == 1;
  std::vector<std::string> rows;
  std::size_t j = i + 1;
  while (rows.size() < h.records) {
    if (j >= lines.size()) return std::nullopt;
    std::optional<BlockHeader> inner = may_nest ? header_at(lines, j) : std::nullopt;
    if (inner) {
      std::optional<std::size_t> next = read_block(lines, j, *inner, rows, true);
      if (!next) return std::nullopt;
      j = *next;
    } else {
      rows.emplace_back(lines[j++]);
    }
  }
  if (rows.size() != h.records) return std::nullopt;
  for (const std::string& row : rows) {
    std::optional<std::vector<std::string_view>> values = split_row(row, h.slots);
    if (!values) return std::nullopt;
    emit_record(h, *values, out);
  }
  return j;
}

// The expanded lines. A JSON table's text joins the lines around it (no line break before
// or after it), so it is appended to the line before and the next line continues it.
class Output {
 public:
  void line(std::string s) {
    if (join_ && !lines_.empty()) lines_.back() += s;
    else lines_.push_back(std::move(s));
    join_ = false;
  }
  void joined(const std::string& text) {
    if (lines_.empty()) lines_.emplace_back();
    lines_.back() += text;
    join_ = true;
  }
  std::string str(std::size_t reserve) const {
    std::string joined;
    joined.reserve(reserve);
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      if (k > 0) joined.push_back('\n');
      joined += lines_[k];
    }
    return joined;
  }

 private:
  std::vector<std::string> lines_;
  bool join_ = false;
};

// A JSON table at lines[i]: its text into `out`, and the index after its rows.
std::optional<std::size_t> read_table(const Lines& lines, std::size_t i, const TableHeader& t,
                                      Output& out) {
  if (lines.size() - i - 1 < t.rows) return std::nullopt;
  std::vector<std::string_view> rows(lines.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                     lines.begin() + static_cast<std::ptrdiff_t>(i + 1 + t.rows));
  std::optional<std::string> text = decode_json_table(t, rows);
  if (!text) return std::nullopt;
  out.joined(*text);
  return i + 1 + t.rows;
}

// An aligned table at lines[i]: the header and rule lines as they stand, then its rows
// re-padded. Returns the index after its rows.
std::optional<std::size_t> read_aligned(const Lines& lines, std::size_t i, const AlignedHeader& h,
                                        Output& out) {
  if (lines.size() - i - 1 < h.rows + 2) return std::nullopt;
  std::optional<Rule> rule = parse_rule(lines[i + 2]);
  if (!rule) return std::nullopt;
  out.line(std::string(lines[i + 1]));
  out.line(std::string(lines[i + 2]));
  for (std::size_t r = 0; r < h.rows; ++r) {
    std::optional<std::string> row = decode_aligned_row(lines[i + 3 + r], *rule, h.right);
    if (!row) return std::nullopt;
    out.line(std::move(*row));
  }
  return i + 3 + h.rows;
}

// CSV rows at lines[i]: each row back to its record line.
std::optional<std::size_t> read_csv(const Lines& lines, std::size_t i, const CsvHeader& h,
                                    Output& out) {
  if (lines.size() - i - 1 < h.rows) return std::nullopt;
  for (std::size_t r = 0; r < h.rows; ++r) {
    std::optional<std::string> row = decode_csv_row(lines[i + 1 + r], h);
    if (!row) return std::nullopt;
    out.line(std::move(*row));
  }
  return i + 1 + h.rows;
}

// A grep block at lines[i]: each hit back under its path.
std::optional<std::size_t> read_grep(const Lines& lines, std::size_t i, const GrepHeader& h,
                                     Output& out) {
  std::vector<std::string> expanded;
  std::optional<std::size_t> next = decode_grep_block(lines, i, h, expanded);
  for (std::string& l : expanded) out.line(std::move(l));
  return next;
}

// Wrapped prose at lines[i]: each row filled back into its lines.
std::optional<std::size_t> read_prose(const Lines& lines, std::size_t i, const ProseHeader& h,
                                      Output& out) {
  std::vector<std::string> expanded;
  std::optional<std::size_t> next = decode_prose_block(lines, i, h, expanded);
  for (std::string& l : expanded) out.line(std::move(l));
  return next;
}

}  // namespace

std::optional<std::string> expand_blocks(std::string_view view) {
  Lines lines = text::split_all(view);
  Output out;
  for (std::size_t i = 0; i < lines.size();) {
    if (could_be_table_header(lines[i])) {
      if (std::optional<TableHeader> t = parse_table_header(lines[i])) {
        std::optional<std::size_t> next = read_table(lines, i, *t, out);
        if (!next) return std::nullopt;
        i = *next;
        continue;
      }
    }
    std::optional<std::size_t> next_table;
    if (could_be_aligned_header(lines[i])) {
      if (std::optional<AlignedHeader> a = parse_aligned_header(lines[i])) {
        next_table = read_aligned(lines, i, *a, out);
        if (!next_table) return std::nullopt;
      }
    } else if (could_be_csv_header(lines[i])) {
      if (std::optional<CsvHeader> c = parse_csv_header(lines[i])) {
        next_table = read_csv(lines, i, *c, out);
        if (!next_table) return std::nullopt;
      }
    } else if (could_be_grep_header(lines[i])) {
      if (std::optional<GrepHeader> g = parse_grep_header(lines[i])) {
        next_table = read_grep(lines, i, *g, out);
        if (!next_table) return std::nullopt;
      }
    } else if (could_be_prose_header(lines[i])) {
      if (std::optional<ProseHeader> p = parse_prose_header(lines[i])) {
        next_table = read_prose(lines, i, *p, out);
        if (!next_table) return std::nullopt;
      }
    }
    if (next_table) {
      i = *next_table;
      continue;
    }
    std::optional<BlockHeader> h = header_at(lines, i);
    if (!h) {
      out.line(std::string(lines[i++]));
      continue;
    }
    std::vector<std::string> expanded;
    std::optional<std::size_t> next = read_block(lines, i, *h, expanded, false);
    if (!next) return std::nullopt;
    for (std::string& l : expanded) out.line(std::move(l));
    i = *next;
  }
  return out.str(view.size() * 2);
}

std::optional<std::string> checked_view(std::string view, std::string_view text) {
  std::optional<std::string> back = expand_blocks(view);
  if (!back || *back != text) return std::nullopt;
  return view;
}

}  // namespace caveman::compress::factor
