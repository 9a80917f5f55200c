#include "core/detect_rules.h"
#include "core/wrappers.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <variant>
#include <vector>

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

// A line a compressor shortened (a signature whose body was elided) keeps the number of the
// source line it starts with, and a blank line after the elided span takes the number just
// before the next line, instead of every line after the first change repeating one number.
TEST(GutterTest, RestoreNumbersShortenedLinesByTheSourceLineTheyStartWith) {
  std::string listing;
  const std::vector<std::string> src = {"'use strict'", "", "test('first case', (t) => {",
                                        "  t.equal(1, 1)", "  t.end()", "})", "",
                                        "test('second case', (t) => {", "  t.end()", "})"};
  for (std::size_t i = 0; i < src.size(); ++i) listing += gutter_line(static_cast<int>(i + 1), src[i]);
  auto l = strip_gutter(listing);
  ASSERT_TRUE(l);
  std::string out = restore_gutter(
      "'use strict'\n\ntest('first case', (t) => { /* caveman: body elided */ })\n\n"
      "test('second case', (t) => { /* caveman: body elided */ })\n",
      *l);
  EXPECT_EQ(out, gutter_line(1, "'use strict'") + gutter_line(2, "") +
                     gutter_line(3, "test('first case', (t) => { /* caveman: body elided */ })") +
                     gutter_line(7, "") +
                     gutter_line(8, "test('second case', (t) => { /* caveman: body elided */ })"));
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
// newline: one numbered line fewer. Issue 27: declining to unwrap it left every whole-file
// Read of Claude Code uncompressed; the line is now kept in the Listing and put back exactly.
TEST(GutterTest, ALastNumberedEmptyLineWithoutNewlineIsRestoredExactly) {
  std::string listing = numbered(9) + "    10";
  expect_listing_round_trip(listing);
  auto l = strip_gutter(listing);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->source.substr(l->source.size() - 7), "line 9\n");  // the file's final newline
  EXPECT_EQ(l->last_empty, "    10");
  EXPECT_EQ(l->numbers.size(), 9u);
}

// Claude Code 2.1.197's Read: unpadded "N\t", and a file ending in a newline gets a last
// numbered empty line without a newline after it.
std::string claude_read(const std::string& file, int offset = 1, int limit = 1 << 30) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = file.find('\n', start)) != std::string::npos; start = nl + 1) {
    lines.push_back(file.substr(start, nl - start));
  }
  lines.push_back(file.substr(start));
  std::string out;
  for (int i = offset; i < offset + limit && i <= static_cast<int>(lines.size()); ++i) {
    if (i > offset) out += "\n";
    out += std::to_string(i) + "\t" + lines[i - 1];
  }
  return out;
}

std::string sample_file(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += i % 4 == 0 ? "\n" : "  value " + std::to_string(i) + "\n";
  return s;
}

TEST(GutterTest, ClaudeCodeReadOfAFileEndingInANewlineUnwrapsToTheFile) {
  std::string file = sample_file(120);
  std::string listing = claude_read(file);
  ASSERT_EQ(listing.substr(listing.size() - 5), "\n121\t");
  Unwrapped u = unwrap_input(listing);
  ASSERT_EQ(u.layers.size(), 1u);
  EXPECT_EQ(u.body, file);
  EXPECT_EQ(rewrap(u.body, u.layers), listing);
}

TEST(GutterTest, ClaudeCodeReadWithoutAFinalNewlineOrWithOffsetAndLimitRoundTrips) {
  std::string file = sample_file(120);
  std::string no_newline = file.substr(0, file.size() - 1);
  Unwrapped u = unwrap_input(claude_read(no_newline));
  ASSERT_EQ(u.layers.size(), 1u);
  EXPECT_EQ(u.body, no_newline);
  // Starts at line 31 and ends mid-document, without a newline.
  std::string limited = claude_read(file, 31, 40);
  ASSERT_EQ(limited.substr(0, 3), "31\t");
  u = unwrap_input(limited);
  ASSERT_EQ(u.layers.size(), 1u);
  EXPECT_EQ(std::get<Listing>(u.layers[0]).numbers.front(), 31);
  EXPECT_EQ(rewrap(u.body, u.layers), limited);
  // An offset read that reaches the end of the file ends in the numbered empty line.
  expect_listing_round_trip(claude_read(file, 100));
}

TEST(GutterTest, ShortListingsNeedClaudeCodesLastLineOrLongText) {
  std::string json = "{\"a\":[" + std::string(2000, '1') + "]}";
  Unwrapped u = unwrap_input(claude_read(json + "\n"));  // "1\t{…}\n2\t"
  ASSERT_EQ(u.layers.size(), 1u);
  EXPECT_EQ(u.body, json + "\n");
  expect_listing_round_trip("     1\t" + json + "\n");  // cat -n of a one-line file
  expect_listing_round_trip(claude_read("one\ntwo\n"));
  EXPECT_FALSE(strip_gutter("1\tone\n2\ttwo\n"));   // short, no last line, little text
  EXPECT_FALSE(strip_gutter("1\tone\n3\ttwo\n4\t"));  // not consecutive
}

// Each gutter style agents produce: unwrap gives the file, rewrap gives the listing back.
TEST(GutterTest, EveryStyleRoundTripsByteForByte) {
  std::string file = sample_file(40);
  for (const std::string& sep : {std::string("\t"), std::string("\xE2\x86\x92"),
                                 std::string(" | "), std::string(": ")}) {
    for (int pad : {0, 6}) {
      std::string listing;
      int n = 0;
      std::size_t start = 0;
      for (std::size_t nl; (nl = file.find('\n', start)) != std::string::npos; start = nl + 1) {
        listing += gutter_line(++n, file.substr(start, nl - start), sep, pad);
      }
      Unwrapped u = unwrap_input(listing);
      ASSERT_EQ(u.layers.size(), 1u) << sep << pad;
      EXPECT_EQ(u.body, file);
      EXPECT_EQ(rewrap(u.body, u.layers), listing);
    }
  }
}

TEST(GutterTest, NumberOnlyEmptyLinesRoundTripAndMixedGuttersAreLeftAlone) {
  std::string listing = numbered(4) + "     5\n" + gutter_line(6, "six") + "     7\n" + numbered(12).substr(numbered(7).size());
  expect_listing_round_trip(listing);
  // "     5\t" beside "     7": no single rendering reproduces both, so no unwrap.
  std::string mixed = numbered(4) + "     5\t\n" + gutter_line(6, "six") + "     7\n" + numbered(12).substr(numbered(7).size());
  EXPECT_FALSE(strip_gutter(mixed));
  // Padding that changes width mid-listing is not one cat -n rendering either.
  std::string repadded = numbered(8) + "9\tline 9\n";
  EXPECT_FALSE(strip_gutter(repadded));
}

// The fuzz_wrappers invariant over gutter-shaped inputs from a fixed-seed generator (the fuzz
// target needs a clang build; this runs with the unit tests): unwrap then rewrap is the input.
TEST(GutterTest, GutterShapedInputsRoundTripByteForByte) {
  std::mt19937 rng(27);
  const std::string seps[] = {"\t", "\xE2\x86\x92", " | ", ": ", ""};
  const std::string texts[] = {"", "x", " {", "\"a\": 1,", "\r", "   ", "\tlead"};
  std::size_t unwrapped = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string input;
    int lines = 1 + static_cast<int>(rng() % 14), n = static_cast<int>(rng() % 3);
    int pad = static_cast<int>(rng() % 3) * 3;
    for (int i = 0; i < lines; ++i) {
      n += rng() % 7 == 0 ? 0 : 1 + static_cast<int>(rng() % 2 == 0 ? 0 : rng() % 3);
      if (rng() % 11 == 0) {
        input += "  ";  // a bare blank line
      } else {
        std::string num = std::to_string(n);
        input += std::string(pad > static_cast<int>(num.size()) && rng() % 13 ? pad - num.size() : 0, ' ');
        input += num + seps[rng() % 13 == 0 ? rng() % 5 : round % 4] + texts[rng() % 7];
      }
      if (i + 1 < lines || rng() % 2) input += '\n';
    }
    Unwrapped u = unwrap_input(input);
    unwrapped += u.layers.empty() ? 0 : 1;
    ASSERT_EQ(rewrap(u.body, u.layers), input) << round;
    if (!u.layers.empty()) {
      ASSERT_EQ(unwrap_input(rewrap(u.body, u.layers)).body, u.body) << round;
    }
  }
  EXPECT_GT(unwrapped, 100u);  // the generator does produce listings
}

TEST(GutterTest, RestoreDeclinesWhenMostLinesAreUntraceable) {
  auto l = strip_gutter(numbered(10));
  ASSERT_TRUE(l);
  std::string compressed = "{\"reencoded\":true}\nother\nline 1\n";
  EXPECT_EQ(restore_gutter(compressed, *l), compressed);
}

// Reads a sparse gutter the way a model must: a numbered line sets the count, every other
// line is one more than the line above it.
std::vector<std::int64_t> counted_numbers(const std::string& view, std::string* text) {
  std::vector<std::int64_t> nums;
  std::int64_t n = 0;
  std::size_t pos = 0;
  while (pos < view.size()) {
    std::size_t nl = view.find('\n', pos);
    std::string line = view.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    std::size_t digits = line.find_first_not_of("0123456789");
    if (digits > 0 && digits != std::string::npos && line[digits] == '\t') {
      n = std::stoll(line.substr(0, digits));
      line = line.substr(digits + 1);
    } else {
      ++n;
    }
    nums.push_back(n);
    *text += line + "\n";
    pos = nl == std::string::npos ? view.size() : nl + 1;
  }
  return nums;
}

TEST(SparseGutterTest, NumbersTheFirstLineEveryFifthAndTheLineAfterAGap) {
  auto l = strip_gutter(numbered(14));
  ASSERT_TRUE(l);
  std::string out =
      restore_gutter("line 1\nline 2\nline 3\n… 6 lines elided …\nline 10\nline 11\nline 12\n", *l,
                     GutterStyle::kSparse);
  // "line 3" is followed by a line the compressor added; "line 10" is a multiple of 5 anyway,
  // and would be numbered after the added line too.
  EXPECT_EQ(out, "1\tline 1\nline 2\nline 3\n… 6 lines elided …\n10\tline 10\nline 11\nline 12\n");
  std::string gap = restore_gutter("line 1\nline 7\nline 8\n", *l, GutterStyle::kSparse);
  EXPECT_EQ(gap, "1\tline 1\n7\tline 7\nline 8\n");
}

// A marker of a file read names the file's lines it hides and the re-read that shows them
// (docs/formats.md#markers), when the markers between two shown lines account for all of them.
TEST(SparseGutterTest, MarkersOfAFileReadNameTheirLineRange) {
  auto l = strip_gutter(numbered(14));
  ASSERT_TRUE(l);
  std::string out = restore_gutter(
      "line 1\n\xE2\x80\xA6 2 lines matching \"line {n}\" elided (caveman) \xE2\x80\xA6\n"
      "\xE2\x80\xA6 3 lines elided (caveman): same \xE2\x80\xA6\nline 7\nline 8\n",
      *l, GutterStyle::kSparse);
  EXPECT_EQ(out,
            "1\tline 1\n\xE2\x80\xA6 lines 2\xE2\x80\x93"
            "3 matching \"line {n}\" elided (caveman): "
            "Read offset=2 limit=2 \xE2\x80\xA6\n\xE2\x80\xA6 lines 4\xE2\x80\x93"
            "6 elided (caveman): "
            "same; Read offset=4 limit=3 \xE2\x80\xA6\n7\tline 7\nline 8\n");
  // Counts that do not add up to the hidden lines name no range: the marker stays as it is.
  std::string wrong =
      restore_gutter("line 1\n\xE2\x80\xA6 4 lines elided (caveman) \xE2\x80\xA6\nline 7\n", *l,
                     GutterStyle::kSparse);
  EXPECT_NE(wrong.find("\xE2\x80\xA6 4 lines elided (caveman) \xE2\x80\xA6"), std::string::npos);
  EXPECT_EQ(wrong.find("Read offset"), std::string::npos);
}

// Property: over random listings (any offset, blank lines), the numbers a
// reader counts from the sparse view of the whole text are the listing's, and the text under
// it is the source byte for byte.
TEST(SparseGutterTest, EveryNumberFollowsFromTheView) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    int first = 1 + static_cast<int>(rng() % 900);
    int count = 8 + static_cast<int>(rng() % 60);
    std::string listing;
    for (int i = 0; i < count; ++i) {
      std::string text = rng() % 4 == 0 ? "" : "x" + std::to_string(rng() % 97);
      listing += gutter_line(first + i, text, "\t");
    }
    auto l = strip_gutter(listing);
    ASSERT_TRUE(l) << listing;
    std::string text;
    std::vector<std::int64_t> nums =
        counted_numbers(restore_gutter(l->source, *l, GutterStyle::kSparse), &text);
    EXPECT_EQ(text, l->source);
    ASSERT_EQ(nums.size(), l->numbers.size());
    EXPECT_EQ(nums, l->numbers);
  }
}

TEST(SparseGutterTest, KeepsNumbersThatAreContentAndNumbersLinesThatLookNumbered) {
  std::string grep;  // grep -n: the numbers are not consecutive, so each one is a fact
  for (int i = 1; i <= 10; ++i)
    grep += std::to_string(i * 7) + ": match " + std::to_string(i) + "\n";
  auto g = strip_gutter(grep);
  ASSERT_TRUE(g);
  EXPECT_EQ(restore_gutter(g->source, *g, GutterStyle::kSparse), grep);
  std::string lines;  // a file some of whose own lines start like a gutter
  for (int i = 1; i <= 10; ++i)
    lines += gutter_line(i, i % 3 == 0 ? "    " + std::to_string(i) : "x");
  auto t = strip_gutter(lines);
  ASSERT_TRUE(t);
  EXPECT_EQ(restore_gutter(t->source, *t, GutterStyle::kSparse),
            "1\tx\nx\n3\t    3\nx\n5\tx\n6\t    6\nx\nx\n9\t    9\n10\tx\n");
  std::string text;
  EXPECT_EQ(counted_numbers(restore_gutter(t->source, *t, GutterStyle::kSparse), &text),
            t->numbers);
}

// Claude Code puts a blank line between a Read and the reminders it appends: a bare blank
// after the last numbered line leaves every number implied, one in the middle does not.
TEST(SparseGutterTest, OnlyATrailingBareBlankLineKeepsTheNumbersImplied) {
  std::string listing = numbered(12);
  Unwrapped u = unwrap_input(listing + "\n<system-reminder>\nnote\n</system-reminder>\n");
  ASSERT_EQ(u.layers.size(), 2u);
  const auto* l = std::get_if<Listing>(&u.layers[1]);
  ASSERT_NE(l, nullptr);
  EXPECT_TRUE(l->bare_blanks);
  EXPECT_TRUE(numbers_consecutive(*l));
  EXPECT_EQ(rewrap(u.body, u.layers, GutterStyle::kSparse).substr(0, 16), "1\tline 1\nline 2\n");
  auto middle = strip_gutter(numbered(5) + "\n" + numbered(12).substr(numbered(5).size()));
  ASSERT_TRUE(middle);
  EXPECT_FALSE(numbers_consecutive(*middle));
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

// Claude Code appends reminders to the latest tool result; the listing under them is still a
// listing of the file (a Read of a CSV followed by "deferred tools are now available").
TEST(UnwrapTest, TrailingSystemRemindersAreASuffixAroundTheListing) {
  std::string csv = "version,published_utc\n";
  for (int i = 0; i < 40; ++i) csv += "5." + std::to_string(i) + ".0,2025-01-" + std::to_string(10 + i % 18) + "T00:00:00Z\n";
  std::string listing;
  int n = 0;
  for (std::size_t at = 0; at < csv.size();) {
    std::size_t nl = csv.find('\n', at);
    listing += std::to_string(++n) + "\t" + csv.substr(at, nl - at) + "\n";
    at = nl + 1;
  }
  listing += std::to_string(++n) + "\t";
  std::string input = listing + "\n<system-reminder>\nThe following deferred tools are now available.\n"
                      "</system-reminder>\n<system-reminder>\nsecond\n</system-reminder>";
  Unwrapped u = unwrap_input(input);
  ASSERT_EQ(u.layers.size(), 2u);
  EXPECT_EQ(u.body, csv + "\n");  // the last numbered line is followed by a newline here
  EXPECT_EQ(rewrap(u.body, u.layers), input);
  EXPECT_EQ(detect_body(u.body), "tabular");
  std::string inner;
  EXPECT_FALSE(strip_trailing_reminders("<system-reminder>only</system-reminder>", &inner));
  EXPECT_FALSE(strip_trailing_reminders("text <system-reminder>mid-line</system-reminder>", &inner));
}

TEST(UnwrapTest, RoundTripsGutterInsideFile) {
  std::string input = "<file path=\"x\">\n" + numbered(9) + "</file>";
  Unwrapped u = unwrap_input(input);
  EXPECT_EQ(u.layers.size(), 2u);
  EXPECT_EQ(rewrap(u.body, u.layers), input);
}

}  // namespace
}  // namespace caveman::core
