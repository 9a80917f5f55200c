// Layout of the embedded o200k_base table and the hash that indexes it. Shared by the build-time
// generator (gen/gen_o200k_table.cpp) and the run-time reader (vocab.cpp), so both sides agree
// on every bit. The table is built on the build host and embedded verbatim, so host and target
// must share byte order (little-endian x86-64/arm64 here); the header's magic catches a mismatch.
//
// Blob layout (all integers in host byte order, each section 64-byte aligned):
//   TableHeader
//   std::uint32_t pair_rank[65536]        rank of every 2-byte string (b0 << 8 | b1), or
//                                         kNoRank: the first round of every merge, unhashed
//   std::uint64_t slots[1 << slot_bits]   open addressing, linear probing; 0 = empty
//   std::uint32_t offsets[token_count + 1] byte offset of rank r's bytes (for decoding)
//   unsigned char bytes[bytes_size]         every token's bytes, in rank order
//
// A slot packs offset (21 bits) | length (8 bits, 1..128, so a used slot is never 0) |
// rank (18 bits) | hash tag (17 bits), so a probe usually touches one slot and one byte run.
#ifndef CAVEMAN_TOKENS_TABLE_FORMAT_H_
#define CAVEMAN_TOKENS_TABLE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace caveman::tokens::table {

inline constexpr char kMagic[8] = {'C', 'V', 'O', '2', '0', '0', 'K', '1'};
inline constexpr std::uint32_t kFormatVersion = 2;
inline constexpr std::uint32_t kNoRank = 0xFFFFFFFFu;

inline constexpr unsigned kOffsetBits = 21;
inline constexpr unsigned kLengthBits = 8;
inline constexpr unsigned kRankBits = 18;
inline constexpr unsigned kTagBits = 64 - kOffsetBits - kLengthBits - kRankBits;
inline constexpr unsigned kLengthShift = kOffsetBits;
inline constexpr unsigned kRankShift = kLengthShift + kLengthBits;
inline constexpr unsigned kTagShift = kRankShift + kRankBits;
inline constexpr std::size_t kMaxTokenBytes = (1u << kLengthBits) - 1;

struct TableHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t token_count;  // ranks are 0 .. token_count-1, contiguous
  std::uint32_t slot_bits;    // the slot array has 1 << slot_bits entries
  std::uint32_t bytes_size;
  std::uint32_t max_token_bytes;
  std::uint32_t max_probe;         // longest probe sequence of any vocabulary entry
  std::uint64_t pair_rank_offset;  // byte offsets of the sections from the blob start
  std::uint64_t slots_offset;
  std::uint64_t offsets_offset;
  std::uint64_t bytes_offset;
  std::uint64_t total_size;
  std::uint32_t byte_rank[256];  // rank of each single byte (all 256 are in o200k_base)
};

inline std::uint64_t load64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline std::uint64_t load32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// p[0..n) == q[0..n) for 1 <= n. Short strings (the common case: most tokens are under 9
// bytes) compare with overlapping loads instead of a libc call.
inline bool bytes_equal(const unsigned char* p, const unsigned char* q, std::size_t n) {
  if (n >= 8) {
    if (n > 16) return std::memcmp(p, q, n) == 0;
    return load64(p) == load64(q) && load64(p + n - 8) == load64(q + n - 8);
  }
  if (n >= 4) return load32(p) == load32(q) && load32(p + n - 4) == load32(q + n - 4);
  return p[0] == q[0] && p[n >> 1] == q[n >> 1] && p[n - 1] == q[n - 1];
}

__extension__ typedef unsigned __int128 Uint128;  // __extension__: no -Wpedantic noise

inline std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  // 64×64→128 multiply folded to 64 bits (the "mum" step of wyhash-style hashes).
  Uint128 r = static_cast<Uint128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

// Hash of a byte string. Short inputs use overlapping loads (no per-byte loop): for n in 4..8
// the two 4-byte loads cover every byte; for n in 1..3 bytes 0, n/2 and n-1 do.
inline std::uint64_t hash_bytes(const unsigned char* p, std::size_t n) {
  constexpr std::uint64_t kSeed = 0x9E3779B97F4A7C15ull;
  constexpr std::uint64_t kP1 = 0xA0761D6478BD642Full;
  constexpr std::uint64_t kP2 = 0xE7037ED1A0B428DBull;
  std::uint64_t a;
  std::uint64_t b;
  std::uint64_t seed = kSeed ^ (n * kP1);
  if (n <= 8) {
    if (n >= 4) {
      a = load32(p);
      b = load32(p + n - 4);
    } else if (n > 0) {
      a = (std::uint64_t{p[0]} << 16) | (std::uint64_t{p[n >> 1]} << 8) | p[n - 1];
      b = 0;
    } else {
      a = b = 0;
    }
  } else {
    std::size_t i = n;
    while (i > 16) {
      seed = mix(load64(p) ^ kP1, load64(p + 8) ^ seed);
      p += 16;
      i -= 16;
    }
    // The last 1..16 bytes: two overlapping 8-byte loads (reading back into the previous
    // chunk when fewer than 9 remain, which the loop guarantees exists).
    a = i > 8 ? load64(p) : 0;
    b = load64(p + i - 8);
  }
  return mix(a ^ kP2, b ^ seed) * kP1 ^ n;
}

}  // namespace caveman::tokens::table

#endif  // CAVEMAN_TOKENS_TABLE_FORMAT_H_
