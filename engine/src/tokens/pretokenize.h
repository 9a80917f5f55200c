// o200k_base pre-tokenizer: splits text into the pieces that tiktoken's o200k_base split regex
//   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//   |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//   |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
// finds, with tiktoken's semantics (Rust regex/fancy-regex, leftmost-first alternation, greedy
// backtracking quantifiers): \s is the Unicode White_Space property, \p{..} are general
// categories (Unicode 15.0 tables from engine/src/text/unicode.h), and (?i:...) uses simple case
// folding, so `'ſ` (U+017F, which folds to s) is a contraction too. A hand-written scanner,
// no regex engine: linear time, no allocation.
//
// Invalid UTF-8: every byte that does not start a well-formed sequence (overlong forms,
// surrogates, > U+10FFFF, truncated sequences, stray continuation bytes) is one character of
// its own, classified like U+FFFD (a symbol: [^\s\p{L}\p{N}]), exactly where a decoder that maps
// each bad byte to U+FFFD (Go's rule, the original engine's) would put piece boundaries. The
// pieces keep the raw bytes, so the byte-level BPE then counts the real bytes.
//
// Pure functions of their input; safe from any thread.
#ifndef CAVEMAN_TOKENS_PRETOKENIZE_H_
#define CAVEMAN_TOKENS_PRETOKENIZE_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace caveman::tokens {

// Byte offset just past the piece that starts at `pos` (requires pos < text.size()). Pieces are
// never empty, so repeated calls from 0 walk the whole text.
std::size_t next_piece_end(std::string_view text, std::size_t pos);

// next_piece_end without its ASCII fast paths: every alternative tried in pattern order (the
// reference the fast paths are tested against).
std::size_t reference_piece_end(std::string_view text, std::size_t pos);

// Every piece of `text`, in order (for tests and tools; counting walks next_piece_end).
std::vector<std::string_view> pretokenize(std::string_view text);

}  // namespace caveman::tokens

#endif  // CAVEMAN_TOKENS_PRETOKENIZE_H_
