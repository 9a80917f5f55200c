// Shared rendering for the line-oriented compressors (search-result, terminal, config):
// every maximal run of dropped lines becomes one synthesized marker line. Line endings
// follow docs/spec/compressors.md#lines (split on '\n', '\r' stays attached to its line, a
// synthesized marker gets '\r' only when CRLF is the majority ending, the final '\n' is re-added).
#ifndef CAVEMAN_COMPRESS_COMMON_ELIDE_LINES_H_
#define CAVEMAN_COMPRESS_COMMON_ELIDE_LINES_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress {

struct ElidedLines {
  std::string text;
  std::size_t dropped_lines = 0;  // lines actually replaced by markers
  std::size_t markers = 0;
};

// Marker text for a stretch: `run_length` lines starting at line index `first`, every one of
// them matched by `selector` (selector_marker() writes the usual form).
using LineMarker = std::function<std::string(std::size_t first, std::size_t run_length,
                                             std::string_view selector)>;

// Renders `lines` with the runs of keep[i] == false hidden, needle-safely (selector.h): the
// lines needle_lines() names stay, each run is split into stretches one selector covers
// (cover_run) and each stretch becomes marker(first, n, selector); a line no selector covers
// stays. A stretch is emitted verbatim instead when replacing it would not save bytes or when
// it holds only blank lines: a marker must never make the output longer or hide nothing.
ElidedLines elide_runs(const std::vector<std::string_view>& lines, const std::vector<bool>& keep,
                       bool trailing_newline, bool crlf_majority, const LineMarker& marker);

// "… N <what> elided (caveman) …", e.g. what = "search result lines".
std::string count_marker(std::size_t n, std::string_view what);

// Whether `text` holds "<what> elided (caveman)" or "<what> matching "…" elided (caveman)", the
// part of a count_marker() (or of a marker with facts after it) that names `what`: the re-entry
// guard of a compressor whose own output must pass through, so that compressing twice changes
// nothing.
bool has_count_marker(std::string_view text, std::string_view what);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_ELIDE_LINES_H_
