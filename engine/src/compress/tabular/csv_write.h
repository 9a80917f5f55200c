// CSV/TSV record writing with Go encoding/csv Writer semantics (docs/spec/compressors.md#tabular):
// a field is quoted iff it contains the delimiter, '"', CR or LF, starts with a Unicode
// space, or is exactly `\.`; quotes are doubled inside quoted fields.
#ifndef CAVEMAN_COMPRESS_TABULAR_CSV_WRITE_H_
#define CAVEMAN_COMPRESS_TABULAR_CSV_WRITE_H_

#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress {

bool csv_field_needs_quotes(std::string_view field, char delimiter);

// One record without its line ending. With `crlf` (Go's UseCRLF), a '\n' inside a quoted
// field is written as "\r\n" and a bare '\r' is dropped, as Go does.
std::string csv_record(const std::vector<std::string>& fields, char delimiter, bool crlf);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_TABULAR_CSV_WRITE_H_
