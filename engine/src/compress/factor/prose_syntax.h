// The written form of unwrapped prose (docs/formats.md, "Wrapped prose"): hard-wrapped
// paragraphs written one per line, under a header that states the width they were filled
// to. This file is the only place that writes or reads that syntax, and the only fill rule;
// prose_view.cpp decides when to use it.
//
//   [40 lines of text wrapped at 78 columns, a paragraph per line: break a longer line at
//    its last space within 78 columns, again for the rest; each piece keeps its indentation]
//          List commits that are reachable by following the parent links from the given …
//
// (the header is one line). A row no longer than the width is a line as written; a longer
// row is filled greedily back into the lines it stands for. Columns are code points.
#ifndef CAVEMAN_COMPRESS_FACTOR_PROSE_SYNTAX_H_
#define CAVEMAN_COMPRESS_FACTOR_PROSE_SYNTAX_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::factor {

struct ProseHeader {
  std::size_t lines = 0;  // lines the block stands for
  std::size_t width = 0;  // columns a line is filled to
};

std::string write_prose_header(const ProseHeader& header);
std::optional<ProseHeader> parse_prose_header(std::string_view line);
bool could_be_prose_header(std::string_view line);

// Columns of a line: its code points.
std::size_t columns(std::string_view line);

// `row` filled greedily to `width` columns at its indentation (leading spaces): each piece
// ends at the last space that keeps it within the width; a word too long for the width
// stays whole. A row within the width comes back as it is.
std::vector<std::string> refill(std::string_view row, std::size_t width);

// The lines of the block whose header stands at lines[at], appended to `out`; returns the
// index after its rows, or nullopt when the rows do not make exactly header.lines lines.
std::optional<std::size_t> decode_prose_block(const std::vector<std::string_view>& lines,
                                              std::size_t at, const ProseHeader& header,
                                              std::vector<std::string>& out);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_PROSE_SYNTAX_H_
