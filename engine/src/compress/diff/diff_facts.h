// Checks that a diff marker's note states facts about the original lines it replaces
// (used by the evals marker-facts grader, docs/spec/ranking.md#graders). Independent of how the
// compressor found them: every claim is re-read from the original diff.
#ifndef CAVEMAN_COMPRESS_DIFF_DIFF_FACTS_H_
#define CAVEMAN_COMPRESS_DIFF_DIFF_FACTS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "compress/diff/diff_parse.h"

namespace caveman::compress::diff {

// The original diff, parsed once for many checks.
class NoteChecker {
 public:
  explicit NoteChecker(std::vector<std::string_view> lines);

  // Original lines [begin, end) replaced by a marker of `kind` (kContextMarker,
  // kAddedMarker, kRemovedMarker or kBodyMarker) with `note` (may be empty).
  // Returns "" when every claim holds, else what is wrong.
  std::string check(std::size_t begin, std::size_t end, Kind kind, std::string_view note) const;

 private:
  std::vector<std::string_view> lines_;
  Parsed parsed_;
};

}  // namespace caveman::compress::diff

#endif  // CAVEMAN_COMPRESS_DIFF_DIFF_FACTS_H_
