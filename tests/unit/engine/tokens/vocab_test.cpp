// The embedded o200k_base table: every rank round-trips, unknown strings miss.
#include "tokens/vocab.h"

#include <gtest/gtest.h>

#include <string>

namespace caveman::tokens {
namespace {

TEST(Vocab, HasEveryO200kRankAndEverySingleByte) {
  const Vocab& v = Vocab::o200k();
  EXPECT_EQ(v.size(), 199998u);
  EXPECT_EQ(v.max_token_bytes(), 128u);
  for (int b = 0; b < 256; ++b) {
    unsigned char byte = static_cast<unsigned char>(b);
    ASSERT_NE(v.byte_rank(byte), kNoRank) << b;
    EXPECT_EQ(v.rank(&byte, 1), v.byte_rank(byte));
  }
}

TEST(Vocab, EveryTokenLooksUpToItsOwnRank) {
  const Vocab& v = Vocab::o200k();
  for (std::uint32_t r = 0; r < v.size(); ++r) {
    std::string_view bytes = v.token_bytes(r);
    ASSERT_FALSE(bytes.empty()) << r;
    ASSERT_EQ(v.rank(bytes), r) << r;
  }
}

TEST(Vocab, PairTableMatchesTheTokens) {
  const Vocab& v = Vocab::o200k();
  int pairs = 0;
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      unsigned char bytes[2] = {static_cast<unsigned char>(a), static_cast<unsigned char>(b)};
      std::uint32_t r = v.pair_rank(bytes);
      if (r == kNoRank) continue;
      ++pairs;
      ASSERT_EQ(v.token_bytes(r), std::string_view(reinterpret_cast<const char*>(bytes), 2));
    }
  }
  int two_byte_tokens = 0;
  for (std::uint32_t r = 0; r < v.size(); ++r) two_byte_tokens += v.token_bytes(r).size() == 2;
  EXPECT_EQ(pairs, two_byte_tokens);
}

TEST(Vocab, KnownTokens) {
  // Ids as gpt-tokenizer@4.0.0 / tiktoken report them for o200k_base.
  const Vocab& v = Vocab::o200k();
  EXPECT_EQ(v.rank("Hello"), 13225u);
  EXPECT_EQ(v.rank(" world"), 2375u);
  EXPECT_EQ(v.rank("!"), 0u);
  EXPECT_EQ(v.token_bytes(13225), "Hello");
}

TEST(Vocab, UnknownAndOutOfRange) {
  const Vocab& v = Vocab::o200k();
  EXPECT_EQ(v.rank(""), kNoRank);
  EXPECT_EQ(v.rank("qzxqzxqzxqzx-not-a-token"), kNoRank);
  EXPECT_EQ(v.rank(std::string(300, 'a')), kNoRank);  // longer than any token
  EXPECT_EQ(v.rank("<|endoftext|>"), kNoRank);        // special tokens are not in the table
  EXPECT_TRUE(v.token_bytes(199998).empty());
  EXPECT_TRUE(v.token_bytes(199999).empty());
}

}  // namespace
}  // namespace caveman::tokens
