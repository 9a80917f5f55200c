// The written form of a factored block (docs/formats.md, "line templates"): one header line
// that states the template, then one row of values per record, or the values inline. This
// file is the only place that writes or reads the syntax, so encoder and decoder cannot
// drift apart.
//
//   [12 lines "2025-06-24 14:36:{1} status {2} {3}", values per line:]
//   [3 records of 2 lines "[ RUN      ] Foo.{1}" / "[       OK ] Foo.{1}" for {1} in: A, B, C]
//
// A template line holds literal text and numbered placeholders {1}..{k}; a placeholder may
// stand more than once. A row holds the values of {1}..{k} separated by one space; every
// value but the last is free of spaces, the last runs to the end of the row.
#ifndef CAVEMAN_COMPRESS_FACTOR_BLOCK_SYNTAX_H_
#define CAVEMAN_COMPRESS_FACTOR_BLOCK_SYNTAX_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::factor {

// One piece of a template line: literal text, or placeholder `slot` (0-based; written {slot+1}).
struct Piece {
  std::string text;
  int slot = -1;  // -1: literal
};
using TemplateLine = std::vector<Piece>;

struct BlockHeader {
  std::size_t records = 0;
  std::vector<TemplateLine> lines;  // one per line of a record
  int slots = 0;                    // distinct placeholders
  // Inline form: the values of the single placeholder, listed in the header.
  std::optional<std::vector<std::string>> inline_values;
};

// Writes a template line; nullopt when its literal text could be read back differently
// (it contains "{<digits>}", or a delimiter of the header syntax).
std::optional<std::string> write_template(const TemplateLine& line);

// The header line, or nullopt when it cannot be written unambiguously.
std::optional<std::string> write_header(const BlockHeader& header);

// Parses a header line; nullopt when `line` is not one.
std::optional<BlockHeader> parse_header(std::string_view line);

// Splits a row into `slots` values (the last takes the rest); nullopt when too few.
std::optional<std::vector<std::string_view>> split_row(std::string_view row, int slots);

// Substitutes values into a template line.
std::string fill(const TemplateLine& line, const std::vector<std::string_view>& values);

// Cheap test used by re-entry guards: does `text` hold a line that parses as a header (of a
// line block, a JSON table, an aligned table, CSV rows, grep output or wrapped prose)?
bool contains_block(std::string_view text);

// The factored line views (blocks, grep, prose) leave larger inputs alone: their scans are
// linear, but their tables are not worth building past this size.
constexpr std::size_t kMaxViewInputBytes = std::size_t{16} << 20;

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_BLOCK_SYNTAX_H_
