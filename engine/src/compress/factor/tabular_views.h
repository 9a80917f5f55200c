// Lossless views of tables (docs/formats.md): an aligned psql/MySQL table with its padding
// removed (aligned_syntax.h), and CSV/TSV rows with the columns that follow a rule stated
// once per block (csv_syntax.h). Each view is decoded and compared with its input before it
// is returned; deterministic (document order, fixed thresholds).
#ifndef CAVEMAN_COMPRESS_FACTOR_TABULAR_VIEWS_H_
#define CAVEMAN_COMPRESS_FACTOR_TABULAR_VIEWS_H_

#include <optional>
#include <string>
#include <string_view>

namespace caveman::compress::factor {

// `text` with its aligned table unpadded; nullopt when it holds none, a row's cells cannot
// be restored exactly (multi-line cells, '|' in a cell, wide characters) or it is no shorter.
std::optional<std::string> aligned_table_view(std::string_view text);

// `text` (a CSV/TSV table) with runs of one-line records written as CSV blocks where a column
// is constant, shares a prefix/suffix cut at a separator, or is made from another column;
// nullopt when no block pays or the view does not expand to `text`.
std::optional<std::string> csv_columns_view(std::string_view text);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_TABULAR_VIEWS_H_
