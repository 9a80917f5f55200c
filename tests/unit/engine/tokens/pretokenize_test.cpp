// The o200k pre-tokenizer, one group of cases per alternative of the split pattern
//   1 [^\r\n\p{L}\p{N}]?[Lu Lt Lm Lo M]*[Ll Lm Lo M]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//   2 [^\r\n\p{L}\p{N}]?[Lu Lt Lm Lo M]+[Ll Lm Lo M]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//   3 \p{N}{1,3}
//   4  ?[^\s\p{L}\p{N}]+[\r\n/]*
//   5 \s*[\r\n]+
//   6 \s+(?!\S)
//   7 \s+
// plus White_Space details, invalid UTF-8 and the invariants every split must keep. Expected
// splits follow the pattern's leftmost-first backtracking semantics (tiktoken); the e2e test
// tests/e2e/tokens/ cross-checks the same rules against the JS peers on generated text.
#include "tokens/pretokenize.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace caveman::tokens {
namespace {

using Pieces = std::vector<std::string>;

Pieces split(std::string_view text) {
  Pieces out;
  for (std::string_view p : pretokenize(text)) out.emplace_back(p);
  return out;
}

// --- Alternative 1: optional prefix, upper-set run, lower-set run, contraction -------------

TEST(PretokenizeAlt1, LowercaseWordsTakeOnePrefixCharacter) {
  EXPECT_EQ(split("hello world"), (Pieces{"hello", " world"}));
  EXPECT_EQ(split("a.b,c"), (Pieces{"a", ".b", ",c"}));
  EXPECT_EQ(split("\tfoo"), (Pieces{"\tfoo"}));                // any non-\r\n whitespace
  EXPECT_EQ(split("\xC2\xA0nbsp"), (Pieces{"\xC2\xA0nbsp"}));  // U+00A0 is a prefix too
}

TEST(PretokenizeAlt1, PrefixIsNeverNewlineLetterOrNumber) {
  EXPECT_EQ(split("\nabc"), (Pieces{"\n", "abc"}));
  EXPECT_EQ(split("\rabc"), (Pieces{"\r", "abc"}));
  EXPECT_EQ(split("1abc"), (Pieces{"1", "abc"}));
  EXPECT_EQ(split("..abc"), (Pieces{"..", "abc"}));  // one prefix at most: alt 4 wins
}

TEST(PretokenizeAlt1, CapitalisedAndCamelCaseWords) {
  EXPECT_EQ(split("Hello"), (Pieces{"Hello"}));
  EXPECT_EQ(split("HTTPServer"), (Pieces{"HTTPServer"}));  // upper run, then lower run
  EXPECT_EQ(split("camelCase"), (Pieces{"camel", "Case"}));
  EXPECT_EQ(split("getHTTPResponseCode"), (Pieces{"get", "HTTPResponse", "Code"}));
  EXPECT_EQ(split(" XMLHttpRequest"), (Pieces{" XMLHttp", "Request"}));
}

TEST(PretokenizeAlt1, OtherLettersAndMarksBelongToBothRuns) {
  EXPECT_EQ(split("你好世界"), (Pieces{"你好世界"}));            // Lo
  EXPECT_EQ(split(" こんにちは"), (Pieces{" こんにちは"}));      // Lo with a space prefix
  EXPECT_EQ(split("cafe\xCC\x81s"), (Pieces{"cafe\xCC\x81s"}));  // e + U+0301 (Mn) + s
  EXPECT_EQ(split("नमस्ते"), (Pieces{"नमस्ते"}));                    // Lo + Mn/Mc
  EXPECT_EQ(split("Ωmega"), (Pieces{"Ωmega"}));                  // Lu then Ll
}

TEST(PretokenizeAlt1, BacktrackingEndsAfterTheLastLowerSetCharacter) {
  // ʰ (U+02B0, Lm) is in both sets, A and B (Lu) only in the upper set. Alternative 1 wins
  // with the shortest body it can: [upper]* gives back "AB" so [lower]+ can take ʰ.
  EXPECT_EQ(split("\xCA\xB0"
                  "AB."),
            (Pieces{"\xCA\xB0", "AB", "."}));
  // A combining mark at the start: as prefix it leaves "ABC" without a lower-set character,
  // so alternative 1 matches the mark alone (no prefix), then alternative 2 takes "ABC".
  EXPECT_EQ(split("\xCC\x81"
                  "ABC"),
            (Pieces{"\xCC\x81", "ABC"}));
  // ...but followed by a lower-case letter the mark is the prefix of the whole word.
  EXPECT_EQ(split("\xCC\x81"
                  "abc"),
            (Pieces{"\xCC\x81"
                    "abc"}));
}

TEST(PretokenizeAlt1, ContractionsAreCaseInsensitive) {
  EXPECT_EQ(split("don't"), (Pieces{"don't"}));
  EXPECT_EQ(split("they're we've I'm you'll he'd it's"),
            (Pieces{"they're", " we've", " I'm", " you'll", " he'd", " it's"}));
  EXPECT_EQ(split("they'RE we'Ve you'lL HE'D"), (Pieces{"they'RE", " we'Ve", " you'lL", " HE'D"}));
  EXPECT_EQ(split("dog's's"), (Pieces{"dog's", "'s"}));  // at most one contraction
  EXPECT_EQ(split("it'x"), (Pieces{"it", "'x"}));
  EXPECT_EQ(split("we'r"), (Pieces{"we", "'r"}));
  EXPECT_EQ(split("he'l"), (Pieces{"he", "'l"}));
  EXPECT_EQ(split("it\xE2\x80\x99s"), (Pieces{"it", "\xE2\x80\x99s"}));  // only ASCII '
}

TEST(PretokenizeAlt1, LongSIsACaseInsensitiveS) {
  // Simple case folding maps U+017F LATIN SMALL LETTER LONG S to s, so (?i:'s) matches 'ſ
  // in tiktoken (Rust regex). The JS peers spell the class as [sS] and miss it.
  EXPECT_EQ(split("it'\xC5\xBF"), (Pieces{"it'\xC5\xBF"}));
  EXPECT_EQ(split("IT'\xC5\xBF"), (Pieces{"IT'\xC5\xBF"}));
}

// --- Alternative 2: optional prefix, upper-set run (≥ 1), lower-set run -------------------

TEST(PretokenizeAlt2, AllCapsWords) {
  EXPECT_EQ(split("ABC"), (Pieces{"ABC"}));
  EXPECT_EQ(split(" ABC DEF"), (Pieces{" ABC", " DEF"}));
  EXPECT_EQ(split("(ABC)"), (Pieces{"(ABC", ")"}));
  EXPECT_EQ(split("I'M"), (Pieces{"I'M"}));
  EXPECT_EQ(split("ABC'LL"), (Pieces{"ABC'LL"}));
  EXPECT_EQ(split("ǅ"), (Pieces{"ǅ"}));  // U+01C5 is Lt: upper set only
}

// --- Alternative 3: one to three numbers ------------------------------------------------

TEST(PretokenizeAlt3, NumbersInGroupsOfThree) {
  EXPECT_EQ(split("1234567"), (Pieces{"123", "456", "7"}));
  EXPECT_EQ(split(" 42"), (Pieces{" ", "42"}));  // no prefix for numbers
  EXPECT_EQ(split("x2"), (Pieces{"x", "2"}));
  EXPECT_EQ(split("١٢٣٤"), (Pieces{"١٢٣", "٤"}));  // Arabic-Indic digits (Nd)
  EXPECT_EQ(split("ⅫⅫⅫⅫ"), (Pieces{"ⅫⅫⅫ", "Ⅻ"}));  // Nl
  EXPECT_EQ(split("½¾"), (Pieces{"½¾"}));          // No
  EXPECT_EQ(split("v1.2.3"), (Pieces{"v", "1", ".", "2", ".", "3"}));
}

// --- Alternative 4: optional space, punctuation/symbol run, trailing \r \n / ------------

TEST(PretokenizeAlt4, PunctuationRuns) {
  EXPECT_EQ(split("!!!"), (Pieces{"!!!"}));
  EXPECT_EQ(split("a !!!"), (Pieces{"a", " !!!"}));
  EXPECT_EQ(split("a  !!!"), (Pieces{"a", " ", " !!!"}));
  EXPECT_EQ(split("{\"k\":1}"), (Pieces{"{\"", "k", "\":", "1", "}"}));
  EXPECT_EQ(split(" 👍👍"), (Pieces{" 👍👍"}));  // symbols (So) count as punctuation
}

TEST(PretokenizeAlt4, TrailingNewlinesAndSlashes) {
  EXPECT_EQ(split(";\n\nx"), (Pieces{";\n\n", "x"}));
  EXPECT_EQ(split("}\r\n"), (Pieces{"}\r\n"}));
  EXPECT_EQ(split("*/\n//\nx"), (Pieces{"*/\n//\n", "x"}));
  EXPECT_EQ(split(".\n \n"), (Pieces{".\n", " \n"}));  // a space ends the tail
}

TEST(PretokenizeAlt4, MarksWithoutABaseAreSymbols) {
  EXPECT_EQ(split("1\xCC\x81\xCC\x81"), (Pieces{"1", "\xCC\x81\xCC\x81"}));
  EXPECT_EQ(split(" \xCC\x81!"), (Pieces{" \xCC\x81", "!"}));  // alt 1: prefix + mark
}

// --- Alternatives 5–7: whitespace ----------------------------------------------------------

TEST(PretokenizeAlt5, WhitespaceThroughTheLastNewline) {
  EXPECT_EQ(split("a\n\nb"), (Pieces{"a", "\n\n", "b"}));
  EXPECT_EQ(split("a  \n \n  b"), (Pieces{"a", "  \n \n", " ", " b"}));
  EXPECT_EQ(split("a\r\n\tb"), (Pieces{"a", "\r\n", "\tb"}));
  EXPECT_EQ(split("\n"), (Pieces{"\n"}));
}

TEST(PretokenizeAlt6, WhitespaceRunLeavesItsLastCharacterToTheNextPiece) {
  EXPECT_EQ(split("a   b"), (Pieces{"a", "  ", " b"}));
  EXPECT_EQ(split("a   "), (Pieces{"a", "   "}));  // at the end: the whole run
  EXPECT_EQ(split("a \t 1"), (Pieces{"a", " \t", " ", "1"}));
}

TEST(PretokenizeAlt7, SingleWhitespaceBeforeANonWord) {
  EXPECT_EQ(split("a 1"), (Pieces{"a", " ", "1"}));
  EXPECT_EQ(split("\t!"), (Pieces{"\t", "!"}));  // only a plain space joins punctuation
  EXPECT_EQ(split(" "), (Pieces{" "}));
}

TEST(PretokenizeWhiteSpace, UsesTheUnicodeWhiteSpaceProperty) {
  // U+0085 NEXT LINE is White_Space (JS \s says no).
  EXPECT_EQ(split("a\xC2\x85\xC2\x85"
                  "b"),
            (Pieces{"a", "\xC2\x85",
                    "\xC2\x85"
                    "b"}));
  // U+FEFF is not White_Space (JS \s says yes): it is a symbol, so a prefix of the word.
  EXPECT_EQ(split("\xEF\xBB\xBFhello"), (Pieces{"\xEF\xBB\xBFhello"}));
  EXPECT_EQ(split("a \xEF\xBB\xBF"), (Pieces{"a", " \xEF\xBB\xBF"}));
  // U+3000 IDEOGRAPHIC SPACE and U+2028 LINE SEPARATOR are whitespace but not [\r\n].
  EXPECT_EQ(split("\xE3\x80\x80\xE3\x80\x80x"), (Pieces{"\xE3\x80\x80", "\xE3\x80\x80x"}));
  EXPECT_EQ(split("a\xE2\x80\xA8"
                  "b"),
            (Pieces{"a",
                    "\xE2\x80\xA8"
                    "b"}));
  // U+001C..U+001F are not White_Space (Python's isspace() says yes).
  EXPECT_EQ(split("a\x1C"
                  "b"),
            (Pieces{"a",
                    "\x1C"
                    "b"}));
}

// --- Invalid UTF-8: each bad byte is a U+FFFD-like symbol; bytes are kept -----------------

TEST(PretokenizeInvalidUtf8, EachBadByteIsOneSymbolCharacter) {
  EXPECT_EQ(split("\xFF"
                  "abc"),
            (Pieces{"\xFF"
                    "abc"}));  // one-character prefix
  EXPECT_EQ(split("ab\xFF\xFE"), (Pieces{"ab", "\xFF\xFE"}));
  EXPECT_EQ(split("\xE2\x82"
                  "abc"),
            (Pieces{"\xE2\x82", "abc"}));                      // truncated: two bytes
  EXPECT_EQ(split("ab\xE4\xBD"), (Pieces{"ab", "\xE4\xBD"}));  // truncated at the end
  EXPECT_EQ(split("\xC0\xAF"
                  "x"),
            (Pieces{"\xC0\xAF", "x"}));                                // overlong
  EXPECT_EQ(split("\xED\xA0\x80"), (Pieces{"\xED\xA0\x80"}));          // surrogate
  EXPECT_EQ(split("\xF4\x90\x80\x80"), (Pieces{"\xF4\x90\x80\x80"}));  // > U+10FFFF
  EXPECT_EQ(split(" \x80"
                  "1"),
            (Pieces{" \x80", "1"}));
}

// --- Invariants --------------------------------------------------------------------------

TEST(PretokenizeInvariants, PiecesAreNonEmptyAndConcatenateToTheInput) {
  std::mt19937 rng(12345);
  std::vector<std::string> atoms = {
      "a",  "Z", "'s",       "'",    "1", " ",        "\n", "\r", "\t", "é",           "\xCC\x81",
      "你", "👍", "\xC2\x85", "\xFF", "/", "\xE2\x82", "ǅ",  "ʰ",  ".",  "\xEF\xBB\xBF"};
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    int len = static_cast<int>(rng() % 40);
    for (int i = 0; i < len; ++i) text += atoms[rng() % atoms.size()];
    std::string joined;
    for (std::string_view p : pretokenize(text)) {
      ASSERT_FALSE(p.empty()) << text;
      joined += p;
    }
    ASSERT_EQ(joined, text);
  }
  EXPECT_TRUE(pretokenize("").empty());
}

}  // namespace
}  // namespace caveman::tokens
