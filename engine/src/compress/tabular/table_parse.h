// The strict table parser shared by Detect, the tabular compressor and query recovery
// (docs/spec/compressors.md#tabular): Markdown pipe tables, and CSV/TSV read with Go encoding/csv
// rules. Beyond the original, a file that opens with '#' comment lines (tzdata *.tab, VCF/BED-like
// exports) is read the way Go's reader reads it with Comment = '#' and FieldsPerRecord = -1:
// later '#' lines are comments too, rows may omit trailing fields, and a last leading comment
// line that splits into exactly the table's width ("#codes<TAB>coordinates<TAB>TZ") names
// the columns.
#ifndef CAVEMAN_COMPRESS_TABULAR_TABLE_PARSE_H_
#define CAVEMAN_COMPRESS_TABULAR_TABLE_PARSE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress {

struct Table {
  enum class Format { kCsv, kTsv, kMarkdown };
  // A '#' comment line after the prelude; it stands before data row `before_row` (an index
  // into rows; rows.size() when it trails the last row). [begin, end) excludes the newline.
  struct Comment {
    std::size_t before_row;
    std::size_t begin;
    std::size_t end;
  };
  Format format = Format::kCsv;
  char delimiter = ',';
  std::vector<std::vector<std::string>> rows;  // header first (Markdown: + separator row)
  // Byte range [begin, end) of each row's record in the input, line ending excluded.
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  // Leading '#' comment lines before a TSV/CSV header, kept verbatim (with their newlines).
  std::string prelude;
  std::vector<Comment> comments;  // only when the prelude is non-empty
  // rows[0] was read from the prelude's last line (its span lies inside the prelude).
  bool header_in_prelude = false;
  std::size_t width = 0;  // fields of the header; ragged rows may have fewer
  bool crlf = false;      // CRLF is the majority line ending
  bool trailing_newline = false;
  std::size_t header_rows() const { return format == Format::kMarkdown ? 2 : 1; }
};

// nullopt unless the input is a well-formed table: UTF-8, ≥ 2 records of 2–128 equal-width
// fields (Markdown: ≥ 3 lines with a ---- separator row). With a '#' prelude, rows may be
// ragged (2..width fields) but at least half of them must have the full width.
std::optional<Table> parse_table(std::string_view input);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_TABULAR_TABLE_PARSE_H_
