// Query-narrowed recovery views (docs/spec/ccr.md#query-views): the original is cut into whole
// units (complete JSON records, CSV/TSV/Markdown rows with the header once, NDJSON/log lines,
// prose paragraphs), the units most relevant to the query are chosen by BM25 and rendered
// in original order with a `… [caveman: non-adjacent] …` sentinel at every gap. A view is
// only returned when it is strictly smaller than the original; otherwise the exact
// original is. Pure functions of their arguments; safe from any thread.
#ifndef CAVEMAN_RECOVERY_RETRIEVE_QUERY_H_
#define CAVEMAN_RECOVERY_RETRIEVE_QUERY_H_

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::recovery {

inline constexpr std::string_view kGapSentinel =
    "\xE2\x80\xA6 [caveman: non-adjacent] \xE2\x80\xA6";
inline constexpr std::size_t kMaxUnits = 20;
inline constexpr std::size_t kNoOffset = std::numeric_limits<std::size_t>::max();

enum class UnitKind { kNone, kJsonRecords, kNdjsonLines, kTableRows, kSections };

struct Unit {
  std::string text;  // what the view shows; empty for a JSON group separator (never scores)
  // Byte span [begin, end) of the unit in the original (kNoOffset for rendered JSON records).
  std::size_t begin = kNoOffset;
  std::size_t end = kNoOffset;
};

struct Decomposition {
  UnitKind kind = UnitKind::kNone;
  std::string prelude;      // table header line(s) shown once above the rows; may be empty
  std::vector<Unit> units;  // document order
};

// Cuts `original` into whole units. kNone (no units) when nothing decomposes: JSON without
// an array of objects, JSON-looking text that does not parse (never line-split), or a
// single unit.
Decomposition decompose(std::string_view original);

// Indices (into decomposition.units) of the chosen units in original order: the units with a
// BM25 score > 0, best kMaxUnits by score (ties by index). Empty when none scores.
std::vector<std::size_t> select_units(const Decomposition& d, std::string_view query);

// Renders the chosen units: prelude + '\n', a sentinel before the first unit when it is not
// unit 0, "\n\n" between adjacent units, "\n\n" + sentinel + "\n\n" across a gap, and
// "\n\n" + sentinel after the last unit when it is not the last. No trailing newline.
std::string render_view(const Decomposition& d, const std::vector<std::size_t>& selected);

// Whole units of `original` relevant to `query`, gaps marked; the exact original when the
// query is blank, nothing decomposes or scores, or the view would not be smaller.
std::string narrow_to_query(std::string_view original, std::string_view query);

}  // namespace caveman::recovery

#endif  // CAVEMAN_RECOVERY_RETRIEVE_QUERY_H_
