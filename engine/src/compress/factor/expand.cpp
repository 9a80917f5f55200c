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
    if (join_ && !lines_.empty())
      lines_.back() += s;
    else
      lines_.push_back(std::move(s));
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
  if (t.lines) {  // whole lines, not a span joined to the lines around it
    for (std::string_view l : text::split_all(*text)) out.line(std::string(l));
  } else {
    out.joined(*text);
  }
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

// A block at lines[i] that its own syntax decodes into lines (a grep block: each hit back
// under its path; wrapped prose: each row filled back into its lines).
template <typename Header, std::optional<std::size_t> (*decode)(
                               const Lines&, std::size_t, const Header&, std::vector<std::string>&)>
std::optional<std::size_t> read_decoded(const Lines& lines, std::size_t i, const Header& h,
                                        Output& out) {
  std::vector<std::string> expanded;
  std::optional<std::size_t> next = decode(lines, i, h, expanded);
  for (std::string& l : expanded) out.line(std::move(l));
  return next;
}

// What reading a view at a line found: whether a header of the kind stands there, and then
// the index after its block, nullopt when the block does not decode.
struct ViewRead {
  bool header = false;
  std::optional<std::size_t> next;
};

template <typename Header, std::optional<Header> (*parse)(std::string_view),
          std::optional<std::size_t> (*read)(const Lines&, std::size_t, const Header&, Output&)>
ViewRead read_view(const Lines& lines, std::size_t i, Output& out) {
  std::optional<Header> h = parse(lines[i]);
  if (!h) return {};
  return {true, read(lines, i, *h, out)};
}

// The views other than line templates. Each parse first tests the words its header opens
// with, which is cheap, and no line parses as two kinds.
using ReadView = ViewRead (*)(const Lines& lines, std::size_t i, Output& out);
constexpr ReadView kViewReaders[] = {
    read_view<TableHeader, parse_table_header, read_table>,
    read_view<AlignedHeader, parse_aligned_header, read_aligned>,
    read_view<CsvHeader, parse_csv_header, read_csv>,
    read_view<GrepHeader, parse_grep_header, read_decoded<GrepHeader, decode_grep_block>>,
    read_view<ProseHeader, parse_prose_header, read_decoded<ProseHeader, decode_prose_block>>,
};

// The view whose header stands at lines[i], read into `out`.
ViewRead read_any_view(const Lines& lines, std::size_t i, Output& out) {
  for (ReadView read : kViewReaders) {
    if (ViewRead r = read(lines, i, out); r.header) return r;
  }
  return {};
}

}  // namespace

std::optional<std::string> expand_blocks(std::string_view view) {
  Lines lines = text::split_all(view);
  Output out;
  for (std::size_t i = 0; i < lines.size();) {
    if (ViewRead found = read_any_view(lines, i, out); found.header) {
      if (!found.next) return std::nullopt;
      i = *found.next;
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
