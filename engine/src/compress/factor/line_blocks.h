// Line templates (docs/formats.md): runs of lines written in the same shape become one block
// whose header states the shared text once and whose rows carry only what varies. Two shapes
// are found, both deterministic (document order, fixed thresholds, no hashing):
//  - records of 1–4 lines whose space-separated tokens line up position by position; a
//    position that never changes is literal, one that changes keeps a shared prefix/suffix
//    (cut only after/before a separator) literal, and positions whose values are equal in
//    every record share one placeholder (a test name on its RUN and OK lines);
//  - lines sharing a leading text (grep hits of one file, one timestamp's lines);
//  - with `sections`, whole config sections (config_sections.h) of up to 24 lines as the
//    records: a table of one row per section under a header stating the keys once;
//  - a long run under one shared root (a directory), whose rows are factored again one level
//    deep, where lines whose first words line up keep the rest of the line as a last value.
// The view is always checked by decoding it: anything that would not expand to the exact
// input is not produced.
#ifndef CAVEMAN_COMPRESS_FACTOR_LINE_BLOCKS_H_
#define CAVEMAN_COMPRESS_FACTOR_LINE_BLOCKS_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress::factor {

// Factors `lines` (joined by '\n'); lines whose `barrier` is true stay literal and outside
// blocks (elision markers). Returns the view's lines, or nullopt when no block pays.
std::optional<std::vector<std::string>> factor_lines(const std::vector<std::string_view>& lines,
                                                     const std::vector<bool>& barrier,
                                                     bool sections = false);

// The whole text factored and verified: expand_blocks(result) == text. Lines for which
// `verbatim` holds stay literal and outside blocks (elision markers, problem lines). nullopt
// when nothing pays, the text is too large to factor cheaply, or it already holds a block.
std::optional<std::string> factor_text(
    std::string_view text, const std::function<bool(std::string_view)>& verbatim = {},
    bool sections = false);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_LINE_BLOCKS_H_
