#include "compress/terminal/terminal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compress/compressors.h"
#include "compress/terminal/terminal_clean.h"

namespace caveman::compress {
namespace {

std::optional<std::string> run(std::string_view input) {
  auto out = make_terminal_compressor()->compress(input, "");
  if (!out) return std::nullopt;
  return out->bytes;
}

std::string join(const std::vector<std::string>& lines, std::string_view eol = "\n") {
  std::string out;
  for (const auto& l : lines) out += l + std::string(eol);
  return out;
}

std::vector<std::string> progress_lines(int n) {
  std::vector<std::string> lines;
  for (int i = 0; i < n; ++i) {
    lines.push_back("[" + std::to_string(i) + "/" + std::to_string(n) +
                    "] Building CXX object src/build.cc.o");
  }
  return lines;
}

TEST(StripAnsiTest, Sequences) {
  EXPECT_EQ(strip_ansi("\x1b[01;32mclang\x1b[0m"), "clang");
  EXPECT_EQ(strip_ansi("a\x1b[?25lb\x1b[2Kc"), "abc");
  // OSC 8 hyperlink terminated by BEL, and by ST.
  EXPECT_EQ(strip_ansi("[\x1b]8;;https://gcc.gnu.org/x\x07-Wunused\x1b]8;;\x07]"), "[-Wunused]");
  EXPECT_EQ(strip_ansi("\x1b]0;title\x1b\\text"), "text");
  // nF (charset designation), two-byte escapes, DCS string.
  EXPECT_EQ(strip_ansi("\x1b(Bplain\x1b[m"), "plain");
  EXPECT_EQ(strip_ansi("\x1b"
                       "7saved\x1b"
                       "8"),
            "saved");
  EXPECT_EQ(strip_ansi("\x1bPq#0;2;0;0;0\x1b\\after"), "after");
  // A lone ESC at the end, or before a byte that starts no sequence, stays.
  EXPECT_EQ(strip_ansi("x\x1b"), "x\x1b");
  EXPECT_EQ(strip_ansi("\x1b[12"), "\x1b[12");
}

TEST(CleanTerminalLineTest, CarriageReturnFrames) {
  EXPECT_EQ(clean_terminal_line("10%\r50%\r100%"), "100%");
  EXPECT_EQ(clean_terminal_line("10%\r100%\r"), "100%\r");  // own CR re-attached
  EXPECT_EQ(clean_terminal_line("100%\r\x1b[K"), "100%");   // an erase-only frame is empty
  EXPECT_EQ(clean_terminal_line("\r\r"), "\r");
  EXPECT_EQ(clean_terminal_line("ab\bc"), "ac");
  EXPECT_EQ(clean_terminal_line("h\bh\xc3\xa9\bx"), "hx");  // backspace erases a whole rune
  EXPECT_EQ(clean_terminal_line("\bx"), "x");
}

TEST(TerminalTest, NothingToDoDeclines) {
  EXPECT_FALSE(run("hello\nworld\n"));
  EXPECT_FALSE(run(""));
  EXPECT_FALSE(run("\x1b[31mred\xff\x1b[0m\n"));  // invalid UTF-8
}

TEST(TerminalTest, ShortInputIsOnlyCleaned) {
  auto out = run("\x1b[32mok\x1b[0m\nline\n");
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "ok\nline\n");
}

TEST(TerminalTest, ElidesRepeatedProgressAndKeepsHeadTail) {
  std::vector<std::string> lines = progress_lines(30);
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  std::string expected;
  for (int i = 0; i < 3; ++i) expected += lines[i] + "\n";
  expected +=
      "… 24 lines matching \"[{n}/30] Building CXX object src/build.cc.o\" elided (caveman) …\n";
  for (int i = 27; i < 30; ++i) expected += lines[i] + "\n";
  EXPECT_EQ(*out, expected);
}

TEST(TerminalProblemLineTest, Rules) {
  for (std::string_view p :
       {"ERR! code ELIFECYCLE", "npm WARN deprecated", "FAILED: build.ninja",
        "AssertionError: expected 1 got 2", "raise IOError", "terror strikes",
        "java.lang.RuntimeException", "src/x.cc:12:5: note: in expansion",
        "make: *** [all] exit status 2", "    at Object.<anonymous> (index.js:1:1)",
        "  File \"main.py\", line 3, in <module>", "---> retrying", "  ---> retrying",
        "Caused by: java.io.IOException", "goroutine 1 main.go:42 +0x1d",
        "Traceback (most recent call last):"}) {
    EXPECT_TRUE(is_terminal_problem_line(p)) << p;
  }
  for (std::string_view p :
       {"exit status 0", "errors are counted", "src/x.cc:12: note", "at the end",
        "File \"main.py\"", "failing", "main.go:x", "Building CXX object"}) {
    EXPECT_FALSE(is_terminal_problem_line(p)) << p;
  }
}

TEST(TerminalDiffstatTest, Shapes) {
  for (std::string_view l : {" util/hash.cc | 2 +-", "| |  include/leveldb/slice.h | 3 +++",
                             "|   db/db_impl.cc | 5 +++++\r", " img/logo.png | Bin 0 -> 1234 bytes",
                             "*  a b.txt | 12 ++++++------"}) {
    EXPECT_TRUE(is_diffstat_line(l)) << l;
  }
  for (std::string_view l :
       {" name | 12", " | 2 +-", "a | b", "x | 2 +-x", " 1 file changed", "col1 | col2 | 3 +"}) {
    EXPECT_FALSE(is_diffstat_line(l)) << l;
  }
}

TEST(TerminalTest, DiffstatLinesAreKept) {
  // A stat line whose words all occur in a kept error line: the gate alone drops it.
  std::vector<std::string> lines = progress_lines(30);
  lines[10] = "src/util/hash.cc:30:15: runtime error: bad offset";
  lines[16] = " util/hash.cc | 2 +-";
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("\n util/hash.cc | 2 +-\n"), std::string::npos);
}

TEST(TerminalTest, KeepsProblemLinesTheGateWouldDrop) {
  // Each probe shares its neighbours' vocabulary, so only the problem rule keeps it.
  struct Probe {
    std::string base, problem;
  };
  for (const Probe& p : std::vector<Probe>{
           {"step object src/x.cc:12 exit status 0", "step object src/x.cc:12:5: exit status 0"},
           {"step object src/x.cc exit status 0", "step object src/x.cc exit status 2"}}) {
    std::vector<std::string> lines;
    for (int i = 0; i < 30; ++i) lines.push_back(p.base);
    lines[15] = p.problem;
    auto out = run(join(lines));
    ASSERT_TRUE(out) << p.problem;
    EXPECT_NE(out->find(p.problem + "\n"), std::string::npos) << p.problem;
  }
}

TEST(TerminalTest, RepeatedIdenticalWarningStaysAtEveryOccurrence) {
  // A failure signal is never hidden, not even as a repeat: where it occurs may matter.
  std::vector<std::string> lines = progress_lines(40);
  const std::string warning = "src/jobserver.h:208:31: warning: unused parameter 'slot'";
  lines[10] = warning;
  lines[20] = warning;
  lines[30] = warning;
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  std::size_t shown = 0;
  for (std::size_t p = out->find(warning + "\n"); p != std::string::npos;
       p = out->find(warning, p + 1)) {
    ++shown;
  }
  EXPECT_EQ(shown, 3u) << *out;
  EXPECT_NE(out->find("lines matching"), std::string::npos) << *out;
  // A different warning is its own fact.
  lines[30] = "src/clparser.cc:81:55: warning: comparison of integers";
  out = run(join(lines));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find(lines[30]), std::string::npos);
}

TEST(TerminalTest, StripsAnsiBeforeJudgingAndKeepsCrlf) {
  std::vector<std::string> lines = progress_lines(30);
  std::vector<std::string> colored;
  for (const auto& l : lines) colored.push_back("\x1b[32m" + l + "\x1b[0m\r");
  auto out = run(join(colored));
  ASSERT_TRUE(out);
  EXPECT_EQ(out->find('\x1b'), std::string::npos);
  EXPECT_NE(out->find("… 24 lines matching \"[{n}/30] Building CXX object src/build.cc.o\" elided "
                      "(caveman) …\r\n"),
            std::string::npos)
      << *out;
  EXPECT_NE(out->find(lines[0] + "\r\n"), std::string::npos);
}

TEST(TerminalTest, MixedLineEndings) {
  std::vector<std::string> lines = progress_lines(30);
  std::string input;
  for (std::size_t i = 0; i < lines.size(); ++i) input += lines[i] + (i % 4 == 0 ? "\r\n" : "\n");
  auto out = run(input);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->rfind(lines[0] + "\r\n" + lines[1] + "\n", 0), 0u);
  EXPECT_NE(out->find("… 24 lines matching"), std::string::npos) << *out;
  EXPECT_NE(out->find("elided (caveman) …\n"), std::string::npos);
  EXPECT_EQ(out->find("(caveman) …\r"), std::string::npos);
}

TEST(TerminalTest, CarriageReturnRedrawsCollapse) {
  std::string input;
  for (int i = 0; i <= 100; i += 10) input += "\rDownloading " + std::to_string(i) + "%";
  input += "\nDone\n";
  auto out = run(input);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "Downloading 100%\nDone\n");
}

TEST(TerminalTest, DeterministicAndIdempotent) {
  std::vector<std::string> lines = progress_lines(200);
  lines[50] = "\x1b[31merror:\x1b[0m something broke";
  lines[120] = "linking libfoo.so";
  std::string input = join(lines);
  auto a = run(input);
  auto b = run(input);
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, *b);
  EXPECT_FALSE(run(*a));  // re-entry guard: the engine passes a second pass through
}

TEST(TerminalTest, ReentryGuardOnlyForOwnOutput) {
  std::vector<std::string> lines = progress_lines(30);
  lines[15] = "… 4 lines elided (caveman) …";
  EXPECT_FALSE(run(join(lines)));
  lines[0] = "\x1b[1m" + lines[0] + "\x1b[0m";  // escape sequences: not our output
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("… 4 lines elided (caveman) …"), std::string::npos);
}

TEST(TerminalTest, HugeSingleLine) {
  std::string big = "\x1b[1m" + std::string(64u << 20, 'x') + "\x1b[0m";
  auto out = run(big);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->size(), 64u << 20);
}

}  // namespace
}  // namespace caveman::compress
