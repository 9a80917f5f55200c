// Unified-diff structure for the diff compressor (docs/spec/compressors.md#diff): which lines are
// inside a hunk (bounded by the header's line counts), what each is, which file and commit it
// belongs to, and the compressor's own markers, parsed back with the lines they stand for
// so that compressing an output again changes nothing.
//
// Marker grammar (… is U+2026):
//   run marker   `… N <context|added|removed> lines elided (caveman) …`
//                `… N <context|added|removed> lines elided (caveman): <note> …`
//   body marker  `… N lines elided (caveman): <note> …` — replaces the rest of a hunk.
#ifndef CAVEMAN_COMPRESS_DIFF_DIFF_PARSE_H_
#define CAVEMAN_COMPRESS_DIFF_DIFF_PARSE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::diff {

enum class Kind {
  kMeta,           // outside any hunk: always kept
  kHunkHeader,     // "@@ -a,b +c,d @@"
  kContext,        // " …" inside a hunk
  kAdded,          // "+…" inside a hunk
  kRemoved,        // "-…" inside a hunk
  kContextMarker,  // run markers, by the kind of line they replace
  kAddedMarker,
  kRemovedMarker,
  kBodyMarker,     // a whole hunk body (repeated change, generated file)
  kWordDiff,       // "~…": a removed line and the added line that replaced it (diff_words.h)
};

struct Hunk {
  std::size_t header = 0;  // line index of "@@ … @@"
  std::size_t end = 0;     // one past its last body line
  std::string file;        // path from "+++ " (or "--- ", or "diff --git")
  std::size_t scope = 0;   // commit ordinal in `git log -p` (0 before the first commit)
  bool deleted_file = false;
};

struct Parsed {
  std::vector<Kind> kinds;
  std::vector<std::int64_t> counts;  // lines a marker stands for (0 for other lines)
  std::vector<std::string_view> notes;  // a marker's note (empty for other lines)
  std::vector<std::int64_t> new_line;  // new-file line number of each added line (else 0)
  std::vector<int> hunk_of;            // hunk index of each hunk line (header included), else -1
  std::vector<Hunk> hunks;
};

std::string_view strip_cr(std::string_view line);

// A change line's text after its +/- sign, without a trailing CR.
std::string_view body_of(std::string_view line);

// `s` without its spaces and tabs: lines equal but for white space compare equal.
std::string squash_spaces(std::string_view s);

Parsed parse(const std::vector<std::string_view>& lines);

bool is_change(Kind k);
bool is_added(Kind k);    // kAdded or kAddedMarker
bool is_removed(Kind k);  // kRemoved or kRemovedMarker

// The run marker for `n` lines of kind kContext, kAdded or kRemoved, with an optional note.
std::string run_marker(Kind k, std::int64_t n, std::string_view note = {});
// The body marker for `n` lines.
std::string body_marker(std::int64_t n, std::string_view note);

}  // namespace caveman::compress::diff

#endif  // CAVEMAN_COMPRESS_DIFF_DIFF_PARSE_H_
