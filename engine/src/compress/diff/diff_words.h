// Word diffs (docs/formats.md, "Diffs: word diffs"): a removed line and the added line that
// replaced it, when they are alike, written once as
//   ~TEXT[-REMOVED-]{+ADDED+}TEXT
// — text outside the brackets is in both lines, `[-…-]` only in the removed one, `{+…+}` only
// in the added one (git's --word-diff=plain markup). A run of n such lines stands for the n
// removed lines, then the n added lines. This file is the only place that writes or reads
// that line; diff.cpp decides where to use it.
#ifndef CAVEMAN_COMPRESS_DIFF_DIFF_WORDS_H_
#define CAVEMAN_COMPRESS_DIFF_DIFF_WORDS_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace caveman::compress::diff {

// Pairs at least this alike (2 × shared bytes / both lines' bytes, words aligned by LCS,
// spaces not counted) may be written as one word-diff line.
inline constexpr double kAlike = 0.6;

// The word-diff line for `removed` and `added` (whole diff lines, "-…" and "+…"), or
// nullopt when they are not alike, hold the markup themselves, end in '\r' or are too long
// to align cheaply. Deterministic; the line always reads back to the same pair.
std::optional<std::string> word_diff_line(std::string_view removed, std::string_view added);

// The removed and added lines ("-…", "+…") a word-diff line stands for; nullopt when `line`
// is not one.
std::optional<std::pair<std::string, std::string>> split_word_diff(std::string_view line);

}  // namespace caveman::compress::diff

#endif  // CAVEMAN_COMPRESS_DIFF_DIFF_WORDS_H_
