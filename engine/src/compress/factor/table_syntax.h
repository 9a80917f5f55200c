// The written form of a JSON table block (docs/formats.md, "JSON tables"): one header line
// that names the columns, then one row per object. This file is the only place that writes
// or reads that syntax; json_table.cpp builds and decodes the tables.
//
//   [JSON table of 3 objects at nodes (minified JSON), columns: nodeId, role.type =
//    "internalRole", role.value; a row per object: a JSON array of its cells, empty = key
//    absent; joins the lines above and below:]
//   ["2","RootWebArea"]
//   {"nodeId":"3","role":{"value":"none","type":"internalRole"}}
//
// (one line). A JSON-lines text (one minified object per line: NDJSON, structured logs) is
// tabled as `[JSON table of 45 lines (one minified JSON object per line), columns: …; a row
// per line: …:]`; its rows stand for whole lines.
//
// A column is a dotted path of keys (a key that is not a plain word is written as
// its JSON string); `path = VALUE` is a column every row holds with that value, so rows leave
// it out. The block's text is spliced between the end of the line above and the start of the
// line below: neither newline is part of the document.
#ifndef CAVEMAN_COMPRESS_FACTOR_TABLE_SYNTAX_H_
#define CAVEMAN_COMPRESS_FACTOR_TABLE_SYNTAX_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::factor {

struct TableColumn {
  std::vector<std::string> path;        // raw JSON string literals of the keys, quotes included
  std::optional<std::string> constant;  // minified JSON value every row holds
};

struct TableHeader {
  bool members = false;  // rows are the members of an object (first cell: the key)
  bool lines = false;    // rows are the lines of a JSON-lines text (minified, not members)
  std::size_t rows = 0;
  std::string at;         // where the container sits, written for the reader ("nodes")
  int indent_level = -1;  // -1: minified; else 2-space pretty JSON at this nesting level
  std::vector<TableColumn> columns;

  std::size_t row_cells() const;  // cells per row: the non-constant columns (+ the key)
};

// The header line; nullopt when a part cannot be written unambiguously.
std::optional<std::string> write_table_header(const TableHeader& header);

// Parses a header line; nullopt when `line` is not one.
std::optional<TableHeader> parse_table_header(std::string_view line);

// A row: "[" cells joined by "," "]"; an absent cell is written as nothing. A row may instead
// be a minified JSON object: the row's object as written (members: {key: object}), for an
// object whose keys do not follow the column order.
std::string write_table_row(const std::vector<std::optional<std::string>>& cells);

// Splits a row into exactly `cells` cells; nullopt when it is not such a row.
std::optional<std::vector<std::optional<std::string_view>>> split_table_row(std::string_view row,
                                                                            std::size_t cells);

// A key written in a column path: the bare word when the raw literal is a plain word
// ("[A-Za-z0-9_$@/:+-]+" with no escapes), else the literal itself.
std::string write_key(std::string_view raw_literal);

// End offset of the minified JSON value starting at `at` (no whitespace outside strings,
// nesting at most 256 deep), or npos.
std::size_t minified_value_end(std::string_view s, std::size_t at);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_TABLE_SYNTAX_H_
