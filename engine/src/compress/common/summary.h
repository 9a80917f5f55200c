// Fact-bearing elision markers (docs/spec/markers.md): field extraction, the invariant
// summary, the worth-eliding rule and the one-per-payload contract note.
#ifndef CAVEMAN_COMPRESS_COMMON_SUMMARY_H_
#define CAVEMAN_COMPRESS_COMMON_SUMMARY_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace caveman::json {
struct Value;
}

namespace caveman::compress {

// (name, value) pairs of one unit, in the unit's own order.
using Fields = std::vector<std::pair<std::string, std::string>>;

Fields log_line_fields(std::string_view line);
Fields table_row_fields(const std::vector<std::string>& header,
                        const std::vector<std::string>& row);
Fields json_element_fields(const json::Value& element);

// Summary of the elided units, e.g. "all state=ok; range id=3..9"; "" when nothing
// verifiable fits the budget. Every statement holds for every unit.
std::string summarize(const std::vector<Fields>& units, std::int64_t elided_bytes);

// The summary of log lines [begin, end) of `lines` ("" for a run over kMaxSummaryUnits).
std::string summarize_log_lines(const std::vector<std::string_view>& lines, std::size_t begin,
                                std::size_t end, std::int64_t elided_bytes);

// docs/spec/markers.md#worth-eliding: a run of ≥ 3 units always elides; a shorter one only with a
// non-empty summary and 2 × marker_bytes ≤ run_bytes.
bool worth_eliding(std::size_t run_units, std::string_view summary, std::size_t marker_bytes,
                   std::size_t run_bytes);

inline constexpr std::size_t kNoteMinElidedBytes = 4096;
// Runs longer than this are not summarised: their fields would cost memory in proportion to
// the run (a 1,000,000-line log), and a summary must hold for every unit. Such a marker
// states its count only.
inline constexpr std::size_t kMaxSummaryUnits = 20000;
inline constexpr std::string_view kNotePrefix = "… caveman: elided ";

// "… caveman: elided <unit> are not in this view, only the facts their markers state; one
// broad caveman_retrieve returns the exact original …" (literally true of every view).
std::string elision_note(std::string_view unit);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_SUMMARY_H_
