#include "compress/factor/expand.h"

#include <vector>

#include "compress/factor/block_syntax.h"
#include "compress/factor/json_table.h"
#include "compress/factor/table_syntax.h"
#include "text/lines.h"

namespace caveman::compress::factor {
namespace {

bool could_be_header(std::string_view line) {
  return line.size() > 10 && line[0] == '[' && line[1] >= '0' && line[1] <= '9';
}

// Appends the lines of one record; `first` tracks whether a separator is due.
void emit_record(const BlockHeader& h, const std::vector<std::string_view>& values,
                 std::string& out, bool& first) {
  for (const TemplateLine& t : h.lines) {
    if (!first) out.push_back('\n');
    first = false;
    out += fill(t, values);
  }
}

}  // namespace

std::optional<std::string> expand_blocks(std::string_view view) {
  std::vector<std::string_view> lines = text::split_all(view);
  std::string out;
  out.reserve(view.size() * 2);
  bool first = true;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (could_be_table_header(lines[i])) {
      if (std::optional<TableHeader> t = parse_table_header(lines[i])) {
        if (lines.size() - i - 1 < t->rows) return std::nullopt;
        std::vector<std::string_view> rows(lines.begin() + static_cast<std::ptrdiff_t>(i + 1),
                                           lines.begin() + static_cast<std::ptrdiff_t>(i + 1 + t->rows));
        std::optional<std::string> text = decode_json_table(*t, rows);
        if (!text) return std::nullopt;
        // A table joins the lines around it: no line break before or after its text.
        out += *text;
        first = true;
        i += t->rows;
        continue;
      }
    }
    std::optional<BlockHeader> h;
    if (could_be_header(lines[i])) h = parse_header(lines[i]);
    if (!h) {
      if (!first) out.push_back('\n');
      first = false;
      out += lines[i];
      continue;
    }
    if (h->inline_values) {
      for (const std::string& v : *h->inline_values) emit_record(*h, {v}, out, first);
      continue;
    }
    if (lines.size() - i - 1 < h->records) return std::nullopt;
    for (std::size_t r = 0; r < h->records; ++r) {
      std::optional<std::vector<std::string_view>> values = split_row(lines[++i], h->slots);
      if (!values) return std::nullopt;
      emit_record(*h, *values, out, first);
    }
  }
  return out;
}

}  // namespace caveman::compress::factor
