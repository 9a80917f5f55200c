// The strict table parser shared by Detect, the tabular compressor and query recovery
// (ENGINE.md §4.8): Markdown pipe tables, and CSV/TSV read with Go encoding/csv rules.
#ifndef CAVEMAN_COMPRESS_TABLE_PARSE_H_
#define CAVEMAN_COMPRESS_TABLE_PARSE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress {

struct Table {
  enum class Format { kCsv, kTsv, kMarkdown };
  Format format = Format::kCsv;
  char delimiter = ',';
  std::vector<std::vector<std::string>> rows;  // header first (Markdown: + separator row)
  // Byte range [begin, end) of each row's record in the input, line ending excluded.
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  // Leading '#' comment lines before a TSV/CSV header, kept verbatim (with their newlines).
  std::string prelude;
  bool crlf = false;  // CRLF is the majority line ending
  bool trailing_newline = false;
  std::size_t header_rows() const { return format == Format::kMarkdown ? 2 : 1; }
};

// nullopt unless the input is a well-formed table: UTF-8, ≥ 2 records of 2–128 equal-width
// fields (Markdown: ≥ 3 lines with a ---- separator row).
std::optional<Table> parse_table(std::string_view input);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_TABLE_PARSE_H_
