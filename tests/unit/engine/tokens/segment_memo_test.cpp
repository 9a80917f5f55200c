// SegmentMemo: the memoized o200k count equals O200kCounter::count on any text, including
// texts whose lines were rearranged, dropped or replaced after another text was remembered
// (what Engine::compress does with a compressor's output).
#include "tokens/segment_memo.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/corpus.h"
#include "support/corpus_skip.h"

namespace caveman::tokens {
namespace {

const O200kCounter& counter() { return default_counter(); }

// Fragments around the cut rule: white space of every kind after a line feed, '/', CR,
// punctuation that absorbs line feeds, contractions, non-ASCII spaces and invalid bytes.
const std::vector<std::string> kFragments = {
    "\n",   "\r\n", "\n\n", " ",    "\t",   "  ",   "/",     "//",     "a",
    "Zed",  "123",  "'s",   "'ll",  ";",    "{",    "}",     "-->",    "x.y",
    "\xC2\xA0" /* NBSP */,   "\xC2\x85" /* NEL */,  "\xE2\x80\xA8" /* LS */,
    "\xE3\x80\x80" /* ideographic space */,          "\xFF",  "\xC3\xA9t\xC3\xA9",
    "\x0B", "\x0C", "\x1F", "\x7F", "#",    "\"",   "word ", " the", "\n/usr", "\n ",
};

std::string random_text(std::mt19937& rng, int pieces) {
  std::uniform_int_distribution<std::size_t> pick(0, kFragments.size() - 1);
  std::string s;
  for (int i = 0; i < pieces; ++i) s += kFragments[pick(rng)];
  return s;
}

TEST(SegmentMemo, EmptyTextHasNoSegmentsAndNoTokens) {
  SegmentMemo memo(counter());
  EXPECT_TRUE(SegmentMemo::segments("").empty());
  EXPECT_EQ(memo.count("", true), 0u);
}

TEST(SegmentMemo, CutsOnlyBeforePrintableAsciiOtherThanSlash) {
  EXPECT_EQ(SegmentMemo::segments("a\nb\n"), (std::vector<std::string_view>{"a\n", "b\n"}));
  // White space, '/', CR and non-ASCII after the line feed: no cut.
  EXPECT_EQ(SegmentMemo::segments("a\n b").size(), 1u);
  EXPECT_EQ(SegmentMemo::segments("a;\n/b").size(), 1u);
  EXPECT_EQ(SegmentMemo::segments("a\n\rb").size(), 1u);
  EXPECT_EQ(SegmentMemo::segments("a\n\n").size(), 1u);
  EXPECT_EQ(SegmentMemo::segments("a\n\xC2\xA0x").size(), 1u);
  EXPECT_EQ(SegmentMemo::segments("a\n\x7F").size(), 1u);
}

TEST(SegmentMemo, SegmentCountsAddUpToTheWholeCount) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string text = random_text(rng, 1 + round % 60);
    std::size_t sum = 0;
    for (std::string_view seg : SegmentMemo::segments(text)) sum += counter().count(seg);
    ASSERT_EQ(sum, counter().count(text)) << "round " << round;
    SegmentMemo memo(counter());
    ASSERT_EQ(memo.count(text, true), counter().count(text)) << "round " << round;
  }
}

TEST(SegmentMemo, RememberedSegmentsCountAnOutputExactly) {
  std::mt19937 rng(11);
  for (int round = 0; round < 500; ++round) {
    std::string input = random_text(rng, 80);
    SegmentMemo memo(counter());
    ASSERT_EQ(memo.count(input, true), counter().count(input));
    // An "output": the input's segments with some dropped, some repeated, a marker inserted.
    std::vector<std::string_view> segs = SegmentMemo::segments(input);
    std::string output;
    for (std::size_t i = 0; i < segs.size(); ++i) {
      if (rng() % 4 == 0) continue;
      output += segs[i];
      if (rng() % 7 == 0) output += "\xE2\x80\xA6 3 lines elided (caveman) \xE2\x80\xA6\n";
      if (rng() % 9 == 0) output += segs[i];
    }
    ASSERT_EQ(memo.count(output, false), counter().count(output)) << "round " << round;
  }
}

TEST(SegmentMemo, CorpusFilesCountExactly) {
  std::vector<corpus::CorpusFile> files = corpus::corpus_manifest();
  if (files.empty()) CAVEMAN_CORPUS_MISSING() << "corpus not available";
  for (const corpus::CorpusFile& f : files) {
    std::string text = corpus::read_file(f.path);
    SegmentMemo memo(counter());
    EXPECT_EQ(memo.count(text, true), counter().count(text)) << f.name;
    // Counting it again comes entirely from the memo.
    EXPECT_EQ(memo.count(text, false), counter().count(text)) << f.name;
  }
}

}  // namespace
}  // namespace caveman::tokens
