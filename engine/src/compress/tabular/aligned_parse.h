// Aligned text tables as psql, MySQL and SQLite (.mode table) print them: a header line, a
// rule line of '-' runs joined by '+' that gives every column's width, and rows whose cells
// are padded to those widths and separated by '|'. MySQL adds '+----+' borders above and below
// and '|' at both ends of each row; psql leaves the last cell of a data row unpadded. Shared
// by Detect and the aligned-table view (factor/aligned_syntax.h).
#ifndef CAVEMAN_COMPRESS_TABULAR_ALIGNED_PARSE_H_
#define CAVEMAN_COMPRESS_TABULAR_ALIGNED_PARSE_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace caveman::compress {

struct AlignedTable {
  std::size_t header_line = 0;  // index (into split_all('\n')) of the header line
  std::size_t rule_line = 0;    // header_line + 1
  std::size_t first_row = 0;    // rule_line + 1
  std::size_t rows = 0;         // data rows, consecutive lines from first_row
  std::size_t table_lines = 0;  // lines of the table, borders and "(N rows)" footer included
  std::size_t nonblank_lines = 0;
};

// The rule's column widths (each '-' run, margins included) and its borders; nullopt when
// `line` is not a rule of ≥ 2 columns.
struct Rule {
  std::vector<std::size_t> widths;
  bool left_border = false;   // the rule starts with '+'
  bool right_border = false;  // the rule ends with '+'
};
std::optional<Rule> parse_rule(std::string_view line);

// Cells of `row` under `rule` (borders removed), when the row has the rule's shape: as many
// '|'-separated cells, each as wide as its column in code points (the last may be shorter
// without a right border). nullopt otherwise.
std::optional<std::vector<std::string_view>> split_aligned_row(std::string_view row, const Rule& rule);

// `row` (borders removed) split at '|' into exactly `n` cells, unchecked for width; nullopt
// for any other number of cells.
std::optional<std::vector<std::string_view>> split_at_bars(std::string_view row, std::size_t n);

// The first aligned table in `text` with ≥ 1 data row; nullopt when there is none.
std::optional<AlignedTable> find_aligned_table(std::string_view text);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_TABULAR_ALIGNED_PARSE_H_
