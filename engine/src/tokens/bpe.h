// Byte-pair merging of one pre-tokenized piece with a Vocab's ranks, exactly as tiktoken does
// it: the whole piece if it is a token; else start from single bytes and repeatedly merge the
// adjacent pair whose concatenation has the lowest rank (ties: the leftmost pair) until no
// adjacent pair is a token. Any byte string works (all 256 single bytes are tokens).
//
// Pieces up to kSmallPiece bytes merge in stack arrays with a linear scan (tiktoken's own
// algorithm); longer ones use an indexed binary heap (O(n log n), same merge order) in a
// per-thread scratch that is reused. The first merge round reads a direct 2-byte table, and
// short pieces that are not single tokens are memoised in a small per-thread cache, so the hot
// path never allocates per piece. A single piece of n bytes longer than kSmallPiece needs about
// 16·n bytes of scratch while it is merged (released afterwards when above 1 MiB).
// Thread-safe: no shared mutable state.
#ifndef CAVEMAN_TOKENS_BPE_H_
#define CAVEMAN_TOKENS_BPE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tokens/vocab.h"

namespace caveman::tokens {

inline constexpr std::size_t kSmallPiece = 128;

// Number of tokens of `piece` (0 for an empty piece).
std::size_t bpe_count(const Vocab& vocab, std::string_view piece);

// Appends the token ids of `piece` to `out`.
void bpe_encode(const Vocab& vocab, std::string_view piece, std::vector<std::uint32_t>& out);

// The two merge strategies, forced regardless of the piece length (tests compare them).
void bpe_encode_linear_for_testing(const Vocab& vocab, std::string_view piece,
                                   std::vector<std::uint32_t>& out);
void bpe_encode_heap_for_testing(const Vocab& vocab, std::string_view piece,
                                 std::vector<std::uint32_t>& out);

}  // namespace caveman::tokens

#endif  // CAVEMAN_TOKENS_BPE_H_
