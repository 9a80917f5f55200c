#include "compress/diff/diff_words.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "caveman/tokens.h"
#include "compress/compressors.h"
#include "evals/marker_facts.h"

namespace caveman::compress::diff {
namespace {

TEST(DiffWordsTest, AnAlikePairIsWrittenOnce) {
  std::optional<std::string> w = word_diff_line("-    return format_to(out, fmt, args, loc);",
                                                "+    return vformat_to(out, fmt, args, loc);");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(*w, "~    return [-format_to-]{+vformat_to+}(out, fmt, args, loc);");
  auto back = split_word_diff(*w);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->first, "-    return format_to(out, fmt, args, loc);");
  EXPECT_EQ(back->second, "+    return vformat_to(out, fmt, args, loc);");
}

TEST(DiffWordsTest, SeveralEditsInOneLineEachGetTheirBrackets) {
  std::optional<std::string> w = word_diff_line("-  int count = compute(a, 10); // old note",
                                                "+  long count = compute(a, 20); // old note");
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(*w, "~  [-int-]{+long+} count = compute(a, [-10-]{+20+}); // old note");
}

TEST(DiffWordsTest, PairsThatAreNotAlikeOrHoldTheMarkupStayApart) {
  EXPECT_EQ(word_diff_line("-int x = 1;", "+std::string name_of_thing;"), std::nullopt);
  EXPECT_EQ(word_diff_line("-a[-1] = b;", "+a[-2] = b;"), std::nullopt);
  EXPECT_EQ(word_diff_line("-x {+ y", "+x {+ z"), std::nullopt);
  EXPECT_EQ(word_diff_line("-same line\r", "+same lines\r"), std::nullopt);
  EXPECT_EQ(word_diff_line(" context", "+context"), std::nullopt);
  // Indentation alone does not make a pair alike.
  EXPECT_EQ(word_diff_line("-            foo();", "+            bar = 1;"), std::nullopt);
}

TEST(DiffWordsTest, OtherLinesAreNoWordDiff) {
  EXPECT_EQ(split_word_diff("~ plain text without brackets"), std::nullopt);
  EXPECT_EQ(split_word_diff("-[-x-]"), std::nullopt);
  EXPECT_EQ(split_word_diff("~a [-unclosed"), std::nullopt);
}

TEST(DiffWordsTest, GeneratedPairsReadBackExactly) {
  std::mt19937 rng(21);
  const char* words[] = {"foo", "bar", "(", ")", "x",  " ", "  ", ",", "-",      "+",
                         "[",   "]",   "{", "}", "42", "é", "->", ";", "return", "const"};
  auto line = [&](std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += words[rng() % std::size(words)];
    return s;
  };
  int written = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string a = line(1 + rng() % 20), b = a;
    for (int e = 0, n = 1 + static_cast<int>(rng() % 3); e < n && !b.empty(); ++e) {
      b.replace(rng() % b.size(), rng() % 3, line(rng() % 3));
    }
    std::optional<std::string> w = word_diff_line("-" + a, "+" + b);
    if (!w) continue;
    ++written;
    EXPECT_EQ(word_diff_line("-" + a, "+" + b), w) << "not deterministic";
    auto back = split_word_diff(*w);
    ASSERT_TRUE(back.has_value()) << *w;
    EXPECT_EQ(back->first, "-" + a);
    EXPECT_EQ(back->second, "+" + b);
  }
  EXPECT_GT(written, 100);
}

// Each edited line has a twin differing only in a digit: a rare line (one that occurs once,
// digits masked) stays as written, never as a word diff.
std::string edited_diff() {
  std::string d =
      "diff --git a/src/format.h b/src/format.h\n"
      "index 1111111..2222222 100644\n"
      "--- a/src/format.h\n"
      "+++ b/src/format.h\n"
      "@@ -10,14 +10,14 @@ namespace fmt {\n"
      " template <typename OutputIt, typename... T>\n"
      "-FMT_INLINE auto format_to_1(OutputIt out, format_string<T...> fmt, T&&... args) -> "
      "OutputIt {\n"
      "+FMT_INLINE auto format_to_1(OutputIt&& out, format_string<T...> fmt, T&&... args) -> "
      "OutputIt {\n"
      "   return vformat_to(out, fmt.str, vargs<T...>{{args...}});\n"
      " }\n"
      " template <typename OutputIt, typename... T>\n"
      "-FMT_INLINE auto format_to_2(OutputIt out, format_string<T...> fmt, T&&... args) -> "
      "OutputIt {\n"
      "+FMT_INLINE auto format_to_2(OutputIt&& out, format_string<T...> fmt, T&&... args) -> "
      "OutputIt {\n"
      " }\n"
      " \n"
      " // Formats arguments and writes the output to the buffer.\n"
      " template <typename... T>\n"
      "-auto formatted_size_1(format_string<T...> fmt, T&&... args) -> size_t {\n"
      "+FMT_NODISCARD auto formatted_size_1(format_string<T...> fmt, T&&... args) -> size_t {\n"
      " }\n"
      "-auto formatted_size_2(format_string<T...> fmt, T&&... args) -> size_t {\n"
      "+FMT_NODISCARD auto formatted_size_2(format_string<T...> fmt, T&&... args) -> size_t {\n"
      " }\n";
  return d;
}

TEST(DiffWordsTest, TheDiffCompressorWritesAlikePairsAsWordDiffs) {
  auto c = make_diff_compressor(tokens::default_counter());
  std::string in = edited_diff();
  std::optional<CompressorOutput> out = c->compress(in, "");
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(
      out->bytes.find("\n~FMT_INLINE auto format_to_1(OutputIt{+&&+} out, format_string<T...> fmt, "
                      "T&&... args) -> OutputIt {\n"),
      std::string::npos)
      << out->bytes;
  EXPECT_NE(out->bytes.find("~{+FMT_NODISCARD +}auto formatted_size_2("), std::string::npos)
      << out->bytes;
  EXPECT_EQ(c->compress(out->bytes, ""), std::nullopt) << "compressing the output again changes it";
  evals::MarkerFacts facts = evals::check_marker_facts("diff", in, out->bytes);
  EXPECT_TRUE(facts.failures.empty()) << facts.failures.front();
}

// The two lines differ only in a digit, so neither is rare (a rare line stays as written).
TEST(DiffWordsTest, ARunOfReplacedLinesIsWrittenPairByPairAndReadBackInOrder) {
  std::string in =
      "diff --git a/src/chrono.h b/src/chrono.h\n"
      "index 1111111..2222222 100644\n"
      "--- a/src/chrono.h\n"
      "+++ b/src/chrono.h\n"
      "@@ -20,8 +20,8 @@ class tm_writer {\n"
      "   void on_iso_week_based_year() {\n"
      "-    const auto year_1 = tm_year(1);\n"
      "-    const auto year_2 = tm_year(2);\n"
      "+    auto year_1 = tm_year(1);\n"
      "+    auto year_2 = tm_year(2);\n"
      "     if (week_number <= iso_week_num_max) return;\n"
      "     write_year(year);\n"
      "   }\n"
      "   void on_short_year() { write2(split_year_lower(tm_year())); }\n"
      "   void on_offset_year() { write2(split_year_lower(tm_year())); }\n";
  auto c = make_diff_compressor(tokens::default_counter());
  std::optional<CompressorOutput> out = c->compress(in, "");
  ASSERT_TRUE(out.has_value());
  EXPECT_NE(out->bytes.find("   void on_iso_week_based_year() {\n"
                            "~    [-const -]auto year_1 = tm_year(1);\n"
                            "~    [-const -]auto year_2 = tm_year(2);\n"
                            "     if (week_number"),
            std::string::npos)
      << out->bytes;
  EXPECT_EQ(c->compress(out->bytes, ""), std::nullopt);
  // The grader reads the run back as both removed lines, then both added lines.
  evals::MarkerFacts facts = evals::check_marker_facts("diff", in, out->bytes);
  EXPECT_TRUE(facts.failures.empty()) << facts.failures.front();
}

}  // namespace
}  // namespace caveman::compress::diff
