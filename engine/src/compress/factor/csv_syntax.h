// The written form of a CSV block (docs/formats.md, "CSV columns"): rows of a CSV/TSV table
// with the columns that follow a rule stated once in the header. This file is the only place
// that writes or reads that syntax; tabular_views.cpp decides when to use it.
//
//   [CSV rows: 19 records, columns: codes = "US", coordinates, TZ = "America/" + cell,
//    comments; a row per line: the cells where "cell" or no "=" stands, as written,
//    separated by tabs]
//   +404251-0740023	New_York	Eastern (most areas)
//
// (the header is one line). `= "v"`: every record holds v there. `= "p" + cell + "s"`: the
// row holds the cell between p and s (either may be absent). `= "p" + NAME + "s"`: the
// column is column NAME's value between p and s. Values are the cells' bytes as written
// (CSV quotes included), as JSON strings. A row with fewer cells is a record that ends
// before its first missing cell. Every value a row leaves out is in its block's header.
#ifndef CAVEMAN_COMPRESS_FACTOR_CSV_SYNTAX_H_
#define CAVEMAN_COMPRESS_FACTOR_CSV_SYNTAX_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::factor {

struct CsvColumn {
  enum class Kind { kCell, kConstant, kAffix, kDerived };
  std::string name;
  Kind kind = Kind::kCell;
  std::string prefix;  // kConstant: the value
  std::string suffix;
  std::string source;  // kDerived: the column it is made from
  bool in_row() const { return kind == Kind::kCell || kind == Kind::kAffix; }
};

struct CsvHeader {
  std::size_t rows = 0;
  char delimiter = ',';
  std::vector<CsvColumn> columns;
};

// nullopt when a part cannot be written so that it reads back the same.
std::optional<std::string> write_csv_header(const CsvHeader& header);
std::optional<CsvHeader> parse_csv_header(std::string_view line);

// The fields of a one-line CSV record as written (quotes included); nullopt when a quoted
// field does not close on the line or a quote stands inside an unquoted field.
std::optional<std::vector<std::string_view>> split_raw_fields(std::string_view line, char delimiter);

// A name a derived column may cite: a plain word ([A-Za-z0-9_#.$/-]+) other than "cell".
bool is_plain_name(std::string_view name);

// The record line a row stands for; nullopt when the row does not fit the header.
std::optional<std::string> decode_csv_row(std::string_view row, const CsvHeader& header);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_CSV_SYNTAX_H_
