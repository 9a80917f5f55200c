// Removed lines whose content is still in the diff elsewhere (diff compressor,
// docs/spec/compressors.md#diff): a block removed here and added verbatim elsewhere in the same
// commit (a move, a file renamed by delete + add), and a block re-added right below with only its
// whitespace changed (re-indentation, reformatting). Only the removed copy is elided; its
// marker says exactly where the identical text is, so nothing an agent can read is lost.
#ifndef CAVEMAN_COMPRESS_DIFF_DIFF_MOVES_H_
#define CAVEMAN_COMPRESS_DIFF_DIFF_MOVES_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "compress/diff/diff_parse.h"

namespace caveman::compress::diff {

// A segment [begin, end) of removed lines to replace by one removed-lines marker with `note`.
struct Elision {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string note;
  std::string target;  // find_moved: the file holding the identical added lines
};

// A removed run followed directly by an added run of as many lines, pairwise equal once
// spaces and tabs are ignored (and not all byte-equal). Lines marked `taken` are skipped.
std::vector<Elision> find_reindented(const std::vector<std::string_view>& lines, const Parsed& p,
                                     const std::vector<bool>& taken);

// Maximal segments of ≥ kMinMovedLines consecutive removed lines (at least that many with
// a word character) equal, in order, to consecutive added lines of the same commit. Each
// added line backs at most one segment; the longest match wins, then the earliest.
std::vector<Elision> find_moved(const std::vector<std::string_view>& lines, const Parsed& p,
                                const std::vector<bool>& taken);

inline constexpr std::size_t kMinMovedLines = 3;

// The marker for a segment is worth it when at most half as long as the lines it replaces.
bool worth_eliding(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end,
                   const std::string& marker);

}  // namespace caveman::compress::diff

#endif  // CAVEMAN_COMPRESS_DIFF_DIFF_MOVES_H_
