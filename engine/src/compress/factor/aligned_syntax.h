// The written form of an aligned-table block (docs/formats.md, "Aligned tables"): psql /
// MySQL output with its padding removed. This file is the only place that writes or reads
// that syntax; tabular_views.cpp decides when to use it.
//
//   [aligned table of 349 rows: the header and rule lines as written, then a row per line,
//    its cells unpadded and separated by "|" (pad each to its column's width in the rule);
//    columns aligned left, left, right]
//                     name                  | setting | size
//   ----------------------------------------+---------+------
//   DateStyle|ISO, MDY|8
//
// (the header is one line). Each '-' run of the rule is a column's width, its one-space
// margins included; a left-aligned cell is its text after the left margin, padded on the
// right, a right-aligned one is padded on the left. A rule that starts or ends with '+' puts
// '|' before or after every row (MySQL); one that does not end with '+' (psql) ends each row
// right after its last cell's text.
#ifndef CAVEMAN_COMPRESS_FACTOR_ALIGNED_SYNTAX_H_
#define CAVEMAN_COMPRESS_FACTOR_ALIGNED_SYNTAX_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compress/tabular/aligned_parse.h"

namespace caveman::compress::factor {

struct AlignedHeader {
  std::size_t rows = 0;
  std::vector<bool> right;  // per column: right-aligned
};

std::string write_aligned_header(const AlignedHeader& header);
std::optional<AlignedHeader> parse_aligned_header(std::string_view line);

// The padded cell of a column `width` wide holding `text`; `open_end`: the row ends right
// after the text (the last cell without a right border). nullopt when the text is too wide.
std::optional<std::string> pad_aligned_cell(std::string_view text, std::size_t width, bool right,
                                            bool open_end);

// A view row → the table row it stands for under `rule`; nullopt when it does not fit.
std::optional<std::string> decode_aligned_row(std::string_view row, const Rule& rule,
                                              const std::vector<bool>& right);

// The view row of a table row whose cells are `cells` (split_aligned_row); nullopt when a
// cell's text holds '|' or has padding decoding could not restore.
std::optional<std::string> encode_aligned_row(const std::vector<std::string_view>& cells,
                                              const Rule& rule, const std::vector<bool>& right);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_ALIGNED_SYNTAX_H_
