// JSON table views (docs/formats.md, "JSON tables"), lossless: an array of objects, or an
// object whose members are all objects, written as one table block — a column per key path
// (nested objects every row holds become dotted columns; other nested values are JSON
// cells), constant columns stated once in the header, an empty cell for an absent key. The
// rest of the document stays as written. Only minified JSON and 2-space pretty JSON
// (JSON.stringify(x, null, 2), Python json.dumps(x, indent=2)) are tabled: a container in
// any other layout is left as it is. Deterministic: columns follow the documents' key order.
#ifndef CAVEMAN_COMPRESS_FACTOR_JSON_TABLE_H_
#define CAVEMAN_COMPRESS_FACTOR_JSON_TABLE_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/tokens.h"
#include "compress/factor/table_syntax.h"

namespace caveman::compress::factor {

// `json` with every container whose table costs fewer tokens of `counter` than its text
// written as a table; nullopt when `json` is not one JSON document, holds no such
// container, or the view does not expand back to `json` exactly.
std::optional<std::string> json_table_view(std::string_view json, const tokens::Counter& counter);

// `text` with each run of at least 8 lines that are minified JSON objects (NDJSON, a
// structured log) written as a table when that costs fewer tokens; lines `verbatim` accepts
// (problem lines) stay as written and split the runs. nullopt when no run is tabled or the
// view does not expand back to `text` exactly.
std::optional<std::string> json_lines_view(std::string_view text,
                                           const std::function<bool(std::string_view)>& verbatim,
                                           const tokens::Counter& counter);

// The JSON text a table block stands for; nullopt when the rows do not fit the header.
std::optional<std::string> decode_json_table(const TableHeader& header,
                                             const std::vector<std::string_view>& rows);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_JSON_TABLE_H_
