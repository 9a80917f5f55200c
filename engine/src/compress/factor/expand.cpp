#include "compress/factor/expand.h"

#include <vector>

#include "compress/factor/block_syntax.h"
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

}  // namespace

std::optional<std::string> expand_blocks(std::string_view view) {
  Lines lines = text::split_all(view);
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size();) {
    std::optional<BlockHeader> h = header_at(lines, i);
    if (!h) {
      out.emplace_back(lines[i++]);
      continue;
    }
    std::optional<std::size_t> next = read_block(lines, i, *h, out, false);
    if (!next) return std::nullopt;
    i = *next;
  }
  std::string joined;
  joined.reserve(view.size() * 2);
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (k > 0) joined.push_back('\n');
    joined += out[k];
  }
  return joined;
}

}  // namespace caveman::compress::factor
