// The pre-tokenizer's ASCII fast paths (punctuation, digit and white-space pieces, lower-case
// words) end every piece where the general path — the pattern's alternatives in order — does.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/corpus.h"
#include "support/corpus_skip.h"
#include "tokens/pretokenize.h"

namespace caveman::tokens {
namespace {

// Every ASCII byte plus non-ASCII characters of each class the pattern distinguishes.
std::vector<std::string> alphabet() {
  std::vector<std::string> a;
  for (int c = 0; c < 128; ++c) a.emplace_back(1, static_cast<char>(c));
  for (const char* s : {
           "\xC3\xA9",          // é  Ll
           "\xC3\x89",          // É  Lu
           "\xC7\x85",          // ǅ  Lt
           "\xCA\xB0",          // ʰ  Lm
           "\xE4\xB8\xAD",      // 中 Lo
           "\xCC\x81",          // combining acute, Mn
           "\xD9\xA3",          // Arabic-Indic three, Nd
           "\xE2\x85\xA0",      // Ⅰ  Nl
           "\xC2\xB2",          // ²  No
           "\xC2\xA0",          // NBSP, White_Space
           "\xC2\x85",          // NEL, White_Space
           "\xE2\x80\xA8",      // line separator
           "\xE3\x80\x80",      // ideographic space
           "\xE2\x80\xA6",      // …  Po
           "\xC5\xBF",          // ſ  (folds to s: a contraction letter)
           "\xF0\x9F\x98\x80",  // emoji, So
           "\xFF", "\x80", "\xC3", "\xE2\x80",  // invalid / truncated
       }) {
    a.emplace_back(s);
  }
  // Weight the bytes the fast paths care about.
  for (const char* s : {" ", " ", "\n", "\r\n", "\t", "\"", ":", ",", "{", "}", "/", "'", "1",
                        "22", "a", "Z", "'s", "  ", "\n  "}) {
    a.emplace_back(s);
  }
  return a;
}

TEST(PretokenizeFastPath, EveryOffsetOfRandomTextsMatchesTheGeneralPath) {
  const std::vector<std::string> a = alphabet();
  std::mt19937 rng(20261130);
  std::uniform_int_distribution<std::size_t> pick(0, a.size() - 1);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const int len = 1 + round % 40;
    for (int i = 0; i < len; ++i) text += a[pick(rng)];
    for (std::size_t pos = 0; pos < text.size(); ++pos) {
      ASSERT_EQ(next_piece_end(text, pos), reference_piece_end(text, pos))
          << "round " << round << " offset " << pos;
    }
  }
}

TEST(PretokenizeFastPath, KnownPieces) {
  // JSON and log syntax: punctuation runs absorb line feeds and '/', white space before a
  // line feed goes with it, a lone space before punctuation joins it, digits go by three.
  EXPECT_EQ(pretokenize("\": \"a\",\n  \"b\": 12345}"),
            (std::vector<std::string_view>{"\":", " \"", "a", "\",\n", " ", " \"", "b", "\":",
                                           " ", "123", "45", "}"}));
  EXPECT_EQ(pretokenize("x;\n/usr \t\n\ny"),
            (std::vector<std::string_view>{"x", ";\n/", "usr", " \t\n\n", "y"}));
}

TEST(PretokenizeFastPath, CorpusPiecesMatchTheGeneralPath) {
  std::vector<corpus::CorpusFile> files = corpus::corpus_manifest();
  if (files.empty()) CAVEMAN_CORPUS_MISSING() << "corpus not available";
  for (const corpus::CorpusFile& f : files) {
    std::string text = corpus::read_file(f.path);
    for (std::size_t pos = 0; pos < text.size();) {
      std::size_t end = next_piece_end(text, pos);
      ASSERT_EQ(end, reference_piece_end(text, pos)) << f.name << " offset " << pos;
      pos = end;
    }
  }
}

}  // namespace
}  // namespace caveman::tokens
