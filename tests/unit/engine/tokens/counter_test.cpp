// O200kCounter end to end (pre-tokenizer + BPE + embedded vocabulary) and ApproxCounter.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "caveman/tokens.h"
#include "tokens/vocab.h"

namespace caveman::tokens {
namespace {

using Ids = std::vector<std::uint32_t>;

std::string decode(const Ids& ids) {
  std::string out;
  for (std::uint32_t id : ids) out += Vocab::o200k().token_bytes(id);
  return out;
}

TEST(O200kCounter, NameAndEmptyInput) {
  const O200kCounter& c = default_counter();
  EXPECT_EQ(c.name(), "o200k_base");
  EXPECT_EQ(c.count(""), 0u);
  EXPECT_TRUE(c.encode("").empty());
  EXPECT_EQ(&default_counter(), &c);
}

TEST(O200kCounter, KnownSentence) {
  // Ids from gpt-tokenizer@4.0.0 encode(..., {disallowedSpecial: new Set()}) for o200k_base.
  std::string text = "Hello, world! HTTPServer don't I'll   spaces\n\n  123456 <|endoftext|>";
  Ids expected = {13225, 11,  2375, 0,     21929, 6444, 4128, 17291, 256, 18608, 279,
                  220,   220, 7633, 19354, 464,   91,   419,  1440,  919, 91,    29};
  EXPECT_EQ(default_counter().encode(text), expected);
  EXPECT_EQ(default_counter().count(text), expected.size());
}

TEST(O200kCounter, SpecialTokensAreOrdinaryText) {
  Ids ids = default_counter().encode("<|endoftext|><|endofprompt|>");
  EXPECT_EQ(std::count(ids.begin(), ids.end(), 199999u), 0);
  EXPECT_EQ(std::count(ids.begin(), ids.end(), 200018u), 0);
  EXPECT_GT(ids.size(), 2u);
  EXPECT_EQ(decode(ids), "<|endoftext|><|endofprompt|>");
}

TEST(O200kCounter, ArbitraryBytesCountAndRoundTrip) {
  std::mt19937 rng(2024);
  for (int round = 0; round < 300; ++round) {
    std::string text;
    int len = static_cast<int>(rng() % 2000);
    for (int i = 0; i < len; ++i) text.push_back(static_cast<char>(rng() % 256));
    Ids ids = default_counter().encode(text);
    ASSERT_EQ(decode(ids), text);
    ASSERT_EQ(default_counter().count(text), ids.size());
  }
}

TEST(O200kCounter, InvalidUtf8CountsTheRawBytes) {
  // "\xFF" + "abc" is one piece (the bad byte is a one-character prefix); its tokens are
  // those of the raw bytes, not of U+FFFD.
  Ids ids = default_counter().encode(
      "\xFF"
      "abc");
  EXPECT_EQ(decode(ids),
            "\xFF"
            "abc");
  Ids replaced = default_counter().encode(
      "\xEF\xBF\xBD"
      "abc");
  EXPECT_NE(ids, replaced);
}

TEST(O200kCounter, ConcurrentCallsAgree) {
  std::string text;
  for (int i = 0; i < 40; ++i) {
    text += "Línea " + std::to_string(i) + ": HTTPServer 你好 don't 👍\n";
    text += std::string(130 + i, 'q');  // long pieces exercise the per-thread heap merger
  }
  std::size_t expected = default_counter().count(text);
  std::vector<std::size_t> got(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 5; ++k) got[t] = default_counter().count(text);
    });
  }
  for (auto& th : threads) th.join();
  for (std::size_t n : got) EXPECT_EQ(n, expected);
}

TEST(ApproxCounter, RunesOverFour) {
  ApproxCounter c;
  EXPECT_EQ(c.name(), "approx-chars/4");
  EXPECT_EQ(c.count(""), 0u);
  EXPECT_EQ(c.count("ab"), 1u);
  EXPECT_EQ(c.count("abcdefgh"), 2u);
  EXPECT_EQ(c.count("你好世界你好世界"), 2u);
}

}  // namespace
}  // namespace caveman::tokens
