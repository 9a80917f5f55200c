#include "core/wrappers.h"

#include <gtest/gtest.h>

namespace caveman::core {
namespace {

// One Read-tool listing line: the number right-aligned in `pad` columns, `sep`, the text.
std::string gutter_line(int n, const std::string& text, const std::string& sep = "\t", int pad = 6) {
  std::string num = std::to_string(n);
  return std::string(pad > static_cast<int>(num.size()) ? pad - num.size() : 0, ' ') + num + sep +
         text + "\n";
}

std::string numbered(int n, const std::string& sep = "\t", int pad = 6) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += gutter_line(i, "line " + std::to_string(i), sep, pad);
  return s;
}

// `listing` unwraps as one listing layer and rewraps to exactly itself.
void expect_listing_round_trip(const std::string& listing) {
  Unwrapped u = unwrap_input(listing);
  ASSERT_EQ(u.layers.size(), 1u);
  std::string back = rewrap(u.body, u.layers);
  EXPECT_EQ(back, listing);
  EXPECT_EQ(unwrap_input(back).body, u.body);
}

TEST(GutterTest, StripsCatNStyle) {
  auto l = strip_gutter(numbered(10));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->source.substr(0, 14), "line 1\nline 2\n");
  EXPECT_EQ(l->numbers.size(), 10u);
}

TEST(GutterTest, StripsClaudeCodeArrowStyle) {
  auto l = strip_gutter(numbered(10, "\xE2\x86\x92"));
  ASSERT_TRUE(l);
  EXPECT_EQ(l->separator, "\xE2\x86\x92");
}

TEST(GutterTest, RejectsShortOrNonIncreasing) {
  EXPECT_FALSE(strip_gutter(numbered(7)));
  std::string s = numbered(9);
  s += "     3\tline back\n";
  EXPECT_FALSE(strip_gutter(s));
  EXPECT_FALSE(strip_gutter("1:x\n2:y\n3:z\n4:a\n5:b\n6:c\n7:d\n8:e\n"));  // "N:" without space
}

TEST(GutterTest, RestoreTracesLinesAndKeepsOriginalNumbers) {
  auto l = strip_gutter(numbered(10));
  ASSERT_TRUE(l);
  std::string out = restore_gutter("line 1\nline 2\n… 6 lines elided (caveman) …\nline 9\nline 10\n", *l);
  EXPECT_EQ(out,
            "     1\tline 1\n     2\tline 2\n     3\t… 6 lines elided (caveman) …\n     9\tline 9\n"
            "    10\tline 10\n");
}

// Regression (found by fuzz_wrappers): consecutive blank gutter lines ("    27\t", "    28\t")
// were all restored with the cursor's number, so the rewrapped listing repeated a number and
// no longer parsed as a listing.
TEST(GutterTest, RestoreGivesConsecutiveBlankLinesTheirOwnNumbers) {
  std::string listing;
  for (int i = 1; i <= 12; ++i) listing += gutter_line(i, i == 5 || i == 6 ? "" : "code " + std::to_string(i));
  expect_listing_round_trip(listing);
}

// Regression (found by fuzz_wrappers): with one bare blank line in the listing, every blank
// line was restored bare, including numbered empty ones ("     8\t"); the rewrapped text had
// fewer than 8 numbered lines and no longer parsed as a listing, so its body changed.
TEST(GutterTest, RestoreKeepsTheGutterOfNumberedEmptyLinesBesideBareBlankOnes) {
  std::string listing = "     1\tone\n     2\ttwo\n   \n";  // line 3: bare blank, no gutter
  for (int i = 7; i <= 12; ++i) listing += gutter_line(i, i == 8 || i == 10 ? "" : "code " + std::to_string(i));
  expect_listing_round_trip(listing);
}

// Regression (found by fuzz_wrappers): a listing ending in a numbered empty line without a
// newline ("    14") stripped to a source ending in "\n", which rewrapped as a trailing
// newline: one numbered line fewer, and the body changed. It is not unwrapped now.
TEST(GutterTest, ALastNumberedEmptyLineWithoutNewlineIsNotUnwrapped) {
  std::string listing = numbered(9);
  listing += "    10";
  Unwrapped u = unwrap_input(listing);
  EXPECT_TRUE(u.layers.empty());
  EXPECT_EQ(rewrap(u.body, u.layers), listing);
  EXPECT_TRUE(strip_gutter(numbered(9) + "    10\n"));  // with its newline it is a listing
}

TEST(GutterTest, RestoreDeclinesWhenMostLinesAreUntraceable) {
  auto l = strip_gutter(numbered(10));
  ASSERT_TRUE(l);
  std::string compressed = "{\"reencoded\":true}\nother\nline 1\n";
  EXPECT_EQ(restore_gutter(compressed, *l), compressed);
}

TEST(FileWrapperTest, StripsSingleWrapper) {
  std::string inner;
  auto w = strip_file_wrapper("  <file path=\"a>b\">\nbody\n</file>\n", &inner);
  ASSERT_TRUE(w);
  EXPECT_EQ(inner, "\nbody\n");
  EXPECT_EQ(w->prefix, "  <file path=\"a>b\">");
  EXPECT_EQ(w->suffix, "</file>\n");
  EXPECT_FALSE(strip_file_wrapper("<file>a</file><file>b</file>", &inner));
  EXPECT_FALSE(strip_file_wrapper("<file>   </file>", &inner));
  EXPECT_FALSE(strip_file_wrapper("<filer>x</file>", &inner));
}

TEST(UnwrapTest, RoundTripsGutterInsideFile) {
  std::string input = "<file path=\"x\">\n" + numbered(9) + "</file>";
  Unwrapped u = unwrap_input(input);
  EXPECT_EQ(u.layers.size(), 2u);
  EXPECT_EQ(rewrap(u.body, u.layers), input);
}

}  // namespace
}  // namespace caveman::core
