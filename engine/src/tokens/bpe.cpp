#include "tokens/bpe.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace caveman::tokens {
namespace {

constexpr std::uint32_t kDead = 0xFFFFFFFFu;
constexpr std::uint32_t kNotInHeap = 0xFFFFFFFFu;
// Scratch kept per thread between calls only up to this many bytes of piece; a rare huge
// piece does not pin its memory.
constexpr std::size_t kKeepScratchBytes = std::size_t{1} << 20;

// tiktoken's algorithm on stack arrays: part i covers start[i]..start[i+1]; pair[i] is the rank
// of parts i and i+1 merged; each round merges the leftmost lowest-ranked pair. With kIds the
// token ids are written to ids[0..parts) (ids must hold n entries).
template <bool kIds>
std::size_t merge_linear(const Vocab& v, const unsigned char* p, std::size_t n,
                         std::uint32_t* ids) {
  std::uint32_t start[kSmallPiece + 1];
  std::uint32_t pair[kSmallPiece];
  for (std::size_t i = 0; i < n; ++i) {
    start[i] = static_cast<std::uint32_t>(i);
    if constexpr (kIds) ids[i] = v.byte_rank(p[i]);
  }
  start[n] = static_cast<std::uint32_t>(n);
  for (std::size_t i = 0; i + 1 < n; ++i) pair[i] = v.pair_rank(p + i);
  std::size_t parts = n;
  while (parts > 1) {
    std::uint32_t best = kNoRank;
    std::size_t bi = 0;
    for (std::size_t i = 0; i + 1 < parts; ++i) {
      if (pair[i] < best) {
        best = pair[i];
        bi = i;
      }
    }
    if (best == kNoRank) break;
    // Parts bi and bi+1 become one: drop start[bi+1], ids[bi+1] and pair[bi+1].
    std::memmove(&start[bi + 1], &start[bi + 2], (parts - bi - 1) * sizeof start[0]);
    if constexpr (kIds) {
      ids[bi] = best;
      std::memmove(&ids[bi + 1], &ids[bi + 2], (parts - bi - 2) * sizeof ids[0]);
    }
    if (bi + 3 <= parts) {
      std::memmove(&pair[bi + 1], &pair[bi + 2], (parts - bi - 3) * sizeof pair[0]);
    }
    --parts;
    if (bi + 1 < parts) pair[bi] = v.rank(p + start[bi], start[bi + 2] - start[bi]);
    if (bi > 0) pair[bi - 1] = v.rank(p + start[bi - 1], start[bi + 1] - start[bi - 1]);
  }
  return parts;
}

// The same merge order for long pieces: parts form a singly linked list by start offset
// (next[i] = start of the following part, kDead for merged-away offsets) and a binary min-heap
// indexed by part keeps the candidate pairs ordered by (rank, start). The part before `pos`
// starts at most one token length (≤ 255 bytes) earlier, so it is found by scanning back.
class HeapMerger {
 public:
  template <bool kIds>
  std::size_t run(const Vocab& v, const unsigned char* p, std::size_t n,
                  std::vector<std::uint32_t>* out) {
    next_.assign(n, 0);
    pair_.assign(n, kNoRank);
    slot_.assign(n, kNotInHeap);
    heap_.clear();
    if constexpr (kIds) tok_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      next_[i] = static_cast<std::uint32_t>(i + 1);
      if constexpr (kIds) tok_[i] = v.byte_rank(p[i]);
    }
    for (std::size_t i = 0; i + 1 < n; ++i) {
      pair_[i] = v.pair_rank(p + i);
      if (pair_[i] != kNoRank) {
        slot_[i] = static_cast<std::uint32_t>(heap_.size());
        heap_.push_back(static_cast<std::uint32_t>(i));
      }
    }
    for (std::size_t k = heap_.size() / 2; k-- > 0;) sift_down(k);
    std::size_t parts = n;
    while (!heap_.empty()) {
      std::uint32_t pos = heap_[0];
      std::uint32_t rank = pair_[pos];
      remove(pos);
      std::uint32_t nx = next_[pos];
      std::uint32_t nn = next_[nx];
      if (slot_[nx] != kNotInHeap) remove(nx);
      next_[nx] = kDead;
      next_[pos] = nn;
      if constexpr (kIds) tok_[pos] = rank;
      --parts;
      if (nn < n) set_pair(pos, v.rank(p + pos, next_[nn] - pos));
      if (pos > 0) {
        std::uint32_t pv = pos - 1;
        while (next_[pv] == kDead) --pv;
        set_pair(pv, v.rank(p + pv, nn - pv));
      }
    }
    if constexpr (kIds) {
      for (std::size_t i = 0; i < n; i = next_[i]) out->push_back(tok_[i]);
    }
    if (n > kKeepScratchBytes) release();
    return parts;
  }

 private:
  bool less(std::uint32_t a, std::uint32_t b) const {
    return pair_[a] < pair_[b] || (pair_[a] == pair_[b] && a < b);
  }
  void place(std::size_t k, std::uint32_t part) {
    heap_[k] = part;
    slot_[part] = static_cast<std::uint32_t>(k);
  }
  void sift_up(std::size_t k) {
    std::uint32_t part = heap_[k];
    while (k > 0) {
      std::size_t parent = (k - 1) / 2;
      if (!less(part, heap_[parent])) break;
      place(k, heap_[parent]);
      k = parent;
    }
    place(k, part);
  }
  void sift_down(std::size_t k) {
    std::uint32_t part = heap_[k];
    std::size_t size = heap_.size();
    for (;;) {
      std::size_t child = 2 * k + 1;
      if (child >= size) break;
      if (child + 1 < size && less(heap_[child + 1], heap_[child])) ++child;
      if (!less(heap_[child], part)) break;
      place(k, heap_[child]);
      k = child;
    }
    place(k, part);
  }
  void remove(std::uint32_t part) {
    const std::size_t k = slot_[part];
    slot_[part] = kNotInHeap;
    std::uint32_t last = heap_.back();
    heap_.pop_back();
    if (k == heap_.size()) return;
    place(k, last);
    sift_down(k);
    sift_up(slot_[last]);
  }
  void set_pair(std::uint32_t part, std::uint32_t rank) {
    pair_[part] = rank;
    if (rank == kNoRank) {
      if (slot_[part] != kNotInHeap) remove(part);
      return;
    }
    if (slot_[part] == kNotInHeap) {
      heap_.push_back(part);
      slot_[part] = static_cast<std::uint32_t>(heap_.size() - 1);
      sift_up(heap_.size() - 1);
      return;
    }
    sift_down(slot_[part]);
    sift_up(slot_[part]);
  }
  void release() {
    std::vector<std::uint32_t>().swap(next_);
    std::vector<std::uint32_t>().swap(pair_);
    std::vector<std::uint32_t>().swap(slot_);
    std::vector<std::uint32_t>().swap(heap_);
    std::vector<std::uint32_t>().swap(tok_);
  }

  std::vector<std::uint32_t> next_;
  std::vector<std::uint32_t> pair_;
  std::vector<std::uint32_t> slot_;  // index of each part in heap_, or kNotInHeap
  std::vector<std::uint32_t> heap_;
  std::vector<std::uint32_t> tok_;
};

HeapMerger& heap_merger() {
  thread_local HeapMerger merger;
  return merger;
}

// Per-thread memo of short pieces that are not single tokens: code, JSON and logs repeat the
// same identifiers, keys and indentation, and merging one costs about ten table lookups. Exact
// (an entry holds the piece's bytes), direct-mapped, fixed size; allocated once per thread on
// first use.
class PieceCache {
 public:
  static constexpr std::size_t kMaxBytes = 16;
  static constexpr std::size_t kMaxIds = 7;
  struct Entry {
    std::uint8_t len = 0;  // 0: empty
    std::uint8_t n_ids = 0;
    unsigned char bytes[kMaxBytes];
    std::uint32_t ids[kMaxIds];
  };

  Entry& slot(std::uint64_t hash) { return entries_[(hash >> 24) & (kEntries - 1)]; }
  static bool holds(const Entry& e, const unsigned char* p, std::size_t n) {
    return e.len == n && std::memcmp(e.bytes, p, n) == 0;
  }
  static void put(Entry& e, const unsigned char* p, std::size_t n, const std::uint32_t* ids,
                  std::size_t n_ids) {
    if (n_ids > kMaxIds) return;
    e.len = static_cast<std::uint8_t>(n);
    e.n_ids = static_cast<std::uint8_t>(n_ids);
    std::memcpy(e.bytes, p, n);
    std::memcpy(e.ids, ids, n_ids * sizeof ids[0]);
  }

 private:
  static constexpr std::size_t kEntries = 4096;
  Entry entries_[kEntries];
};

PieceCache& piece_cache() {
  thread_local std::unique_ptr<PieceCache> cache = std::make_unique<PieceCache>();
  return *cache;
}

const unsigned char* bytes_of(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// Offsets in the merger are 32-bit. A single piece of 4 GiB or more (one run of letters or of
// punctuation that long) is merged in 2 GiB slices: the only place counting is not exact.
constexpr std::size_t kMaxMergeBytes = std::size_t{1} << 31;

// Tokens of one piece: appended to *out when kIds, counted always.
template <bool kIds>
std::size_t encode_piece(const Vocab& v, const unsigned char* p, std::size_t n,
                         std::vector<std::uint32_t>* out) {
  if (n == 0) return 0;
  if (n == 1) {
    if constexpr (kIds) out->push_back(v.byte_rank(p[0]));
    return 1;
  }
  if (n == 2) {  // a token, or two single bytes: no merge can happen in between
    std::uint32_t r = v.pair_rank(p);
    if constexpr (kIds) {
      if (r != kNoRank) {
        out->push_back(r);
      } else {
        out->push_back(v.byte_rank(p[0]));
        out->push_back(v.byte_rank(p[1]));
      }
    }
    return r != kNoRank ? 1 : 2;
  }
  if (n > table::kMaxTokenBytes) {
    if (n >= 2 * kMaxMergeBytes) {
      std::size_t total = 0;
      for (std::size_t i = 0; i < n; i += kMaxMergeBytes) {
        total += encode_piece<kIds>(v, p + i, std::min(kMaxMergeBytes, n - i), out);
      }
      return total;
    }
    return heap_merger().run<kIds>(v, p, n, out);
  }
  std::uint64_t h = table::hash_bytes(p, n);
  std::uint32_t whole = v.rank_hashed(p, n, h);
  if (whole != kNoRank) {
    if constexpr (kIds) out->push_back(whole);
    return 1;
  }
  if (n > kSmallPiece) return heap_merger().run<kIds>(v, p, n, out);
  if (n > PieceCache::kMaxBytes) {
    if constexpr (kIds) {
      std::uint32_t ids[kSmallPiece];
      std::size_t parts = merge_linear<true>(v, p, n, ids);
      out->insert(out->end(), ids, ids + parts);
      return parts;
    } else {
      return merge_linear<false>(v, p, n, nullptr);
    }
  }
  PieceCache::Entry& e = piece_cache().slot(h);
  if (!PieceCache::holds(e, p, n)) {
    std::uint32_t ids[PieceCache::kMaxBytes];
    std::size_t parts = merge_linear<true>(v, p, n, ids);
    if constexpr (kIds) out->insert(out->end(), ids, ids + parts);
    PieceCache::put(e, p, n, ids, parts);
    return parts;
  }
  if constexpr (kIds) out->insert(out->end(), e.ids, e.ids + e.n_ids);
  return e.n_ids;
}

}  // namespace

std::size_t bpe_count(const Vocab& vocab, std::string_view piece) {
  return encode_piece<false>(vocab, bytes_of(piece), piece.size(), nullptr);
}

void bpe_encode(const Vocab& vocab, std::string_view piece, std::vector<std::uint32_t>& out) {
  encode_piece<true>(vocab, bytes_of(piece), piece.size(), &out);
}

void bpe_encode_linear_for_testing(const Vocab& vocab, std::string_view piece,
                                   std::vector<std::uint32_t>& out) {
  // The linear merger works on fixed stack arrays, so longer pieces cannot be forced here.
  if (piece.empty() || piece.size() > kSmallPiece) return;
  std::uint32_t ids[kSmallPiece];
  std::size_t parts = merge_linear<true>(vocab, bytes_of(piece), piece.size(), ids);
  out.insert(out.end(), ids, ids + parts);
}

void bpe_encode_heap_for_testing(const Vocab& vocab, std::string_view piece,
                                 std::vector<std::uint32_t>& out) {
  if (piece.empty() || piece.size() >= 2 * kMaxMergeBytes) return;
  heap_merger().run<true>(vocab, bytes_of(piece), piece.size(), &out);
}

}  // namespace caveman::tokens
