#include "output_lines.h"

#include <gtest/gtest.h>

namespace caveman::shrink {
namespace {

TEST(CleanLine, RemovesEscapesAndCarriageReturnRedraws) {
  EXPECT_EQ(clean_line("\x1b[1;31merror:\x1b[0m bad"), "error: bad");
  EXPECT_EQ(clean_line("10%\r50%\r100% done   "), "100% done");
  EXPECT_EQ(clean_line("text\r"), "text");
  EXPECT_EQ(clean_line("\x1b]0;title\x07visible"), "visible");
  EXPECT_EQ(clean_line("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"), "link");
  EXPECT_EQ(clean_line("a\x1b" "7b"), "ab");
}

TEST(IsErrorLine, RecognisesFailureReports) {
  for (std::string_view s :
       {"bad.cpp:3:1: error: expected ';'", "FAILED: build.ninja", "npm ERR! code 1",
        "Traceback (most recent call last):", "TypeError: x is undefined",
        "thread 'main' panicked at src/main.rs", "ld: undefined reference to `f'",
        "Segmentation fault (core dumped)", "sh: 1: foo: not found", "make: *** [all] Error 2",
        "Permission denied", "AssertionError"}) {
    EXPECT_TRUE(is_error_line(s)) << s;
  }
  for (std::string_view s : {"Compiling foo.c", "terrors are fine? no", "0 warnings", "errorless"}) {
    EXPECT_FALSE(is_error_line(s)) << s;
  }
}

TEST(FailureEvidence, EveryErrorLineAndTheLastTwentyNonBlankLines) {
  std::string text;
  for (int i = 0; i < 100; ++i) {
    text += (i == 10 ? std::string("error: early") : "line " + std::to_string(i)) + "\n";
  }
  text += "\n";
  CleanLines lines(text);
  ASSERT_EQ(lines.lines().size(), 101u);
  std::vector<std::size_t> keep = failure_evidence(lines.lines());
  ASSERT_EQ(keep.size(), 21u);
  EXPECT_EQ(keep[0], 10u);
  EXPECT_EQ(keep[1], 80u);
  EXPECT_EQ(keep.back(), 99u);
}

TEST(KeepLinesView, MarksRunsAndShowsSingleDroppedLines) {
  std::vector<std::string_view> lines = {"a", "b", "c", "d", "e", "f", "g", "h"};
  EXPECT_EQ(keep_lines_view(lines, {4, 6}, 2),
            "a\nb\n\xE2\x80\xA6 2 lines elided (caveman) \xE2\x80\xA6\ne\nf\ng\n"
            "h\n");
  EXPECT_EQ(keep_lines_view(lines, {7}, 1), "a\n\xE2\x80\xA6 6 lines elided (caveman) \xE2\x80\xA6\nh\n");
}

TEST(ShowsLines, ComparesCleanLines) {
  std::vector<std::string_view> lines = {"error: x", "ok"};
  EXPECT_TRUE(shows_lines("\x1b[31merror: x\x1b[0m\n", lines, {0}));
  EXPECT_FALSE(shows_lines("ok\n", lines, {0, 1}));
}

TEST(CleanLines, CopiesOnlyTheLinesCleaningChanges) {
  std::string text = "plain\n\x1b[31mred\x1b[0m\nbar 10%\rbar 100%\ntrailing   \n";
  CleanLines lines(text);
  ASSERT_EQ(lines.lines().size(), 4u);
  EXPECT_EQ(lines.lines()[0], "plain");
  EXPECT_EQ(lines.lines()[0].data(), text.data()) << "an unchanged line is a view";
  EXPECT_EQ(lines.lines()[1], "red");
  EXPECT_EQ(lines.lines()[2], "bar 100%");
  EXPECT_EQ(lines.lines()[3], "trailing");
}

TEST(SparseLinesView, MarksEveryGapIncludingTheEnd) {
  EXPECT_EQ(sparse_lines_view({{0, "a"}, {3, "d"}, {4, "e"}}, 10),
            "a\n\xE2\x80\xA6 2 lines elided (caveman) \xE2\x80\xA6\nd\ne\n"
            "\xE2\x80\xA6 5 lines elided (caveman) \xE2\x80\xA6\n");
  EXPECT_EQ(sparse_lines_view({}, 0), "");
}

}  // namespace
}  // namespace caveman::shrink
