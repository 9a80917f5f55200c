// Byte-pair merging: whole-piece hits, tiktoken's merge order, and the two merge strategies
// (linear for short pieces, heap for long ones) agreeing with each other.
#include "tokens/bpe.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace caveman::tokens {
namespace {

using Ids = std::vector<std::uint32_t>;

Ids encode(std::string_view piece) {
  Ids out;
  bpe_encode(Vocab::o200k(), piece, out);
  return out;
}

std::string decode(const Ids& ids) {
  std::string out;
  for (std::uint32_t id : ids) out += Vocab::o200k().token_bytes(id);
  return out;
}

TEST(Bpe, EmptyAndSingleBytes) {
  EXPECT_TRUE(encode("").empty());
  EXPECT_EQ(bpe_count(Vocab::o200k(), ""), 0u);
  EXPECT_EQ(encode("!"), (Ids{0}));
  EXPECT_EQ(bpe_count(Vocab::o200k(), "\xFF"), 1u);
}

TEST(Bpe, WholePieceHitIsOneToken) {
  EXPECT_EQ(encode(" world"), (Ids{2375}));
  EXPECT_EQ(bpe_count(Vocab::o200k(), "Hello"), 1u);
}

TEST(Bpe, MergesByLowestRankToKnownIds) {
  // Reference ids from gpt-tokenizer@4.0.0 (o200k_base) for pieces that are not tokens.
  EXPECT_EQ(encode("<|"), (Ids{27, 91}));
  EXPECT_EQ(encode("endoftext"), (Ids{419, 1440, 919}));
}

TEST(Bpe, DecodesBackToThePiece) {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    std::string piece;
    int len = 1 + static_cast<int>(rng() % 300);
    for (int i = 0; i < len; ++i) piece.push_back(static_cast<char>(rng() % 256));
    Ids ids = encode(piece);
    ASSERT_EQ(decode(ids), piece);
    ASSERT_EQ(bpe_count(Vocab::o200k(), piece), ids.size());
  }
}

TEST(Bpe, LinearAndHeapMergersAgree) {
  std::mt19937 rng(99);
  std::string alphabet = "aaaabbbcdeeeeghilmnoprsttu_ABCXYZ-=";
  for (int round = 0; round < 3000; ++round) {
    std::string piece;
    std::size_t len = 2 + rng() % (kSmallPiece - 1);
    bool bytes = round % 3 == 0;
    for (std::size_t i = 0; i < len; ++i) {
      piece.push_back(bytes ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()]);
    }
    Ids linear;
    Ids heap;
    bpe_encode_linear_for_testing(Vocab::o200k(), piece, linear);
    bpe_encode_heap_for_testing(Vocab::o200k(), piece, heap);
    ASSERT_EQ(linear, heap) << piece;
  }
}

TEST(Bpe, MemoisedShortPiecesGiveTheMergedIds) {
  // Short pieces that are not tokens go through a per-thread cache: the first call fills it,
  // the second reads it; both must equal a fresh merge, also after slot collisions.
  std::mt19937 rng(5);
  std::string alphabet = "abcdeghilmnoprstuxyz_ABCXYZ-=.0";
  std::vector<std::string> pieces;
  for (int i = 0; i < 20000; ++i) {
    std::string piece;
    std::size_t len = 3 + rng() % 14;
    for (std::size_t k = 0; k < len; ++k) piece.push_back(alphabet[rng() % alphabet.size()]);
    pieces.push_back(piece);
  }
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::string& piece : pieces) {
      Ids fresh;
      bpe_encode_linear_for_testing(Vocab::o200k(), piece, fresh);
      if (fresh.size() > 1) {
        ASSERT_EQ(encode(piece), fresh) << piece;
        ASSERT_EQ(bpe_count(Vocab::o200k(), piece), fresh.size()) << piece;
      }
    }
  }
}

TEST(Bpe, LongPiecesUseTheHeapMerger) {
  // A 10,000-letter run is one piece; its tokens must still decode to it, and a repeated
  // pattern gives a periodic token sequence.
  std::string piece;
  for (int i = 0; i < 2500; ++i) piece += "abcd";
  Ids ids = encode(piece);
  EXPECT_EQ(decode(ids), piece);
  EXPECT_EQ(bpe_count(Vocab::o200k(), piece), ids.size());
  EXPECT_LT(ids.size(), piece.size() / 2);
  Ids heap;
  bpe_encode_heap_for_testing(Vocab::o200k(), piece, heap);
  EXPECT_EQ(heap, ids);
}

}  // namespace
}  // namespace caveman::tokens
