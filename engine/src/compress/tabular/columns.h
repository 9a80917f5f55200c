// Tables that command-line tools print with blanks between columns (ps, df, dpkg -l, ls -l)
// or with box-drawing characters (sqlite3 .mode box), and nm's symbol tables, recognised by their
// layout (docs/spec/detect.md#tabular): every row's cells start at the same columns, so at least
// two runs of character positions are blank in every line of the table. A header of words without
// numbers, above a rule line or over a column of numbers, names the columns (a log whose lines are
// aligned by fixed-width timestamps and levels has none); ls -l has no header, but every row opens
// with a file mode (`drwxr-xr-x`). Up to 5 lines before the table (dpkg's legend, ls's `total N`)
// and rule lines of '-', '=' and '+' may stand outside the alignment. Shared by Detect.
#ifndef CAVEMAN_COMPRESS_TABULAR_COLUMNS_H_
#define CAVEMAN_COMPRESS_TABULAR_COLUMNS_H_

#include <string_view>

namespace caveman::compress {

// The text is one such table (≥ 4 rows under its header, ≥ 3 columns) with at most its
// leading lines outside it, a box-drawn table, or lines that are all nm symbol rows
// (`0000000000012345 T name`, blanks for the value of an undefined one); no tab anywhere.
bool is_column_table(std::string_view text);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_TABULAR_COLUMNS_H_
