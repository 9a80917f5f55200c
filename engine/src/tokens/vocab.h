// The o200k_base vocabulary, embedded in the binary at build time (see table_format.h and
// gen/gen_o200k_table.cpp): byte string ⇄ rank with no parsing or allocation at run time.
// Vocab is immutable static data; every method is safe from any thread. Lookups of unknown
// byte strings return kNoRank; they never fail otherwise.
#ifndef CAVEMAN_TOKENS_VOCAB_H_
#define CAVEMAN_TOKENS_VOCAB_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "tokens/table_format.h"

namespace caveman::tokens {

inline constexpr std::uint32_t kNoRank = table::kNoRank;

class Vocab {
 public:
  // The embedded o200k_base table (checked once on first use; a damaged blob is a build bug
  // and aborts).
  static const Vocab& o200k();

  std::uint32_t size() const { return header_->token_count; }
  std::uint32_t max_token_bytes() const { return header_->max_token_bytes; }
  std::uint32_t byte_rank(unsigned char b) const { return header_->byte_rank[b]; }
  // Rank of the 2-byte string p[0..2), or kNoRank (a table read, no hashing).
  std::uint32_t pair_rank(const unsigned char* p) const {
    return pair_rank_[(std::size_t{p[0]} << 8) | p[1]];
  }

  // Rank of the byte string p[0..n), or kNoRank.
  std::uint32_t rank(const unsigned char* p, std::size_t n) const {
    if (n == 1) return header_->byte_rank[p[0]];
    if (n == 2) return pair_rank(p);
    if (n == 0 || n > table::kMaxTokenBytes) return kNoRank;
    return rank_hashed(p, n, table::hash_bytes(p, n));
  }
  // The same for 3 <= n <= kMaxTokenBytes with h = table::hash_bytes(p, n) already computed.
  std::uint32_t rank_hashed(const unsigned char* p, std::size_t n, std::uint64_t h) const {
    std::uint64_t tag = h >> table::kTagShift;
    // The expected slot word for a hit, minus the offset and rank bits.
    std::uint64_t want = (std::uint64_t{n} << table::kLengthShift) | (tag << table::kTagShift);
    constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << table::kOffsetBits) - 1;
    constexpr std::uint64_t kRankMask = ((std::uint64_t{1} << table::kRankBits) - 1)
                                        << table::kRankShift;
    for (std::size_t idx = h & mask_;; idx = (idx + 1) & mask_) {
      std::uint64_t e = slots_[idx];
      if (e == 0) return kNoRank;
      if ((e & ~(kOffsetMask | kRankMask)) == want &&
          table::bytes_equal(bytes_ + (e & kOffsetMask), p, n)) {
        return static_cast<std::uint32_t>((e & kRankMask) >> table::kRankShift);
      }
    }
  }
  std::uint32_t rank(std::string_view s) const {
    return rank(reinterpret_cast<const unsigned char*>(s.data()), s.size());
  }

  // The bytes of token `r`; empty when r is not a rank of this vocabulary.
  std::string_view token_bytes(std::uint32_t r) const {
    if (r >= header_->token_count) return {};
    return {reinterpret_cast<const char*>(bytes_) + offsets_[r], offsets_[r + 1] - offsets_[r]};
  }

 private:
  explicit Vocab(const unsigned char* blob);

  const table::TableHeader* header_;
  const std::uint32_t* pair_rank_;
  const std::uint64_t* slots_;
  const std::uint32_t* offsets_;
  const unsigned char* bytes_;
  std::size_t mask_;
};

}  // namespace caveman::tokens

#endif  // CAVEMAN_TOKENS_VOCAB_H_
