// The budgeted outline of an accessibility view (docs/browse.md, "Large pages"): when the
// whole view is over the token budget, it keeps the page's skeleton — landmarks, headings,
// form fields, tables with their first rows, the first items of long lists, and (at the most
// detailed level) the first short block of each section — and stands one marker line for
// each run of hidden records. A marker states what it hides (counts per kind, words) and the
// uid that shows it again (`expand`), so nothing is lost, only one call away.
// Levels trade detail for size: 0 keeps section previews, 1 drops them, 2 and up keep fewer
// heading levels. An expansion is the section of one record (a heading's section runs to the
// next heading of its level or above), never elided back into the marker that named it.
// Pure; thread-safe.
#ifndef CAVEMAN_COMPRESS_A11Y_A11Y_OUTLINE_H_
#define CAVEMAN_COMPRESS_A11Y_A11Y_OUTLINE_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compress/a11y/a11y_tree.h"

namespace caveman::compress::a11y {

inline constexpr int kOutlineLevels = 5;

// Marker lines, each shown where the hidden run begins (keyed by its first record).
using Markers = std::map<int, std::string>;

struct Outline {
  std::vector<bool> kept;
  Markers markers;
};

// The outline of the `kept` records at `level` (0 … kOutlineLevels-1). `expanded` is the
// record an expansion asked for, or -1.
Outline outline(const std::vector<Record>& records, const std::vector<bool>& kept, int level, int expanded);

// The record an expansion uid names (`u` + base-36 backendDOMNodeId, as shown in markers
// and on controls), or -1.
int find_expansion(const std::vector<Record>& records, std::string_view uid);

// Marks the section of record `at` and its ancestors.
void keep_section(const std::vector<Record>& records, int at, std::vector<bool>& kept);

// The uid a marker names for a record ("" when it has no DOM node).
std::string anchor_uid(const Record& r);

}  // namespace caveman::compress::a11y

#endif  // CAVEMAN_COMPRESS_A11Y_A11Y_OUTLINE_H_
